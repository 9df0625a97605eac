import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectServiceDb } from "../../shared/mongo.ts";
import { QUEUES } from "../../shared/queue.ts";
import { stackOn, testCluster } from "../support/cluster.ts";
import {
	allOpportunities,
	drained,
	inBatches,
	noticeTitle,
	productBody,
	queueOf,
	reportFault,
	seller,
	type Seller,
} from "../support/faults.ts";
import { notice } from "../support/opportunities.ts";
import { waitFor } from "../support/processes.ts";
import { api, dropTestDatabases, type Stack } from "../support/stack.ts";

// Two matching processes share the queues. A product saved where many open notices name its
// model makes one real, seconds-long indexing job (a result written per notice); the process
// running it is killed with SIGKILL halfway. The job must finish on the other process (BullMQ
// sees the lock expire: shared/queue.ts) with exactly one opportunity per notice.

const NOTICES = 240;
const MODEL = "C9300-48P-A";
let cluster: Awaited<ReturnType<typeof testCluster>>;
let stack: Stack;
let acme: Seller;
let oppDb: Connection;
const productQueue = queueOf(QUEUES.productIndex);
const noticeQueue = queueOf(QUEUES.noticeMatch);

beforeAll(async () => {
	// No restarts: the job must be finished by the process that was there all along.
	cluster = await testCluster({
		restart: false,
		layout: [
			{ name: "api", services: "gateway,auth-keys,catalog,opportunities" },
			{ name: "matching", services: "matching", count: 2 },
		],
	});
	await cluster.ready();
	stack = await stackOn(cluster, ["auth-keys", "opportunities", "catalog", "matching"]);
	oppDb = await connectServiceDb("opportunities");
	acme = await seller(stack, "Acme Networks");
	await inBatches(
		Array.from({ length: NOTICES }, (_, i) => i),
		8,
		(i) => notice(stack, { title: noticeTitle(MODEL, `site ${i}`) }),
	);
	// Matched before the product exists: nothing to score yet, and out of the way of the job.
	await drained(noticeQueue, 90_000);
}, 180_000);
afterAll(async () => {
	await productQueue.disconnect();
	await noticeQueue.disconnect();
	await oppDb?.close();
	await stack?.stop();
	await cluster?.stop();
	await dropTestDatabases();
}, 60_000);

describe("a matching worker killed mid-job", () => {
	it("finishes the job on the other worker with one opportunity per notice", async () => {
		const saved = await api(stack, "POST", "/products", { key: acme.key, body: productBody(acme, MODEL) });
		expect(saved.status, JSON.stringify(saved.body)).toBe(201);
		const productId = saved.body.id as string;
		const jobOf = async () =>
			(await productQueue.getJobs(["active", "waiting", "prioritized", "completed"])).find((j) => j.data?.productId === productId);
		const written = () => oppDb.collection("opportunities").countDocuments({ tenant_id: acme.tenantId });

		// The job running, some of its results written: kill the process that holds it.
		const running = await waitFor(
			"the indexing job to be running",
			async () => {
				const job = await jobOf();
				return job?.processedBy && !job.finishedOn && (await written()) >= NOTICES / 5 ? job : undefined;
			},
			60_000,
		);
		const victim = cluster.member(running.processedBy!);
		const survivor = cluster.members.find((m) => m.spec.name === "matching" && m !== victim)!;
		const atKill = await written();
		const killedAt = Date.now();
		cluster.kill(victim.id, "SIGKILL");
		expect(atKill).toBeLessThan(NOTICES);

		const done = await waitFor(
			"the job to finish elsewhere",
			async () => {
				const job = await jobOf();
				return job?.finishedOn ? job : undefined;
			},
			90_000,
		);
		const tookOver = (done.finishedOn! - killedAt) / 1000;
		expect(done.processedBy).toBe(survivor.nodeID);
		expect(await done.getState()).toBe("completed");

		const listed = await allOpportunities(stack, acme.key);
		const stored = await oppDb
			.collection("opportunities")
			.find({ tenant_id: acme.tenantId }, { projection: { notice_id: 1 } })
			.toArray();
		expect(listed).toHaveLength(NOTICES);
		expect(new Set(stored.map((o) => o.notice_id)).size).toBe(stored.length);
		expect(stored).toHaveLength(NOTICES);
		reportFault(
			`kill matching worker mid-job: ${victim.nodeID} killed (SIGKILL) after ${atKill}/${NOTICES} results; ` +
				`the job completed on ${done.processedBy} ${tookOver.toFixed(1)} s later; ` +
				`${listed.length} opportunities, one per (company, notice), 0 duplicates`,
		);
	}, 150_000);
});
