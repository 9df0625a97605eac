import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "mongoose";
import { MatchingEngine } from "../../services/matching/engine.ts";
import { matchingModels } from "../../services/matching/models.ts";
import type { Caller } from "../../shared/actions.ts";
import { redisClaims, type Claims } from "../../shared/claims.ts";
import { resetConfig } from "../../shared/config.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { addPartner, catalogCompany, indexQueue, type CatalogCompany } from "../support/catalog.ts";
import { api, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// An import's indexing backlog taken by two matching workers at once: each takes a batch of
// its own (leases in Redis), and the jobs of the products a batch covered leave the queue.
// No queue workers run here: the test runs the two workers' jobs itself, at the same moment.

const ROWS = 260;
const BATCH = 100;

let stack: Stack;
let acme: CatalogCompany;
let conn: Connection;
const claims: Claims[] = [];
const queue = indexQueue();

const pending = async () =>
	(
		await stack.broker.call<{ items: Array<{ productId: string; version: string }> }, object>("catalog.pendingIndexViews", {
			tenantId: acme.tenantId,
			limit: 500,
		})
	).items;

beforeAll(async () => {
	process.env.WORKERS = "off";
	resetConfig();
	stack = await startStack("gateway,auth-keys,catalog,opportunities,matching");
	acme = await catalogCompany(stack, "Backlog Co");
	await addPartner(stack, acme, "Harwell");
	const rows = Array.from({ length: ROWS }, (_, i) => ({
		partner: "Harwell",
		name: `Harwell thermal camera ${i}`,
		model: `HW-${1000 + i}`,
		commodity_codes: ["46171610"],
	}));
	const imported = await api(stack, "POST", "/products/import", { key: acme.key, body: rows });
	expect(imported.status, JSON.stringify(imported.body)).toBe(200);
	conn = await connectServiceDb("matching");
}, 60_000);
afterAll(async () => {
	for (const c of claims) c.close();
	await queue.close();
	await conn?.close();
	await stack?.stop();
	await dropTestDatabases();
});

describe("an import's indexing backlog", () => {
	it("is split between two workers taking it at once, and their batches' jobs leave the queue", async () => {
		const waiting = await pending();
		expect(waiting).toHaveLength(ROWS);
		expect(await queue.jobs()).toHaveLength(ROWS);
		const workers = [0, 1].map(() => {
			const c = redisClaims("matching-backlog", 60_000);
			claims.push(c);
			return new MatchingEngine(matchingModels(conn), stack.broker as unknown as Caller, c);
		});
		// Each worker's own job: a product of the backlog, taken from the bulk lane.
		const [a, b] = [waiting[0]!, waiting[ROWS - 1]!];
		const done = await Promise.all([
			workers[0]!.onProduct(acme.tenantId, a.productId, a.version, true),
			workers[1]!.onProduct(acme.tenantId, b.productId, b.version, true),
		]);
		const covered = done.reduce((n, d) => n + d.products, 0);
		console.log(
			`indexing backlog: two workers took ${done.map((d) => d.products).join(" and ")} products; ${(await pending()).length} of ${ROWS} still waiting`,
		);

		// Without leases both would take the same oldest batch and cover about BATCH + 2 products.
		expect(done.map((d) => d.products)).toEqual([BATCH + 1, BATCH + 1]);
		const left = await pending();
		expect(left.length).toBeLessThanOrEqual(ROWS - covered + 1);
		// Jobs left: those of products no batch took, and at most the two workers' own (the queue's
		// runner, not the engine, completes those); a batch's products lost theirs.
		const jobs = (await queue.jobs()).map((j) => j.data.productId as string);
		expect(new Set(jobs)).toEqual(
			new Set([...jobs.filter((id) => id === a.productId || id === b.productId), ...left.map((v) => v.productId)]),
		);
		expect(jobs.length).toBeGreaterThanOrEqual(left.length);
	});
});
