import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { config } from "../../shared/config.ts";
import type { QueueName } from "../../shared/queue.ts";
import { waitFor } from "./processes.ts";
import { api, apiKey, companyWithSession, type Stack } from "./stack.ts";

// Shared steps of the fault tests (test/faults): a selling company with a key for everything
// the tests do, its opportunities as the API lists them, the queues of the test's prefix, and
// the one line each test prints about what it checked.

export interface Seller {
	tenantId: string;
	key: string;
	partnerId: string;
}

export const ALL_SCOPES = ["opportunities:read", "opportunities:write", "profile:read", "profile:write", "settings:read", "settings:write"];

/** A company with an owner, a key with every scope and one authorized partner ("Cisco"). */
export async function seller(stack: Stack, name: string): Promise<Seller> {
	const company = await companyWithSession(stack, name);
	const key = (await apiKey(stack, company, ALL_SCOPES)).secret;
	const partner = await api(stack, "POST", "/products/partners", { key, body: { name: "Cisco" } });
	if (partner.status !== 201) throw new Error(`partner: ${partner.status} ${JSON.stringify(partner.body)}`);
	return { tenantId: company.tenantId, key, partnerId: partner.body.id };
}

/** A product whose model notices can name (an exact model mention is a strong match). */
export const productBody = (s: Seller, model: string) => ({
	oem_partner_id: s.partnerId,
	name: `Cisco Catalyst 9300 48-port PoE+ Switch ${model}`,
	model,
	description: "Stackable enterprise access switch with 48 Gigabit PoE+ ports and modular uplinks.",
});

/** A notice title that matches the product of `model`. */
export const noticeTitle = (model: string, site: string) => `Cisco Catalyst 9300 ${model} network switches for ${site}`;

/** Every opportunity of the company, page by page, as the API lists them. */
export async function allOpportunities(stack: Stack, key: string): Promise<Array<{ id: string; title: string; score: number | null }>> {
	const items: any[] = [];
	let cursor: string | null = null;
	do {
		const res = await api(stack, "GET", `/opportunities?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
		if (res.status !== 200) throw new Error(`list: ${res.status} ${JSON.stringify(res.body)}`);
		items.push(...res.body.items);
		cursor = res.body.nextCursor ?? null;
	} while (cursor);
	return items;
}

/** One of the system's queues under this test's Redis prefix (and URL), read as an operator would. */
export function queueOf(name: QueueName, redisUrl = config().REDIS_URL): Queue & { disconnect(): Promise<void> } {
	const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
	connection.on("error", () => undefined);
	const queue = new Queue(name, { connection, prefix: `${config().REDIS_PREFIX}:bull` });
	queue.on("error", () => undefined);
	return Object.assign(queue, {
		async disconnect() {
			await queue.close();
			connection.disconnect();
		},
	});
}

/** Until the queue has nothing waiting, delayed or running. */
export const drained = (queue: Queue, timeoutMs = 60_000) =>
	waitFor(
		`queue ${queue.name} to drain`,
		async () => {
			const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized");
			return Object.values(counts).every((n) => n === 0) ? true : undefined;
		},
		timeoutMs,
	);

/** The line a fault test prints about what it checked, with its figures. */
export const reportFault = (line: string) => process.stdout.write(`[fault] ${line}\n`);

/** Runs `fn` on up to `n` items at a time. */
export async function inBatches<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
	const out: R[] = [];
	for (let i = 0; i < items.length; i += n) out.push(...(await Promise.all(items.slice(i, i + n).map((x, j) => fn(x, i + j)))));
	return out;
}
