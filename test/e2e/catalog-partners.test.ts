import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPartner, addProduct, catalogCompany, expectError, getOk, indexView, type CatalogCompany } from "../support/catalog.ts";
import { api, apiKey, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Manufacturer partners and the company profile over HTTP: re-posting, de-authorizing,
// product counts, the derived manufacturer_partners list, scopes and tenant isolation.

let stack: Stack;
let acme: CatalogCompany;
let globex: CatalogCompany;

beforeAll(async () => {
	stack = await startStack("gateway,auth-keys,catalog");
	acme = await catalogCompany(stack, "Acme Resale");
	globex = await catalogCompany(stack, "Globex Supply");
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const partners = async (c: CatalogCompany) => (await getOk(stack, c, "/products/partners")).partners as any[];
const patchPartner = (c: CatalogCompany, id: string, body: unknown) =>
	api(stack, "PATCH", `/products/partners/${id}`, { key: c.key, body });
const patchProduct = (c: CatalogCompany, id: string, body: unknown) => api(stack, "PATCH", `/products/${id}`, { key: c.key, body });

describe("POST /products/partners", () => {
	it("adds an authorized partner with zero counts and answers 201 with its address", async () => {
		const res = await api(stack, "POST", "/products/partners", {
			key: acme.key,
			body: { name: "  Hewlett Packard Enterprise ", relationship: "Gold partner", source_url: "https://hpe.example/partners/acme" },
		});
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			name: "Hewlett Packard Enterprise",
			authorized: true,
			relationship: "Gold partner",
			source_url: "https://hpe.example/partners/acme",
			active_product_count: 0,
			discontinued_product_count: 0,
			created_at: expect.stringMatching(/Z$/),
		});
		expect(res.headers.get("location")).toBe(`/api/v1/products/partners/${res.body.id}`);
		const minimal = await addPartner(stack, acme, "Dell");
		expect(minimal).toMatchObject({ relationship: null, source_url: null, authorized: true });
	});

	it("treats a re-posted name (any case, any spacing) as the same partner: re-authorized, same id and name, discontinued products stay so", async () => {
		const p = await addPartner(stack, acme, "Net App", { relationship: "Reseller" });
		const kept = await addProduct(stack, acme, p.id, { name: "AFF A250" });
		const old = await addProduct(stack, acme, p.id, { name: "FAS 2720" });
		expect((await patchProduct(acme, old.id, { status: "discontinued" })).status).toBe(200);
		expect((await patchPartner(acme, p.id, { authorized: false })).body.authorized).toBe(false);

		const again = await api(stack, "POST", "/products/partners", {
			key: acme.key,
			body: { name: "  NETAPP ", source_url: "https://netapp.example/find-a-partner" },
		});
		expect(again.status).toBe(201);
		expect(again.body).toMatchObject({
			id: p.id,
			name: "Net App",
			authorized: true,
			relationship: "Reseller",
			source_url: "https://netapp.example/find-a-partner",
			active_product_count: 1,
			discontinued_product_count: 1,
			created_at: p.created_at,
		});
		expect((await getOk(stack, acme, `/products/${old.id}`)).status).toBe("discontinued");
		expect((await getOk(stack, acme, `/products/${kept.id}`)).status).toBe("active");
		expect((await partners(acme)).filter((x) => x.name === "Net App")).toHaveLength(1);

		// Re-posting an authorized partner changes nothing but what is sent.
		const third = await api(stack, "POST", "/products/partners", { key: acme.key, body: { name: "netapp", relationship: "Platinum" } });
		expect(third.body).toMatchObject({
			id: p.id,
			relationship: "Platinum",
			source_url: "https://netapp.example/find-a-partner",
			authorized: true,
		});
	});

	it("answers the same partner to concurrent first posts of one name", async () => {
		const results = await Promise.all(
			Array.from({ length: 6 }, (_, i) =>
				api(stack, "POST", "/products/partners", { key: acme.key, body: { name: i % 2 ? "Cisco Systems" : "cisco  systems" } }),
			),
		);
		expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
		expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
		expect((await partners(acme)).filter((x) => x.name.toLowerCase().replace(/\s/g, "") === "ciscosystems")).toHaveLength(1);
	});

	it("rejects bad input with validation_failed and stores nothing", async () => {
		const before = (await partners(acme)).length;
		const cases: Array<[unknown, string]> = [
			[{}, "body.name"],
			[{ name: "" }, "body.name"],
			[{ name: "   " }, "body.name"],
			[{ name: "x".repeat(201) }, "body.name"],
			[{ name: 42 }, "body.name"],
			[{ name: null }, "body.name"],
			[{ name: "Ok", relationship: "" }, "body.relationship"],
			[{ name: "Ok", relationship: "r".repeat(201) }, "body.relationship"],
			[{ name: "Ok", relationship: null }, "body.relationship"],
			[{ name: "Ok", source_url: "not a url" }, "body.source_url"],
			[{ name: "Ok", source_url: "ftp://files.example/x" }, "body.source_url"],
			[{ name: "Ok", authorized: false }, "body"],
			[["Ok"], "body"],
		];
		for (const [body, path] of cases)
			expectError(await api(stack, "POST", "/products/partners", { key: acme.key, body }), 400, "validation_failed", path);
		expect((await partners(acme)).length).toBe(before);
	});
});

describe("PATCH /products/partners/{id}", () => {
	it("de-authorizes: products leave matching with a fresh indexing request, and none can be added under it", async () => {
		const p = await addPartner(stack, acme, "Lenovo");
		const a = await addProduct(stack, acme, p.id, { name: "ThinkPad T14" });
		const b = await addProduct(stack, acme, p.id, { name: "ThinkPad X1" });
		await patchProduct(acme, b.id, { status: "discontinued" });
		const before = await indexView(stack, a.id);
		expect(before).toMatchObject({ matchable: true, partner: { id: p.id, name: "Lenovo", authorized: true } });

		const res = await patchPartner(acme, p.id, { authorized: false });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ id: p.id, authorized: false, active_product_count: 1, discontinued_product_count: 1 });
		const after = await indexView(stack, a.id);
		expect(after).toMatchObject({ matchable: false, partner: { authorized: false } });
		expect(after.version > before.version).toBe(true);
		expect((await indexView(stack, b.id)).version > before.version).toBe(true);

		expectError(
			await api(stack, "POST", "/products", { key: acme.key, body: { oem_partner_id: p.id, name: "ThinkPad Z13" } }),
			409,
			"partner_not_authorized",
		);
		// Its products can still be edited (and discontinued) while it is de-authorized.
		expect((await patchProduct(acme, a.id, { description: "14 inch business laptop" })).status).toBe(200);

		const again = await patchPartner(acme, p.id, { authorized: true });
		expect(again.body.authorized).toBe(true);
		expect(await indexView(stack, a.id)).toMatchObject({ matchable: true });
		expect(await indexView(stack, b.id)).toMatchObject({ matchable: false, status: "discontinued" });
	});

	it("changes and clears the relationship; an unchanged authorization requests nothing", async () => {
		const p = await addPartner(stack, acme, "Fujitsu", { relationship: "Select partner" });
		const prod = await addProduct(stack, acme, p.id, { name: "Primergy RX2540" });
		const v = (await indexView(stack, prod.id)).version;
		expect((await patchPartner(acme, p.id, { relationship: "Expert partner", authorized: true })).body).toMatchObject({
			relationship: "Expert partner",
			authorized: true,
		});
		expect((await patchPartner(acme, p.id, { relationship: null })).body.relationship).toBeNull();
		expect((await indexView(stack, prod.id)).version).toBe(v);
	});

	it("rejects bad input, unknown ids and other companies' partners, changing nothing", async () => {
		const p = await addPartner(stack, acme, "Siemens Healthineers");
		expectError(await patchPartner(acme, p.id, {}), 400, "validation_failed", "body");
		expectError(await patchPartner(acme, p.id, { authorized: "no" }), 400, "validation_failed", "body.authorized");
		expectError(await patchPartner(acme, p.id, { authorized: null }), 400, "validation_failed", "body.authorized");
		expectError(await patchPartner(acme, p.id, { relationship: "" }), 400, "validation_failed", "body.relationship");
		expectError(await patchPartner(acme, p.id, { name: "Renamed" }), 400, "validation_failed", "body");
		expectError(await patchPartner(acme, "not-a-uuid", { authorized: false }), 400, "validation_failed", "id");
		expectError(await patchPartner(acme, crypto.randomUUID(), { authorized: false }), 404, "not_found");
		expectError(await patchPartner(globex, p.id, { authorized: false }), 404, "not_found");
		expect((await partners(acme)).find((x) => x.id === p.id)).toMatchObject({ authorized: true, relationship: null });
		expect((await partners(globex)).find((x) => x.id === p.id)).toBeUndefined();
	});
});

