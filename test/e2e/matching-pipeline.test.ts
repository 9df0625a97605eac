import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectServiceDb } from "../../shared/mongo.ts";
import { QUEUES } from "../../shared/queue.ts";
import { drained, queueOf } from "../support/faults.ts";
import { cli, ROOT, waitFor } from "../support/processes.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Company, type Stack } from "../support/stack.ts";

// The whole pipeline on the real stack: a catalog saved through the API, notices ingested by
// the CLI, matching run by its queue workers, and the company's opportunities over HTTP.

const DEV_NOTICES = resolve(ROOT, "../shared/eval/dev/notices.ocds.json");
const env = { MONGO_DB_PREFIX: process.env.MONGO_DB_PREFIX!, REDIS_PREFIX: process.env.REDIS_PREFIX! };

let stack: Stack;
let acme: Company;
let key: string;
let productId: string;

const list = async (query = "") => (await api(stack, "GET", `/opportunities${query}`, { key })).body.items as any[];

beforeAll(async () => {
	stack = await startStack();
	acme = await companyWithSession(stack, "Cobalt Networks");
	key = (await apiKey(stack, acme, ["opportunities:read", "opportunities:write", "profile:read", "profile:write"])).secret;
	await api(stack, "PATCH", "/profile", { key, body: { set_asides: ["small_business", "sdvosb"] } });
	const partner = (await api(stack, "POST", "/products/partners", { key, body: { name: "Cisco", relationship: "Gold Integrator" } })).body;
	const product = await api(stack, "POST", "/products", {
		key,
		body: {
			oem_partner_id: partner.id,
			name: "Cisco Catalyst 9300 48-port PoE+ Switch, Network Advantage",
			model: "C9300-48P-A",
			description: "Stackable enterprise access switch with 48 Gigabit PoE+ ports and modular uplinks.",
			commodity_codes: ["43222612"],
		},
	});
	expect(product.status).toBe(201);
	productId = product.body.id;
	const ingested = await cli(["ingest", DEV_NOTICES], env);
	expect(ingested.code, ingested.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

describe("matching pipeline", () => {
	it("turns new notices into the company's scored opportunities with a readable rationale", async () => {
		const items = await waitFor(
			"opportunities to be listed",
			async () => {
				const xs = await list("?limit=100");
				return xs.some((x) => x.title.includes("Catalyst 9300")) ? xs : undefined;
			},
			60_000,
		);
		const best = items.find((x) => /Catalyst 9300/.test(x.title))!;
		expect(best.score).toBeGreaterThanOrEqual(60);
		expect(items[0].score).toBe(best.score); // nothing outranks the tender that names the product
		expect(best.product_match_name).toMatch(/Catalyst 9300/);
		const detail = (await api(stack, "GET", `/opportunities/${best.id}`, { key })).body;
		expect(detail.product_match).toMatchObject({ product_id: productId, model: "C9300-48P-A", oem: "Cisco" });
		expect(detail.rationale.length).toBeGreaterThan(0);
		expect(detail.rationale[0]).toEqual({ feature: expect.any(String), points: expect.any(Number), detail: expect.any(String) });
		expect(detail.signals).toMatchObject({ bid_eligibility: expect.any(String), procurement_nature: expect.any(String) });
		expect(detail.signal_source).toBe("heuristic");
		expect(typeof detail.eligible).toBe("boolean");
		// No notice is a match for every product: a narrow catalog gets a handful, not the whole feed.
		expect(items.length).toBeLessThan(30);
	});

	it("writes nothing when a product's or a notice's job is replayed", async () => {
		const best = await waitFor("the product's opportunity", async () => (await list()).find((x) => /Catalyst 9300/.test(x.title)));
		const conn = await connectServiceDb("opportunities");
		try {
			const stamps = async () =>
				new Map(
					(await conn.collection("opportunities").find({ tenant_id: acme.tenantId }).project({ updated_at: 1 }).toArray()).map((d) => [
						d._id,
						String(d.updated_at),
					]),
				);
			// The other notices' matching may still be landing: start from drained queues and a quiet moment.
			for (const name of [QUEUES.noticeMatch, QUEUES.productIndex]) {
				const queue = queueOf(name);
				try {
					await drained(queue);
				} finally {
					await queue.disconnect();
				}
			}
			let before = await stamps();
			for (let quiet = 0; quiet < 3; ) {
				await new Promise((r) => setTimeout(r, 500));
				const now = await stamps();
				quiet = JSON.stringify([...now]) === JSON.stringify([...before]) ? quiet + 1 : 0;
				before = now;
			}
			const indexed = await conn
				.useDb(conn.name.replace(/_opportunities$/, "_matching"))
				.collection<{ _id: string; version: string }>("products")
				.findOne({ _id: productId });
			await stack.broker.call("matching.matchProduct", { tenantId: acme.tenantId, productId, version: String(indexed!.version) });
			const noticeId = (await conn.collection("opportunities").findOne({ _id: best.id as never }))!.notice_id as string;
			const replayed = await stack.broker.call<{ tenants: number }, object>("matching.matchNotice", { noticeId });
			expect(replayed.tenants).toBeGreaterThan(0); // the company was scored again, not skipped
			expect(await stamps()).toEqual(before);
			expect(before.size).toBeGreaterThan(0);
		} finally {
			await conn.close();
		}
	});

	it("withdraws a discontinued product's matches but keeps their records and archive state", async () => {
		const best = (await list()).find((x) => /Catalyst 9300/.test(x.title))!;
		await api(stack, "POST", `/opportunities/${best.id}/archive`, { key });
		const res = await api(stack, "PATCH", `/products/${productId}`, { key, body: { status: "discontinued" } });
		expect(res.status).toBe(200);
		await waitFor("the match to drop out", async () => ((await list("?archived=true")).some((x) => x.id === best.id) ? undefined : true));
		const detail = await api(stack, "GET", `/opportunities/${best.id}`, { key });
		expect(detail.status).toBe(200);
		expect(detail.body.archived_at).toMatch(/Z$/);

		await api(stack, "PATCH", `/products/${productId}`, { key, body: { status: "active" } });
		await waitFor("the match to come back", async () => ((await list("?archived=true")).some((x) => x.id === best.id) ? true : undefined));
	});
});
