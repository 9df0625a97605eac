import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectServiceDb } from "../../shared/mongo.ts";
import { stackOn, testCluster } from "../support/cluster.ts";
import { inBatches, productBody, reportFault, seller, type Seller } from "../support/faults.ts";
import { waitFor } from "../support/processes.ts";
import { api, dropTestDatabases, type Stack } from "../support/stack.ts";

// Every process of the cluster restarted (gateways stopped first, each draining what it has in
// flight) while clients keep saving products through the cluster's URL. Saves fail while
// nothing listens; every save that was answered 201 must be there afterwards, and its durable
// indexing request must be carried out.

const WRITERS = 4;
let cluster: Awaited<ReturnType<typeof testCluster>>;
let stack: Stack;
let acme: Seller;
let catalogDb: Connection;

beforeAll(async () => {
	cluster = await testCluster({
		layout: [
			{ name: "gateway", services: "gateway", count: 2 },
			{ name: "api", services: "auth-keys,catalog,opportunities" },
			{ name: "matching", services: "matching" },
		],
		env: { RATE_LIMIT_POINTS: "100000000", OUTBOX_RECONCILE_MS: "2000" },
	});
	await cluster.ready();
	stack = await stackOn(cluster, ["auth-keys", "catalog", "opportunities"]);
	acme = await seller(stack, "Acme Networks");
	catalogDb = await connectServiceDb("catalog");
}, 180_000);
afterAll(async () => {
	await catalogDb?.close();
	await stack?.stop();
	await cluster?.stop();
	await dropTestDatabases();
}, 60_000);

describe("restarting every process under load", () => {
	it("loses no accepted write", async () => {
		const accepted: string[] = [];
		let refused = 0;
		let seq = 0;
		let writing = true;
		const writer = async () => {
			while (writing) {
				const model = `RL-${process.pid}-${seq++}`;
				try {
					const res = await fetch(`${cluster.url}/api/v1/products`, {
						method: "POST",
						headers: { Authorization: `Bearer ${acme.key}`, "Content-Type": "application/json" },
						body: JSON.stringify(productBody(acme, model)),
						signal: AbortSignal.timeout(15_000),
					});
					if (res.status === 201) accepted.push(((await res.json()) as { id: string }).id);
					else {
						refused++;
						await res.body?.cancel();
					}
				} catch {
					refused++;
					await new Promise((r) => setTimeout(r, 100)); // nothing listening: don't spin
				}
			}
		};
		const writers = Array.from({ length: WRITERS }, writer);
		await new Promise((r) => setTimeout(r, 3000));
		const beforeRestart = accepted.length;
		const t0 = Date.now();
		await cluster.restartAll();
		await cluster.ready();
		const downFor = (Date.now() - t0) / 1000;
		await new Promise((r) => setTimeout(r, 3000));
		writing = false;
		await Promise.all(writers);

		const missing = (
			await inBatches(accepted, 10, async (id) =>
				(await api(stack, "GET", `/products/${id}`, { key: acme.key })).status === 200 ? null : id,
			)
		).filter(Boolean);
		const stored = await catalogDb.collection("products").countDocuments({ tenant_id: acme.tenantId });
		// Each accepted save's indexing request is recorded with it (durable), done or still owed.
		const requested = await catalogDb
			.collection("products")
			.countDocuments({ tenant_id: acme.tenantId, "index.requested": { $exists: true } });
		const settled = await waitFor(
			"the indexing backlog to settle",
			async () => {
				const n = await catalogDb.collection("products").countDocuments({ tenant_id: acme.tenantId, "index.pending": true });
				return n === 0 ? n : undefined;
			},
			45_000,
		).catch(() => null);
		const pending = await catalogDb.collection("products").countDocuments({ tenant_id: acme.tenantId, "index.pending": true });
		expect(beforeRestart).toBeGreaterThan(0);
		expect(accepted.length).toBeGreaterThan(beforeRestart);
		expect(missing).toEqual([]);
		expect(stored).toBeGreaterThanOrEqual(accepted.length);
		expect(requested).toBe(stored);
		reportFault(
			`restart everything under load: ${cluster.members.length} processes restarted (back in ${downFor.toFixed(1)} s); ` +
				`${accepted.length} saves accepted (${beforeRestart} before the restart), ${refused} refused or failed while down; ` +
				`${accepted.length - missing.length}/${accepted.length} accepted saves readable afterwards, ` +
				`${stored} stored (${stored - accepted.length} whose answer was lost), ` +
				`each with its indexing request (${stored - pending} done within 45 s${settled === null ? `, ${pending} still queued` : ""})`,
		);
	}, 180_000);
});