describe("GET /products/partners", () => {
	it("lists the company's partners by name with counts that follow every change", async () => {
		const c = await catalogCompany(stack, "Counting Co");
		const zeiss = await addPartner(stack, c, "zeiss");
		const abbott = await addPartner(stack, c, "Abbott");
		const mettler = await addPartner(stack, c, "Mettler Toledo");
		const x = await addProduct(stack, c, zeiss.id, { name: "Axio Observer" });
		await addProduct(stack, c, zeiss.id, { name: "Primovert" });
		await addProduct(stack, c, abbott.id, { name: "i-STAT" });
		await api(stack, "PATCH", `/products/${x.id}`, { key: c.key, body: { status: "discontinued" } });
		const counts = async () =>
			Object.fromEntries((await partners(c)).map((p) => [p.name, [p.active_product_count, p.discontinued_product_count]]));
		expect((await partners(c)).map((p) => p.name)).toEqual(["Abbott", "Mettler Toledo", "zeiss"]);
		expect(await counts()).toEqual({ Abbott: [1, 0], "Mettler Toledo": [0, 0], zeiss: [1, 1] });
		await api(stack, "PATCH", `/products/${x.id}`, { key: c.key, body: { status: "active", oem_partner_id: mettler.id } });
		expect(await counts()).toEqual({ Abbott: [1, 0], "Mettler Toledo": [1, 0], zeiss: [1, 0] });
		expect(await partners(globex)).not.toContainEqual(expect.objectContaining({ id: zeiss.id }));
	});
});

