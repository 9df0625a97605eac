import type { Redis } from "ioredis";
import type { Membership as MembershipOut } from "../../shared/contract/auth.ts";
import type { AuthContext } from "../../shared/auth-context.ts";
import { ApiError } from "../../shared/errors.ts";
import { newAuthStamp, readAuthStamp, StampedMemo } from "../../shared/auth-stamp.ts";

// Every request with a credential used to read the auth database two to five times (issue 17:
// GET /me's rate was bound by those reads). auth-keys now keeps what it read in memory, under
// a stamp kept in Redis, and answers from memory only while the stamp it reads for the request
// is the one the answer was read under. Every change that can take access away or change a
// membership list (a key revoked, a session ended, a membership disabled, enabled or added)
// replaces the stamp before it answers, so the very next request, in any process, reads the
// database again. Expiry needs no stamp: each remembered credential keeps its expiry and is
// checked against the clock on every request. When Redis does not answer, nothing is answered
// from memory. An entry also lives at most AUTH_CACHE_MS, which bounds what only a change made
// outside auth-keys (an edit straight in the database) waits for.

/** A remembered credential: what authentication answered, and what must still be checked each time. */
export interface KnownCredential {
	auth: AuthContext;
	/** Milliseconds since the epoch; null: never expires. */
	expiresAt: number | null;
	/** When the key's last use was last stamped (API keys), to keep doing so once a minute. */
	lastUsedAt?: number;
}

const RETRY_MS = 1000;
/** How long a change waits for a Redis connection not yet (or no longer) up, e.g. in a CLI that just started. */
const CONNECT_WAIT_MS = 3000;

export class AuthMemory {
	readonly credentials: StampedMemo<KnownCredential>;
	readonly memberships: StampedMemo<MembershipOut[]>;
	/** User ids to emails (an email never changes once a user exists). */
	readonly emails: StampedMemo<string>;
	private retry?: NodeJS.Timeout;
	private closed = false;

	/**
	 * `redis` holds the stamp at `key`; `ttlMs` 0 remembers nothing (every request reads the
	 * database), though changes still replace the stamp for processes that remember.
	 */
	constructor(
		private readonly redis: Redis,
		private readonly key: string,
		private readonly ttlMs: number,
	) {
		this.credentials = new StampedMemo(ttlMs);
		this.memberships = new StampedMemo(ttlMs);
		this.emails = new StampedMemo(ttlMs);
	}

	/** The stamp for this request, or null (nothing from memory) when off or Redis did not answer. */
	async stamp(): Promise<string | null> {
		return this.ttlMs <= 0 ? null : readAuthStamp(this.redis, this.key);
	}

	/**
	 * Makes every process read the database again: called by each change of a credential or a
	 * membership, before it answers. If Redis cannot take the new stamp it is retried until Redis
	 * takes it; meanwhile a process that still reaches Redis may answer from memory, for at most
	 * AUTH_CACHE_MS. So a change that takes access away (`revocation`) then answers 503: it is
	 * saved, and its repeat tells the processes again. One that gives access (a membership added or
	 * enabled) only makes a memberships list late, and answers as usual.
	 */
	async changed(kind: "revocation" | "grant"): Promise<void> {
		this.clear();
		if (await this.replaceStamp()) return;
		this.retryStamp();
		if (kind === "grant" || this.ttlMs <= 0) return; // a late list; or nothing here remembers (processes are configured alike)
		throw new ApiError("internal", "The change is saved, but not yet in effect everywhere; repeat it shortly", {
			status: 503,
			headers: { "Retry-After": "5" },
		});
	}

	close(): void {
		this.closed = true;
		clearTimeout(this.retry);
		this.clear();
	}

	private clear(): void {
		this.credentials.clear();
		this.memberships.clear();
		this.emails.clear();
	}

	private async replaceStamp(): Promise<boolean> {
		try {
			if (!(await this.connected())) return false;
			await this.redis.set(this.key, newAuthStamp());
			return true;
		} catch {
			return false;
		}
	}

	private connected(): Promise<boolean> {
		if (this.redis.status === "ready") return Promise.resolve(true);
		return new Promise((resolve) => {
			const ready = () => {
				clearTimeout(timer);
				resolve(true);
			};
			const timer = setTimeout(() => {
				this.redis.off("ready", ready);
				resolve(false);
			}, CONNECT_WAIT_MS);
			this.redis.once("ready", ready);
		});
	}

	private retryStamp(): void {
		if (this.retry || this.closed) return;
		this.retry = setTimeout(async () => {
			this.retry = undefined;
			if (!(await this.replaceStamp())) this.retryStamp();
		}, RETRY_MS);
		this.retry.unref();
	}
}
