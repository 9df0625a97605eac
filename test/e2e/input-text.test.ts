import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPartner, addProduct, catalogCompany, expectError, getOk, listAll, type CatalogCompany } from "../support/catalog.ts";
import { api, dropTestDatabases, ORIGIN, startStack, type Stack } from "../support/stack.ts";

// Text with control characters or lone surrogates is refused with validation_failed wherever a
// client sends it (the stand-in store answered 500 for a NUL; a lone surrogate was echoed with
// one value and stored with another), nothing of a refused request is stored, and an import
// reports each such row as invalid while the rows around it are created for real.

let stack: Stack;
let c: CatalogCompany;
let partnerId: string;

beforeAll(async () => {
	stack = await startStack();
	c = await catalogCompany(stack, "Text Safety");
	partnerId = (await addPartner(stack, c, "Acme")).id;
}, 60_000);
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const NUL = "bad\u0000name";
const LONE = "bad\ud800name";
const BELL = "bad\u0007name";

describe("unsafe text", () => {
	it("is refused in every text field of the catalog, profile and keys, and nothing is stored", async () => {
		const product = await addProduct(stack, c, partnerId, { name: "Clean product" });
		for (const bad of [NUL, LONE, BELL]) {
			expectError(
				await api(stack, "POST", "/products", { key: c.key, body: { oem_partner_id: partnerId, name: bad } }),
				400,
				"validation_failed",
				"body.name",
			);
			expectError(
				await api(stack, "POST", "/products", { key: c.key, body: { oem_partner_id: partnerId, name: "Ok", specs: { [bad]: "x" } } }),
				400,
				"validation_failed",
			);
			expectError(
				await api(stack, "PATCH", `/products/${product.id}`, { key: c.key, body: { description: bad } }),
				400,
				"validation_failed",
				"body.description",
			);
			expectError(
				await api(stack, "POST", "/products/partners", { key: c.key, body: { name: bad } }),
				400,
				"validation_failed",
				"body.name",
			);
			expectError(
				await api(stack, "PATCH", "/profile", { key: c.key, body: { company_name: bad } }),
				400,
				"validation_failed",
				"body.company_name",
			);
			const key = await api(stack, "POST", "/api-keys", { cookie: c.cookie, origin: ORIGIN(), body: { name: bad, scopes: [] } });
			expectError(key, 400, "validation_failed", "body.name");
			if (bad !== LONE)
				expectError(await api(stack, "GET", `/products?q=${encodeURIComponent(bad)}`, { key: c.key }), 400, "validation_failed", "q");
		}
		const products = await listAll(stack, c);
		expect(products.map((p) => p.name)).toEqual(["Clean product"]);
		expect((await getOk(stack, c, `/products/${product.id}`)).description).toBeNull();
		expect((await getOk(stack, c, "/products/partners")).partners.map((p: { name: string }) => p.name)).toEqual(["Acme"]);
		expect((await getOk(stack, c, "/profile")).company_name).toBeNull();
		const keys = await api(stack, "GET", "/api-keys", { cookie: c.cookie });
		expect(keys.body.keys.every((k: { name: string }) => k.name === "test key")).toBe(true);
	});

	it("keeps tabs, line breaks and characters outside the BMP as sent", async () => {
		const description = "Line one\r\n\tLine two \u{1F50C} \u00e9\u4e2d";
		const p = await addProduct(stack, c, partnerId, { name: "Round trip \u{1F50C}", description });
		const back = await getOk(stack, c, `/products/${p.id}`);
		expect(back.description).toBe(description);
		expect(back.name).toBe("Round trip \u{1F50C}");
	});

	it("makes an import report such rows invalid and creates, for real, the rows around them", async () => {
		const rows = [
			{ partner: "Acme", name: "Import one" },
			{ partner: "Acme", name: NUL },
			{ partner: "Acme", name: "Import three", specs: { [LONE]: "x" } },
			{ partner: "Acme", name: "Import four", description: "fine" },
		];
		const res = await api(stack, "POST", "/products/import", { key: c.key, body: rows });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		expect(res.body.rows.map((r: { outcome: string }) => r.outcome)).toEqual(["created", "invalid", "invalid", "created"]);
		expect(res.body.rows[1].issues[0].path).toBe("name");
		for (const r of res.body.rows.filter((r: { outcome: string }) => r.outcome === "created")) {
			expect((await getOk(stack, c, `/products/${r.product_id}`)).id).toBe(r.product_id);
		}
		const csv = `partner,name\nAcme,CSV one\nAcme,CSV\u0000two\nAcme,CSV three\n`;
		const csvRes = await api(stack, "POST", "/products/import", { key: c.key, rawBody: csv, headers: { "Content-Type": "text/csv" } });
		expect(csvRes.status, JSON.stringify(csvRes.body)).toBe(200);
		expect(csvRes.body.rows.map((r: { outcome: string }) => r.outcome)).toEqual(["created", "invalid", "created"]);
		const names = (await listAll(stack, c)).map((p) => p.name).sort();
		expect(names).toEqual(["CSV one", "CSV three", "Clean product", "Import four", "Import one", "Round trip \u{1F50C}"]);
	});
});
