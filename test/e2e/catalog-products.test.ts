import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../shared/cursor.ts";
import {
	addPartner,
	addProduct,
	catalogCompany,
	expectError,
	getOk,
	indexQueue,
	indexView,
	listAll,
	type CatalogCompany,
} from "../support/catalog.ts";
import { api, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Catalog products over HTTP: every bound of the contract, uniqueness (also under concurrent
// requests), partial changes, listing with filters and cursors, tenant isolation, and the
// durable indexing request each relevant save records.

let stack: Stack;
let acme: CatalogCompany;
let globex: CatalogCompany;
let hp: any;
let dell: any;
let queue: ReturnType<typeof indexQueue>;

beforeAll(async () => {
	stack = await startStack("gateway,auth-keys,catalog");
	queue = indexQueue();
	acme = await catalogCompany(stack, "Acme Resale");
	globex = await catalogCompany(stack, "Globex Supply");
	hp = await addPartner(stack, acme, "HP Inc.");
	dell = await addPartner(stack, acme, "Dell Technologies");
});
afterAll(async () => {
	await queue?.close();
	await stack?.stop();
	await dropTestDatabases();
});

const post = (c: CatalogCompany, body: unknown) => api(stack, "POST", "/products", { key: c.key, body });
const patch = (c: CatalogCompany, id: string, body: unknown) => api(stack, "PATCH", `/products/${id}`, { key: c.key, body });
const count = async (c: CatalogCompany) => (await listAll(stack, c)).length;

describe("POST /products", () => {
	it("creates a product with every field, joined with its partner's name, and answers 201 with its address", async () => {
		const specs = { "Form factor": "Tower", "cpu.cores": 8, $price: { currency: "USD" }, zeta: [1, "two"], alpha: true, "": "blank key" };
		const res = await post(acme, {
			oem_partner_id: hp.id,
			name: " EliteDesk 800 G9 ",
			model: "5V8L5UT#ABA",
			description: "Business desktop, Intel Core i7",
			commodity_codes: ["43211507", "423430"],
			specs,
			rep_status: "catalog",
			source_url: "https://hp.example/us-en/shop/5V8L5UT",
		});
		expect(res.status, JSON.stringify(res.body)).toBe(201);
		expect(res.body).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			oem_partner_id: hp.id,
			oem_name: "HP Inc.",
			name: "EliteDesk 800 G9",
			model: "5V8L5UT#ABA",
			description: "Business desktop, Intel Core i7",
			commodity_codes: ["43211507", "423430"],
			specs,
			rep_status: "catalog",
			status: "active",
			source: "api",
			source_url: "https://hp.example/us-en/shop/5V8L5UT",
			created_at: expect.stringMatching(/Z$/),
			updated_at: res.body.created_at,
		});
		expect(res.headers.get("location")).toBe(`/api/v1/products/${res.body.id}`);
		// Verbatim, key order included, on every read.
		const read = await getOk(stack, acme, `/products/${res.body.id}`);
		expect(read).toEqual(res.body);
		expect(JSON.stringify(read.specs)).toBe(JSON.stringify(specs));
	});

	it("applies the defaults: model, description and source_url null, no codes, empty specs, carried, active", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "LaserJet Pro 4001dn" });
		expect(p).toMatchObject({
			model: null,
			description: null,
			commodity_codes: [],
			specs: {},
			rep_status: "carried",
			status: "active",
			source_url: null,
		});
	});

	it("refuses a repeat of partner, name and model (case and spacing aside) with already_exists and never overwrites", async () => {
		const first = await addProduct(stack, acme, dell.id, { name: "PowerEdge R760", model: "R760-XS", description: "original" });
		for (const body of [
			{ name: "PowerEdge R760", model: "R760-XS", description: "overwrite?" },
			{ name: "poweredge  r760", model: " r760-xs" },
		]) {
			const res = await post(acme, { oem_partner_id: dell.id, ...body });
			expectError(res, 409, "already_exists");
			expect(res.body.message).toContain(first.id);
		}
		expect((await getOk(stack, acme, `/products/${first.id}`)).description).toBe("original");
		// Another model, no model, or another partner is another product.
		await addProduct(stack, acme, dell.id, { name: "PowerEdge R760", model: "R760-XA" });
		const noModel = await addProduct(stack, acme, dell.id, { name: "PowerEdge R760" });
		expectError(await post(acme, { oem_partner_id: dell.id, name: "PowerEdge R760", model: null }), 409, "already_exists");
		await addProduct(stack, acme, hp.id, { name: "PowerEdge R760", model: "R760-XS" });
		expect(noModel.model).toBeNull();
		// The same names in another company do not collide.
		const gp = await addPartner(stack, globex, "Dell Technologies");
		await addProduct(stack, globex, gp.id, { name: "PowerEdge R760", model: "R760-XS" });
	});

	it("lets exactly one of ten identical concurrent creates through", async () => {
		const body = { oem_partner_id: dell.id, name: "Latitude 7440", model: "N7440" };
		const results = await Promise.all(Array.from({ length: 10 }, () => post(acme, body)));
		expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
		for (const r of results.filter((x) => x.status === 409)) expect(r.body.error).toBe("already_exists");
		expect((await listAll(stack, acme, "q=latitude%207440")).length).toBe(1);
	});

	it("answers validation_failed for a partner that is not the company's, partner_not_authorized for a de-authorized one", async () => {
		const theirs = await addPartner(stack, globex, "Globex OEM");
		expectError(await post(acme, { oem_partner_id: theirs.id, name: "Borrowed" }), 400, "validation_failed", "body.oem_partner_id");
		expectError(await post(acme, { oem_partner_id: crypto.randomUUID(), name: "Orphan" }), 400, "validation_failed", "body.oem_partner_id");
		const gone = await addPartner(stack, acme, "Gone OEM");
		await api(stack, "PATCH", `/products/partners/${gone.id}`, { key: acme.key, body: { authorized: false } });
		expectError(await post(acme, { oem_partner_id: gone.id, name: "Unauthorized" }), 409, "partner_not_authorized");
		expect((await listAll(stack, acme, "q=orphan")).length + (await listAll(stack, acme, "q=unauthorized")).length).toBe(0);
	});

	it("rejects every bad input with validation_failed and the field's path, storing nothing", async () => {
		const before = await count(acme);
		const ok = { oem_partner_id: hp.id, name: "Valid name" };
		const deep = JSON.parse(`${'{"a":'.repeat(11)}1${"}".repeat(11)}`);
		const cases: Array<[unknown, string]> = [
			[{ name: "No partner" }, "body.oem_partner_id"],
			[{ ...ok, oem_partner_id: "123" }, "body.oem_partner_id"],
			[{ ...ok, oem_partner_id: null }, "body.oem_partner_id"],
			[{ oem_partner_id: hp.id }, "body.name"],
			[{ ...ok, name: "" }, "body.name"],
			[{ ...ok, name: "x".repeat(201) }, "body.name"],
			[{ ...ok, name: null }, "body.name"],
			[{ ...ok, name: 7 }, "body.name"],
			[{ ...ok, model: "" }, "body.model"],
			[{ ...ok, model: "m".repeat(101) }, "body.model"],
			[{ ...ok, model: 5 }, "body.model"],
			[{ ...ok, description: "" }, "body.description"],
			[{ ...ok, description: "d".repeat(4001) }, "body.description"],
			[{ ...ok, commodity_codes: Array.from({ length: 51 }, (_, i) => `C${i}`) }, "body.commodity_codes"],
			[{ ...ok, commodity_codes: "43211507" }, "body.commodity_codes"],
			[{ ...ok, commodity_codes: [""] }, "body.commodity_codes.0"],
			[{ ...ok, commodity_codes: null }, "body.commodity_codes"],
			[{ ...ok, specs: null }, "body.specs"],
			[{ ...ok, specs: ["a"] }, "body.specs"],
			[{ ...ok, specs: "text" }, "body.specs"],
			[{ ...ok, specs: { big: "x".repeat(17_000) } }, "body.specs"],
			[{ ...ok, specs: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])) }, "body.specs"],
			[{ ...ok, specs: deep }, "body.specs"],
			[{ ...ok, rep_status: "stocked" }, "body.rep_status"],
			[{ ...ok, rep_status: null }, "body.rep_status"],
			[{ ...ok, status: "discontinued" }, "body"],
			[{ ...ok, source_url: "javascript:alert(1)" }, "body.source_url"],
			[{ ...ok, source_url: `https://x.example/${"p".repeat(2050)}` }, "body.source_url"],
			[{ ...ok, id: crypto.randomUUID() }, "body"],
			[[ok], "body"],
		];
		for (const [body, path] of cases) expectError(await post(acme, body), 400, "validation_failed", path);
		const proto = await api(stack, "POST", "/products", {
			key: acme.key,
			rawBody: `{"oem_partner_id":"${hp.id}","name":"Proto","specs":{"__proto__":{"x":1}}}`,
			headers: { "Content-Type": "application/json" },
		});
		expectError(proto, 400, "validation_failed");
		expect(await count(acme)).toBe(before);
	});
});

