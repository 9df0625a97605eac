import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "mongoose";
import { MatchingEngine } from "../../services/matching/engine.ts";
import { matchingModels, type MatchingModels } from "../../services/matching/models.ts";
import type { Caller } from "../../shared/actions.ts";
import { redisClaims, type Claims } from "../../shared/claims.ts";
import { resetConfig } from "../../shared/config.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { addPartner, addProduct, catalogCompany, indexView, type CatalogCompany } from "../support/catalog.ts";
import { notice } from "../support/opportunities.ts";
import { dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Each matching worker keeps in-memory indexes and, before every job, reads what other workers
// stored since its last read: a range on `seq`, less an overlap, because a slower worker can
// store a smaller seq after this one read a larger. Two engines over one database stand for two
// workers here (no queue workers run: the test runs their jobs itself); what one stored must
// count in the other's next job, the late, smaller seq included; a job about one company's products
// reads only that company's changes, and still every one of them.

let stack: Stack;
let acme: CatalogCompany;
let partnerId: string;
let conn: Connection;
let m: MatchingModels;
const claims: Claims[] = [];

const engine = () => {
	const c = redisClaims("matching-backlog", 60_000);
	claims.push(c);
	return new MatchingEngine(m, stack.broker as unknown as Caller, c);
};

/** A product saved through the API, and its version waiting for indexing. */
async function saved(name: string, model: string): Promise<{ id: string; version: string }> {
	const p = await addProduct(stack, acme, partnerId, { name, model });
	return { id: p.id, version: (await indexView(stack, p.id)).version };
}

/** The same product indexed by `by`, as its queue job would. */
async function indexed(by: MatchingEngine, name: string, model: string): Promise<string> {
	const p = await saved(name, model);
	await by.onProduct(acme.tenantId, p.id, p.version);
	return p.id;
}

/** Products the company's result for the notice was scored with (those in the worker's index). */
const scoredWith = async (noticeId: string) => (await m.results.findOne({ _id: `${acme.tenantId}|${noticeId}` }).lean())?.product_ids ?? [];

beforeAll(async () => {
	process.env.WORKERS = "off";
	resetConfig();
	stack = await startStack("gateway,auth-keys,catalog,opportunities,matching");
	acme = await catalogCompany(stack, "Catchup Co");
	partnerId = (await addPartner(stack, acme, "Cisco")).id;
	conn = await connectServiceDb("matching");
	m = matchingModels(conn);
}, 60_000);
afterAll(async () => {
	for (const c of claims) c.close();
	await conn?.close();
	await stack?.stop();
	await dropTestDatabases();
});

describe("a matching worker catching up with another's writes", () => {
	it("scores with a product another worker stored since its last read", async () => {
		const [a, b] = [engine(), engine()];
		await indexed(a, "Harwell thermal imaging camera", "HW-T640");
		await b.sync(); // from here on, b reads only what is new
		const id = await indexed(a, "Harwell thermal imaging camera", "HW-T860");
		const n = await notice(stack, {
			title: "Thermal imaging cameras Harwell HW-T860",
			description: "Harwell HW-T860 thermal imaging camera, quantity 12.",
		});
		await b.onNotice(n);
		expect(await scoredWith(n)).toContain(id);
	});

	it("scores with a product stored after its last read under a smaller seq (a slower worker's)", async () => {
		const [a, b] = [engine(), engine()];
		await indexed(a, "Dräger self-contained breathing apparatus", "PSS-5000");
		await b.sync();
		const read = (await m.products.findOne().sort({ seq: -1 }).lean())!.seq;
		// Another worker took its seq before b's read and stores only now.
		const late = await indexed(a, "Dräger self-contained breathing apparatus", "PSS-7000");
		await m.products.updateOne({ _id: late }, { $set: { seq: read - 2_000 } });
		const n = await notice(stack, {
			title: "Breathing apparatus Dräger PSS-7000",
			description: "Dräger PSS-7000 self-contained breathing apparatus, quantity 30.",
		});
		await b.onNotice(n);
		expect(await scoredWith(n)).toContain(late);
	});

	it("catches up with its company's products in a product job, a late, smaller seq included", async () => {
		const [a, b] = [engine(), engine()];
		await indexed(a, "Zebra handheld barcode scanner", "DS2208");
		const n = await notice(stack, {
			title: "Barcode scanners Zebra DS2278 and Zebra DS8178",
			description: "Zebra DS2278 and Zebra DS8178 handheld barcode scanners, quantity 40.",
		});
		await a.onNotice(n);
		await b.sync();
		const read = (await m.products.findOne().sort({ seq: -1 }).lean())!.seq;
		// Another worker took its seq before b's read and stores only now.
		const late = await indexed(a, "Zebra handheld barcode scanner", "DS2278");
		await m.products.updateOne({ _id: late }, { $set: { seq: read - 2_000 } });
		// b's job for another product of the company re-scores the notice with every product of it.
		const p = await saved("Zebra handheld barcode scanner", "DS8178");
		await b.onProduct(acme.tenantId, p.id, p.version);
		expect(await scoredWith(n)).toEqual(expect.arrayContaining([late, p.id]));
	});

	it("scores a product with a notice another worker stored since its last read", async () => {
		const [a, b] = [engine(), engine()];
		await indexed(a, "Olympus laboratory microscope", "CX23");
		await b.sync();
		const n = await notice(stack, {
			title: "Laboratory microscopes Olympus CX43",
			description: "Olympus CX43 upright laboratory microscope, quantity 8.",
		});
		await a.onNotice(n);
		const p = await saved("Olympus laboratory microscope", "CX43");
		await b.onProduct(acme.tenantId, p.id, p.version);
		expect(await scoredWith(n)).toContain(p.id);
	});
});
