import { randomUUID } from "node:crypto";
import { ApiError } from "../../../shared/errors.ts";
import { isDuplicateKeyError } from "../../../shared/mongo.ts";
import type { RuleModels } from "./models.ts";

// The active-rule cap (MAX_ACTIVE_RULES) is a count of the company's active rules, and a count
// then a write is no check when another switch lands in between: ten concurrent PATCHes with one
// place left all counted 49 and all switched on. So whatever may switch a company's rule on
// (a person's PATCH, a learning job) runs holding the company's lock. Switching off needs no
// lock: it only makes room. The lock is one document claimed by one conditional update, atomic
// on MongoDB; its lease frees it when a holder dies. What runs under it is a count and a few
// writes, far below the lease; a holder stalled past its lease could overlap the next one.

const LEASE_MS = 30_000;
/** How long a switch waits for the company's lock before it answers 503 (retry shortly). */
const WAIT_MS = 10_000;
const FIRST_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` while no other holder of the company's rule lock runs. */
export async function withRuleLock<T>(m: RuleModels, tenantId: string, fn: () => Promise<T>): Promise<T> {
	const holder = randomUUID();
	const giveUpAt = Date.now() + WAIT_MS;
	for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
		const now = new Date();
		try {
			// Free (released, or its lease passed): take it. Absent: the upsert creates it taken.
			// Held: the filter misses, the upsert collides with the held document's _id.
			await m.ruleLocks.updateOne(
				{ _id: tenantId, until: { $lte: now } },
				{ $set: { holder, until: new Date(now.getTime() + LEASE_MS) } },
				{ upsert: true },
			);
			break;
		} catch (e) {
			if (!isDuplicateKeyError(e)) throw e;
		}
		if (Date.now() >= giveUpAt) {
			throw new ApiError("internal", "Another change of this company's rules is in progress; retry shortly", {
				status: 503,
				headers: { "Retry-After": "1" },
			});
		}
		await sleep(backoff * (0.5 + Math.random()));
	}
	try {
		return await fn();
	} finally {
		// Only our own claim: after a lease that passed, the lock may be someone else's.
		await m.ruleLocks.updateOne({ _id: tenantId, holder }, { $set: { holder: null, until: new Date(0) } });
	}
}