describe("company profile", () => {
	it("starts empty, with manufacturer_partners taken from the authorized partners in the order they were added", async () => {
		const c = await catalogCompany(stack, "Profile Co");
		expect(await getOk(stack, c, "/profile")).toEqual({
			company_name: null,
			certifications: [],
			set_asides: [],
			naics_codes: [],
			places_served: [],
			manufacturer_partners: [],
			updated_at: null,
		});
		const olympus = await addPartner(stack, c, "Olympus");
		await addPartner(stack, c, "Beckman Coulter");
		await addPartner(stack, c, "Eppendorf");
		expect((await getOk(stack, c, "/profile")).manufacturer_partners).toEqual(["Olympus", "Beckman Coulter", "Eppendorf"]);
		await api(stack, "PATCH", `/products/partners/${olympus.id}`, { key: c.key, body: { authorized: false } });
		expect((await getOk(stack, c, "/profile")).manufacturer_partners).toEqual(["Beckman Coulter", "Eppendorf"]);
		await addPartner(stack, c, "OLYMPUS");
		expect((await getOk(stack, c, "/profile")).manufacturer_partners).toEqual(["Olympus", "Beckman Coulter", "Eppendorf"]);
	});

	it("saves any subset of fields, replacing lists, and keeps the rest", async () => {
		const c = await catalogCompany(stack, "Eligible Co");
		const res = await api(stack, "PATCH", "/profile", {
			key: c.key,
			body: {
				company_name: " Eligible Co LLC ",
				certifications: [{ name: "ISO 9001", number: "Q-123", expires_at: "2027-06-30T00:00Z" }, { name: "TAA" }],
				set_asides: ["small_business", "wosb"],
				naics_codes: ["423450", "33"],
				places_served: ["US-VA", "US-MD"],
			},
		});
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		expect(res.body).toEqual({
			company_name: "Eligible Co LLC",
			certifications: [
				{ name: "ISO 9001", number: "Q-123", expires_at: "2027-06-30T00:00:00.000Z" },
				{ name: "TAA", number: null, expires_at: null },
			],
			set_asides: ["small_business", "wosb"],
			naics_codes: ["423450", "33"],
			places_served: ["US-VA", "US-MD"],
			manufacturer_partners: [],
			updated_at: expect.stringMatching(/Z$/),
		});
		const second = await api(stack, "PATCH", "/profile", { key: c.key, body: { set_asides: [], places_served: ["US"] } });
		expect(second.body).toMatchObject({
			company_name: "Eligible Co LLC",
			set_asides: [],
			places_served: ["US"],
			naics_codes: ["423450", "33"],
		});
		expect(await getOk(stack, c, "/profile")).toEqual(second.body);
		expect((await getOk(stack, globex, "/profile")).company_name).toBeNull();
	});

	it("rejects bad input and the read-only partner list, changing nothing", async () => {
		const c = await catalogCompany(stack, "Strict Co");
		await api(stack, "PATCH", "/profile", { key: c.key, body: { company_name: "Strict Co" } });
		const before = await getOk(stack, c, "/profile");
		const cases: Array<[unknown, string]> = [
			[{}, "body"],
			[{ manufacturer_partners: ["Acme"] }, "body"],
			[{ company_name: "" }, "body.company_name"],
			[{ company_name: null }, "body.company_name"],
			[{ company_name: "x".repeat(201) }, "body.company_name"],
			[{ set_asides: ["large_business"] }, "body.set_asides.0"],
			[{ set_asides: ["8a", "8a"] }, "body.set_asides"],
			[{ naics_codes: ["42345a"] }, "body.naics_codes.0"],
			[{ naics_codes: ["1234567"] }, "body.naics_codes.0"],
			[{ naics_codes: ["423450", "423450"] }, "body.naics_codes"],
			[{ certifications: [{ number: "1" }] }, "body.certifications.0.name"],
			[{ certifications: [{ name: "ISO", expires_at: "next year" }] }, "body.certifications.0.expires_at"],
			[{ certifications: [{ name: "ISO", level: 3 }] }, "body.certifications.0"],
			[{ places_served: "US" }, "body.places_served"],
		];
		for (const [body, path] of cases)
			expectError(await api(stack, "PATCH", "/profile", { key: c.key, body }), 400, "validation_failed", path);
		expect(await getOk(stack, c, "/profile")).toEqual(before);
	});
});