describe("PATCH /products/{id}", () => {
	it("changes only what is sent, clears model, description and source_url with null, and keeps created_at", async () => {
		const p = await addProduct(stack, acme, hp.id, {
			name: "ProBook 450",
			model: "G10",
			description: "15.6 inch",
			source_url: "https://hp.example/probook",
			specs: { RAM: "16 GB" },
		});
		const res = await patch(acme, p.id, { description: null, source_url: null, commodity_codes: ["43211503"] });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		expect(res.body).toEqual({
			...p,
			description: null,
			source_url: null,
			commodity_codes: ["43211503"],
			updated_at: expect.stringMatching(/Z$/),
		});
		expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at));
		const cleared = await patch(acme, p.id, { model: null, specs: { "b.c": 1, a: 2 }, rep_status: "catalog" });
		expect(cleared.body).toMatchObject({ model: null, specs: { "b.c": 1, a: 2 }, rep_status: "catalog", name: "ProBook 450" });
		expect(Object.keys(cleared.body.specs)).toEqual(["b.c", "a"]);
		expect(await getOk(stack, acme, `/products/${p.id}`)).toEqual(cleared.body);
	});

	it("discontinues and reactivates; moves to another of the company's authorized partners", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "ZBook Fury" });
		expect((await patch(acme, p.id, { status: "discontinued" })).body.status).toBe("discontinued");
		expect((await listAll(stack, acme, "status=discontinued")).map((x) => x.id)).toContain(p.id);
		expect((await patch(acme, p.id, { status: "active" })).body.status).toBe("active");
		const moved = await patch(acme, p.id, { oem_partner_id: dell.id });
		expect(moved.body).toMatchObject({ oem_partner_id: dell.id, oem_name: "Dell Technologies" });

		const theirs = await addPartner(stack, globex, "Not Acme's");
		expectError(await patch(acme, p.id, { oem_partner_id: theirs.id }), 400, "validation_failed", "body.oem_partner_id");
		const off = await addPartner(stack, acme, "Off OEM");
		await api(stack, "PATCH", `/products/partners/${off.id}`, { key: acme.key, body: { authorized: false } });
		expectError(await patch(acme, p.id, { oem_partner_id: off.id }), 409, "partner_not_authorized");
		expect((await getOk(stack, acme, `/products/${p.id}`)).oem_partner_id).toBe(dell.id);
	});

	it("answers already_exists for a change that would collide, changing nothing", async () => {
		await addProduct(stack, acme, hp.id, { name: "EliteBook 840", model: "G11" });
		const other = await addProduct(stack, acme, hp.id, { name: "EliteBook 840", model: "G10", description: "keep me" });
		const res = await patch(acme, other.id, { model: "g11 ", description: "changed" });
		expectError(res, 409, "already_exists");
		expect(await getOk(stack, acme, `/products/${other.id}`)).toEqual(other);
		// Changing the case of its own name is not a collision with itself.
		expect((await patch(acme, other.id, { name: "ELITEBOOK 840" })).status).toBe(200);
	});

	it("lets only one of two concurrent renames to the same name through", async () => {
		const a = await addProduct(stack, acme, hp.id, { name: "Rename A" });
		const b = await addProduct(stack, acme, hp.id, { name: "Rename B" });
		const [ra, rb] = await Promise.all([patch(acme, a.id, { name: "Renamed" }), patch(acme, b.id, { name: "renamed" })]);
		expect([ra.status, rb.status].sort()).toEqual([200, 409]);
		expect([ra, rb].find((r) => r.status === 409)!.body.error).toBe("already_exists");
		expect((await listAll(stack, acme, "q=renamed")).length).toBe(1);
	});

	it("rejects bad input, unknown ids and other companies' products, changing nothing", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "Envy 16" });
		const cases: Array<[unknown, string]> = [
			[{}, "body"],
			[{ name: null }, "body.name"],
			[{ name: "" }, "body.name"],
			[{ rep_status: null }, "body.rep_status"],
			[{ status: "deleted" }, "body.status"],
			[{ status: null }, "body.status"],
			[{ commodity_codes: null }, "body.commodity_codes"],
			[{ specs: null }, "body.specs"],
			[{ oem_partner_id: null }, "body.oem_partner_id"],
			[{ model: "m".repeat(101) }, "body.model"],
			[{ source_url: "nope" }, "body.source_url"],
			[{ created_at: "2020-01-01T00:00:00Z" }, "body"],
		];
		for (const [body, path] of cases) expectError(await patch(acme, p.id, body), 400, "validation_failed", path);
		expectError(await patch(acme, "12345", { name: "x" }), 400, "validation_failed", "id");
		expectError(await patch(acme, crypto.randomUUID(), { name: "x" }), 404, "not_found");
		expectError(await patch(globex, p.id, { name: "Stolen" }), 404, "not_found");
		expect(await getOk(stack, acme, `/products/${p.id}`)).toEqual(p);
	});
});

