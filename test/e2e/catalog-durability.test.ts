import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { freePort, waitFor } from "../support/processes.ts";

// "Saving durably requests indexing", proven against a Redis of this file's own that the test
// stops and starts again (empty, as after a crash): saves keep answering while it is away,
// and once it is back the reconciler puts every pending request on the queue, exactly once.

let port: number;
let redis: ChildProcess | undefined;
let h: typeof import("../support/stack.ts");
let cat: typeof import("../support/catalog.ts");
let stack: import("../support/stack.ts").Stack;

async function redisAnswers(): Promise<true | undefined> {
	const client = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
	client.on("error", () => undefined);
	try {
		await client.connect();
		return (await client.ping()) === "PONG" ? true : undefined;
	} finally {
		client.disconnect();
	}
}

async function startRedis(): Promise<void> {
	redis = spawn("/usr/bin/redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
		stdio: "ignore",
	});
	await waitFor("the test's redis-server", redisAnswers, 10_000);
}

async function stopRedis(): Promise<void> {
	const child = redis;
	redis = undefined;
	if (!child || child.exitCode !== null) return;
	await new Promise<void>((res) => {
		child.once("exit", () => res());
		child.kill("SIGKILL");
	});
}

beforeAll(async () => {
	port = await freePort();
	process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
	// Only the test runs the reconciler here, so what it sends is what the test counts.
	process.env.OUTBOX_RECONCILE_MS = "3600000";
	resetConfig();
	await startRedis();
	h = await import("../support/stack.ts");
	cat = await import("../support/catalog.ts");
	stack = await h.startStack("gateway,auth-keys,catalog");
});
afterAll(async () => {
	await stack?.stop();
	await stopRedis();
	await h?.dropTestDatabases();
});

/** Runs `fn`, expecting it to answer within 3 s. */
async function quickly<T>(fn: () => Promise<T>): Promise<T> {
	const started = Date.now();
	const result = await fn();
	expect(Date.now() - started).toBeLessThan(3000);
	return result;
}

describe("durable indexing requests", () => {
	it("survive a Redis outage and reach the queue exactly once per product and version", async () => {
		const c = await cat.catalogCompany(stack, "Durable Co");
		const oem = await cat.addPartner(stack, c, "Durable OEM");
		const other = await cat.addPartner(stack, c, "Other OEM");
		const before = await cat.addProduct(stack, c, oem.id, { name: "Saved before the outage" });
		const untouched = await cat.addProduct(stack, c, other.id, { name: "Its job is lost with Redis" });

		await stopRedis();
		const during = await quickly(() =>
			h.api(stack, "POST", "/products", { key: c.key, body: { oem_partner_id: oem.id, name: "Saved during the outage", model: "D1" } }),
		);
		expect(during.status, JSON.stringify(during.body)).toBe(201);
		expect(during.body).toMatchObject({ name: "Saved during the outage", oem_name: "Durable OEM", status: "active" });
		const changed = await quickly(() =>
			h.api(stack, "PATCH", `/products/${before.id}`, { key: c.key, body: { description: "changed during the outage" } }),
		);
		expect(changed.status).toBe(200);
		expect(changed.body.description).toBe("changed during the outage");
		const discontinued = await quickly(() =>
			h.api(stack, "PATCH", `/products/${during.body.id}`, { key: c.key, body: { status: "discontinued" } }),
		);
		expect(discontinued.body.status).toBe("discontinued");
		const imported = await quickly(() =>
			h.api(stack, "POST", "/products/import", {
				key: c.key,
				body: [
					{ partner: "Durable OEM", name: "Imported during the outage" },
					{ partner: "Durable OEM", name: "Imported too" },
				],
			}),
		);
		expect(imported.body).toMatchObject({ created: 2 });
		const deauthorized = await quickly(() =>
			h.api(stack, "PATCH", `/products/partners/${oem.id}`, { key: c.key, body: { authorized: false } }),
		);
		expect(deauthorized.body.authorized).toBe(false);
		expect((await h.api(stack, "GET", "/products", { key: c.key })).body.items).toHaveLength(5);

		const productIds = [before.id, untouched.id, during.body.id, ...imported.body.rows.map((r: any) => r.product_id)];
		const views = await Promise.all(productIds.map((id) => cat.indexView(stack, id)));
		const pending = views.map((v) => `${v.productId}_${v.version}`).sort();
		expect(views.filter((v) => v.partner.id === oem.id).every((v) => !v.matchable)).toBe(true);

		await startRedis();
		const queue = cat.indexQueue();
		try {
			const jobs = await waitFor("every pending request on the queue", async () => {
				await stack.broker.call("catalog.reconcileIndexing", { graceMs: 0 });
				const all = await queue.jobs();
				return all.length >= pending.length ? all : undefined;
			});
			expect(jobs.map((j) => j.id).sort()).toEqual(pending);
			for (const j of jobs) expect(j.data).toEqual({ tenantId: c.tenantId, productId: j.id.split("_")[0], version: j.id.split("_")[1] });

			// Sending again adds nothing: the job id names the product and version.
			await stack.broker.call("catalog.reconcileIndexing", { graceMs: 0 });
			expect((await queue.jobs()).map((j) => j.id).sort()).toEqual(pending);

			// Once the consumer marks each version done, nothing is pending and nothing is sent.
			for (const v of views)
				expect(await stack.broker.call("catalog.markIndexed", { productId: v.productId, version: v.version })).toEqual({ done: true });
			expect(await stack.broker.call("catalog.reconcileIndexing", { graceMs: 0 })).toEqual({ fanouts: 0, sent: 0 });
			expect((await queue.jobs()).map((j) => j.id).sort()).toEqual(pending);

			// And the next change is sent at once again.
			const next = await h.api(stack, "PATCH", `/products/${untouched.id}`, { key: c.key, body: { name: "Changed after the outage" } });
			const version = (await cat.indexView(stack, untouched.id)).version;
			expect(next.status).toBe(200);
			expect((await queue.jobs()).map((j) => j.id)).toContain(`${untouched.id}_${version}`);
		} finally {
			await queue.close();
		}
	}, 60_000);

	it("finishes a partner's de-authorization that was interrupted before its products were marked", async () => {
		const c = await cat.catalogCompany(stack, "Interrupted Co");
		const oem = await cat.addPartner(stack, c, "Flaky OEM");
		const p = await cat.addProduct(stack, c, oem.id, { name: "Half-way" });
		const v0 = (await cat.indexView(stack, p.id)).version;
		// What a crash right after the partner's own write leaves behind: the flip and its fanout request.
		const models = (stack.broker.getLocalService("catalog") as unknown as { m: { partners: any } }).m;
		await models.partners.updateOne(
			{ _id: oem.id },
			{ $set: { authorized: false, fanout: { requested: "0".repeat(24), requested_at: new Date(), pending: true, done: null } } },
		);
		expect(await cat.indexView(stack, p.id)).toMatchObject({ version: v0, matchable: false });

		expect(await stack.broker.call("catalog.reconcileIndexing", { graceMs: 0 })).toMatchObject({ fanouts: 1 });
		const view = await cat.indexView(stack, p.id);
		expect(view.version > v0).toBe(true);
		const queue = cat.indexQueue();
		try {
			expect((await queue.jobs()).map((j) => j.id)).toContain(`${p.id}_${view.version}`);
		} finally {
			await queue.close();
		}
		expect(await stack.broker.call("catalog.reconcileIndexing", { graceMs: 0 })).toMatchObject({ fanouts: 0 });
	});
});