describe("scopes", () => {
	it("lets profile:read read and requires profile:write to change, naming the scope", async () => {
		const reader = (await apiKey(stack, acme, ["profile:read"])).secret;
		for (const path of ["/products/partners", "/products", "/profile"])
			expect((await api(stack, "GET", path, { key: reader })).status).toBe(200);
		const writes: Array<[string, string, unknown]> = [
			["POST", "/products/partners", { name: "Sneaky" }],
			["PATCH", `/products/partners/${crypto.randomUUID()}`, { authorized: false }],
			["POST", "/products", { oem_partner_id: crypto.randomUUID(), name: "x" }],
			["PATCH", `/products/${crypto.randomUUID()}`, { name: "x" }],
			["POST", "/products/import", [{ partner: "x", name: "y" }]],
			["PATCH", "/profile", { company_name: "Sneaky" }],
		];
		for (const [method, path, body] of writes) {
			const res = await api(stack, method, path, { key: reader, body });
			expectError(res, 403, "insufficient_scope");
			expect(res.body.message).toContain("profile:write");
		}
		const nothing = (await apiKey(stack, acme, ["opportunities:read"])).secret;
		for (const path of ["/products/partners", "/products", `/products/${crypto.randomUUID()}`, "/profile"]) {
			const res = await api(stack, "GET", path, { key: nothing });
			expectError(res, 403, "insufficient_scope");
			expect(res.body.message).toContain("profile:read");
		}
		expect((await partners(acme)).find((p) => p.name === "Sneaky")).toBeUndefined();
	});

	it("gives a browser session every catalog operation", async () => {
		const res = await api(stack, "POST", "/products/partners", { cookie: acme.cookie, body: { name: "Session Partner" } });
		expect(res.status).toBe(201);
		expect((await api(stack, "GET", "/profile", { cookie: acme.cookie })).body.manufacturer_partners).toContain("Session Partner");
	});
});