describe("GET /products/{id}", () => {
	it("answers not_found for another company's product or an unknown id, validation_failed for a non-UUID", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "Spectre x360" });
		expectError(await api(stack, "GET", `/products/${p.id}`, { key: globex.key }), 404, "not_found");
		expectError(await api(stack, "GET", `/products/${crypto.randomUUID()}`, { key: acme.key }), 404, "not_found");
		expectError(await api(stack, "GET", "/products/abc", { key: acme.key }), 400, "validation_failed", "id");
	});
});

describe("GET /products", () => {
	let c: CatalogCompany;
	let ids: string[];
	let olympus: any;
	let zeiss: any;

	beforeAll(async () => {
		c = await catalogCompany(stack, "Lister Co");
		olympus = await addPartner(stack, c, "Olympus");
		zeiss = await addPartner(stack, c, "Carl Zeiss");
		ids = [];
		for (let i = 0; i < 30; i++) {
			const p = await addProduct(stack, c, i % 3 ? olympus.id : zeiss.id, {
				name: `Microscope ${String(i).padStart(2, "0")}`,
				model: i === 7 ? "CX-23 (LED)" : `M${i}`,
				description: i === 4 ? "Inverted, phase CONTRAST" : null,
				rep_status: i % 2 ? "catalog" : "carried",
			});
			ids.push(p.id);
		}
		await api(stack, "PATCH", `/products/${ids[5]}`, { key: c.key, body: { status: "discontinued" } });
	});

	it("pages newest first, 25 by default, up to 100, with nextCursor null on the last page", async () => {
		const first = await getOk(stack, c, "/products");
		expect(first.items).toHaveLength(25);
		expect(first.items.map((p: any) => p.id)).toEqual([...ids].reverse().slice(0, 25));
		expect(first.nextCursor).toEqual(expect.any(String));
		const second = await getOk(stack, c, `/products?cursor=${encodeURIComponent(first.nextCursor)}`);
		expect(second.items.map((p: any) => p.id)).toEqual([...ids].reverse().slice(25));
		expect(second.nextCursor).toBeNull();
		expect((await getOk(stack, c, "/products?limit=100")).items).toHaveLength(30);
		const small = await listAll(stack, c, "limit=4");
		expect(small.map((p) => p.id)).toEqual([...ids].reverse());
		expect(small[0].oem_name).toBe("Olympus");
	});

	it("neither repeats nor skips items when products are added between pages", async () => {
		const page1 = await getOk(stack, c, "/products?limit=10");
		const added = await addProduct(stack, c, olympus.id, { name: "Added between pages" });
		const rest = await listAll(stack, c, "limit=10", page1.nextCursor);
		const seen = [...page1.items, ...rest].map((p: any) => p.id);
		expect(seen).toEqual([...ids].reverse());
		expect(seen).not.toContain(added.id);
		expect((await getOk(stack, c, "/products?limit=1")).items[0].id).toBe(added.id);
		await api(stack, "PATCH", `/products/${added.id}`, { key: c.key, body: { status: "discontinued", name: "Added (retired)" } });
	});

	it("filters by partner, status, rep_status and case-insensitive text, with cursors", async () => {
		const zeissIds = ids.filter((_, i) => i % 3 === 0);
		expect((await listAll(stack, c, `partner=${zeiss.id}&limit=3`)).map((p) => p.id)).toEqual([...zeissIds].reverse());
		expect((await listAll(stack, c, "status=discontinued")).map((p) => p.name).sort()).toEqual(["Added (retired)", "Microscope 05"]);
		const catalog = await listAll(stack, c, "rep_status=catalog&status=active&limit=5");
		expect(catalog.every((p) => p.rep_status === "catalog" && p.status === "active")).toBe(true);
		expect(catalog).toHaveLength(14);
		expect((await listAll(stack, c, "q=microscope%2012")).map((p) => p.id)).toEqual([ids[12]]);
		expect((await listAll(stack, c, "q=PHASE%20contrast")).map((p) => p.id)).toEqual([ids[4]]);
		// Regex characters are literal text, and the partner's name is searched too.
		expect((await listAll(stack, c, `q=${encodeURIComponent("cx-23 (led)")}`)).map((p) => p.id)).toEqual([ids[7]]);
		expect(await listAll(stack, c, `q=${encodeURIComponent(".*")}`)).toEqual([]);
		expect((await listAll(stack, c, "q=carl%20zeiss")).length).toBe(zeissIds.length);
		expect((await listAll(stack, c, "q=%20%20")).length).toBe(31);
		expect(await listAll(stack, c, `partner=${hp.id}`)).toEqual([]);
	});

	it("refuses tampered cursors, cursors of another listing and bad parameters", async () => {
		const { nextCursor } = await getOk(stack, c, "/products?limit=2");
		const bad = async (query: string, path: string) =>
			expectError(await api(stack, "GET", `/products?${query}`, { key: c.key }), 400, "validation_failed", path);
		await bad(`cursor=${encodeURIComponent(nextCursor.slice(0, -2) + "xx")}`, "cursor");
		await bad(`cursor=${encodeURIComponent(encodeCursor({ k: Date.now(), id: ids[0]!, s: "another-listing" }))}`, "cursor");
		await bad(`status=discontinued&cursor=${encodeURIComponent(nextCursor)}`, "cursor");
		const foreign = await api(stack, "GET", `/products?limit=2&cursor=${encodeURIComponent(nextCursor)}`, { key: acme.key });
		expectError(foreign, 400, "validation_failed", "cursor");
		await bad("cursor=", "cursor");
		await bad("limit=0", "limit");
		await bad("limit=101", "limit");
		await bad("limit=ten", "limit");
		await bad("status=retired", "status");
		await bad("rep_status=stocked", "rep_status");
		await bad("partner=olympus", "partner");
		await bad(`q=${"x".repeat(201)}`, "q");
		await bad("tenant=someone", "");
	});

	it("never shows another company's products", async () => {
		const theirs = await listAll(stack, globex);
		expect(theirs.length).toBeGreaterThan(0);
		expect(theirs.some((p) => ids.includes(p.id))).toBe(false);
		expect(await listAll(stack, globex, `partner=${olympus.id}`)).toEqual([]);
	});
});

