import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES } from "../../shared/queue.ts";
import { privateRedis, stackOn, testCluster, type PrivateServer } from "../support/cluster.ts";
import { allOpportunities, drained, noticeTitle, productBody, queueOf, reportFault, seller, type Seller } from "../support/faults.ts";
import { notice } from "../support/opportunities.ts";
import { waitFor } from "../support/processes.ts";
import { api, dropTestDatabases, type Stack } from "../support/stack.ts";

// The cluster over a Redis of this test alone, stopped for 10 seconds (it keeps its data, as a
// restarted Redis does). Saves made meanwhile must succeed; their background work (indexing,
// matching) must happen once Redis is back, through the outbox reconcilers; nothing twice.

const OUTAGE_MS = 10_000;
const MODELS = ["C9300-24T-A", "C9300-48U-A", "C9300-48P-A"];
let redis: PrivateServer;
let cluster: Awaited<ReturnType<typeof testCluster>>;
let stack: Stack;
let acme: Seller;
let productQueue: ReturnType<typeof queueOf>;
let noticeQueue: ReturnType<typeof queueOf>;

beforeAll(async () => {
	redis = await privateRedis();
	productQueue = queueOf(QUEUES.productIndex, redis.url);
	noticeQueue = queueOf(QUEUES.noticeMatch, redis.url);
	cluster = await testCluster({
		layout: [
			{ name: "api", services: "gateway,auth-keys,catalog,opportunities" },
			{ name: "matching", services: "matching" },
		],
		// Re-send pending work every 2 s (the default is 15 s) so the test stays short.
		env: { REDIS_URL: redis.url, OUTBOX_RECONCILE_MS: "2000" },
	});
	await cluster.ready();
	stack = await stackOn(cluster, ["auth-keys", "opportunities", "catalog", "matching"]);
	acme = await seller(stack, "Acme Networks");
	for (const m of MODELS) await notice(stack, { title: noticeTitle(m, "before the outage") });
	await drained(noticeQueue);
}, 180_000);
afterAll(async () => {
	await redis?.start().catch(() => undefined);
	await productQueue?.disconnect();
	await noticeQueue?.disconnect();
	await stack?.stop();
	await cluster?.stop();
	await redis?.stop();
	await dropTestDatabases();
}, 60_000);

describe("Redis stopped for 10 seconds", () => {
	it("takes saves meanwhile and does their background work once, afterwards", async () => {
		await redis.stop();
		const stoppedAt = Date.now();
		const saves: Array<{ status: number; ms: number; id?: string }> = [];
		for (const m of MODELS) {
			const t0 = Date.now();
			const res = await api(stack, "POST", "/products", { key: acme.key, body: productBody(acme, m) });
			saves.push({ status: res.status, ms: Date.now() - t0, id: res.body?.id });
		}
		const noticesDuring = [
			await notice(stack, { title: noticeTitle(MODELS[0]!, "during the outage") }),
			await notice(stack, { title: noticeTitle(MODELS[1]!, "during the outage") }),
		];
		await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt))));
		await redis.start();
		const backAt = Date.now();

		expect(saves.map((s) => s.status)).toEqual([201, 201, 201]);
		const expected = MODELS.length + noticesDuring.length;
		const caughtUp = await waitFor(
			"every notice matched with the products saved during the outage",
			async () => {
				const opps = await allOpportunities(stack, acme.key);
				return opps.length === expected && opps.every((o) => o.score !== null) ? Date.now() : undefined;
			},
			90_000,
		);
		await drained(productQueue);

		const opps = await allOpportunities(stack, acme.key);
		const products = (await api(stack, "GET", "/products?limit=100", { key: acme.key })).body.items as Array<{ id: string }>;
		const jobs = await productQueue.getJobs(["completed", "waiting", "active", "delayed", "prioritized", "failed"]);
		const jobsPerProduct = saves.map((s) => jobs.filter((j) => j.data?.productId === s.id).length);
		expect(new Set(opps.map((o) => o.id)).size).toBe(expected);
		expect(products).toHaveLength(MODELS.length);
		expect(jobsPerProduct).toEqual([1, 1, 1]);
		reportFault(
			`stop Redis for ${OUTAGE_MS / 1000} s: ${saves.length}/${saves.length} product saves answered 201 during the outage ` +
				`(slowest ${Math.max(...saves.map((s) => s.ms))} ms), 2 notices stored; ` +
				`indexing and matching caught up ${((caughtUp - backAt) / 1000).toFixed(1)} s after Redis returned; ` +
				`${opps.length} opportunities for ${expected} notices, ${products.length} products, one indexing job each (0 duplicates)`,
		);
	}, 150_000);
});