describe("indexing requests", () => {
	const jobsOf = async (productId: string) => (await queue.jobs()).filter((j) => j.data.productId === productId);

	it("records one on creation and queues a job naming the product and version, ids only", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "Indexed One", specs: { Color: "Black" } });
		const view = await indexView(stack, p.id);
		const jobs = await jobsOf(p.id);
		expect(jobs).toEqual([
			{ id: `${p.id}_${view.version}`, name: "index-product", data: { tenantId: acme.tenantId, productId: p.id, version: view.version } },
		]);
	});

	it("records a new one for each relevant change and none for a change only of source_url or of nothing", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "Indexed Two" });
		const v0 = (await indexView(stack, p.id)).version;
		await patch(acme, p.id, { source_url: "https://hp.example/two" });
		await patch(acme, p.id, { name: "Indexed Two" });
		expect((await indexView(stack, p.id)).version).toBe(v0);
		expect(await jobsOf(p.id)).toHaveLength(1);

		const versions = [v0];
		for (const change of [
			{ name: "Indexed 2" },
			{ model: "M2" },
			{ description: "d" },
			{ commodity_codes: ["1"] },
			{ specs: { a: 1 } },
			{ rep_status: "catalog" },
			{ status: "discontinued" },
			{ status: "active" },
			{ oem_partner_id: dell.id },
		]) {
			expect((await patch(acme, p.id, change)).status).toBe(200);
			const v = (await indexView(stack, p.id)).version;
			expect(v > versions[versions.length - 1]!, `${JSON.stringify(change)} ${versions.join(",")} ${v}`).toBe(true);
			versions.push(v);
		}
		expect((await jobsOf(p.id)).map((j) => j.data.version).sort()).toEqual(versions);
	});

	it("shows indexing a bounded, deterministic subset of specs and what decides matching", async () => {
		const specs: Record<string, unknown> = {
			"Very long": "v".repeat(150),
			nested: { depth: 1, deeper: { no: true }, list: ["a", 2] },
			none: null,
			empty: "",
			mixed: [1, { x: 1 }],
		};
		for (let i = 0; i < 30; i++) specs[`k${i}`] = i;
		const p = await addProduct(stack, acme, hp.id, {
			name: "Spec Sheet",
			model: "SS-1",
			description: "desc",
			commodity_codes: ["43211507"],
			specs,
		});
		const view = await indexView(stack, p.id);
		expect(view).toMatchObject({
			tenantId: acme.tenantId,
			productId: p.id,
			name: "Spec Sheet",
			model: "SS-1",
			description: "desc",
			commodityCodes: ["43211507"],
			repStatus: "carried",
			status: "active",
			matchable: true,
			partner: { id: hp.id, name: "HP Inc.", authorized: true },
		});
		expect(view.specs).toHaveLength(20);
		expect(view.specs.slice(0, 4)).toEqual([
			{ key: "Very long", value: "v".repeat(100) },
			{ key: "nested.depth", value: "1" },
			{ key: "nested.list", value: "a, 2" },
			{ key: "k0", value: "0" },
		]);
		expect(view.specs[19]).toEqual({ key: "k16", value: "16" });
		expect(await indexView(stack, p.id)).toEqual(view);
		await expect(stack.broker.call("catalog.indexView", { productId: p.id, tenantId: globex.tenantId })).rejects.toMatchObject({
			type: "not_found",
		});
	});

	it("marks a version done only while it is the latest request", async () => {
		const p = await addProduct(stack, acme, hp.id, { name: "Marked" });
		const v1 = (await indexView(stack, p.id)).version;
		await patch(acme, p.id, { name: "Marked again" });
		const v2 = (await indexView(stack, p.id)).version;
		expect(await stack.broker.call("catalog.markIndexed", { productId: p.id, version: v1 })).toEqual({ done: false });
		expect(await stack.broker.call("catalog.markIndexed", { productId: p.id, version: v2 })).toEqual({ done: true });
		const { items } = await stack.broker.call<{ items: any[] }, object>("catalog.indexViews", { productIds: [p.id, crypto.randomUUID()] });
		expect(items.map((v) => v.productId)).toEqual([p.id]);
	});
});
