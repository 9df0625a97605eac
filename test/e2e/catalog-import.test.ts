import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	addPartner,
	addProduct,
	catalogCompany,
	expectError,
	getOk,
	indexQueue,
	listAll,
	type CatalogCompany,
} from "../support/catalog.ts";
import { cli } from "../support/processes.ts";
import { api, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Bulk import over HTTP (JSON and CSV) and from the CLI: per-row outcomes with line numbers,
// files that cannot be parsed, the row limit, and what gets stored.

let stack: Stack;
let acme: CatalogCompany;
let globex: CatalogCompany;
let hp: any;
let dir: string;

beforeAll(async () => {
	stack = await startStack("gateway,auth-keys,catalog");
	acme = await catalogCompany(stack, "Acme Resale");
	globex = await catalogCompany(stack, "Globex Supply");
	hp = await addPartner(stack, acme, "HP Inc.");
	const old = await addPartner(stack, acme, "Old OEM");
	await api(stack, "PATCH", `/products/partners/${old.id}`, { key: acme.key, body: { authorized: false } });
	dir = await mkdtemp(join(tmpdir(), "oms-import-"));
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
	if (dir) await rm(dir, { recursive: true, force: true });
});

const importJson = (c: CatalogCompany, body: unknown) => api(stack, "POST", "/products/import", { key: c.key, body });
const importCsv = (c: CatalogCompany, csv: string) =>
	api(stack, "POST", "/products/import", { key: c.key, rawBody: csv, headers: { "Content-Type": "text/csv" } });
const count = async (c: CatalogCompany) => (await listAll(stack, c, "limit=100")).length;
const outcomes = (body: any) => body.rows.map((r: any) => [r.line, r.outcome, r.issues.map((i: any) => `${i.path}:${i.code}`)]);

describe("POST /products/import with a JSON array", () => {
	it("creates each valid row on its own and reports duplicates and invalid rows by line", async () => {
		const existing = await addProduct(stack, acme, hp.id, { name: "Existing", model: "E1" });
		const res = await importJson(acme, [
			{
				partner: " hp  INC. ",
				name: "Import A",
				model: "IA",
				commodity_codes: ["43211503"],
				specs: { "a.b": 1, $z: 2 },
				rep_status: "catalog",
			},
			{ partner: "HP Inc.", name: "Existing", model: "E1", description: "would overwrite" },
			{ partner: "HP Inc.", name: "import a", model: "ia" },
			{ partner: "Nobody Corp", name: "Unknown partner" },
			{ partner: "Old OEM", name: "Not authorized" },
			{ partner: "HP Inc.", name: "" },
			{ partner: "HP Inc.", name: "Extra field", colour: "red" },
			{ partner: "HP Inc.", name: "Retired", status: "discontinued", source_url: "https://hp.example/retired" },
			{ name: "No partner", commodity_codes: "x" },
		]);
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		expect(res.body).toMatchObject({ total: 9, created: 2, already_exists: 2, invalid: 5 });
		expect(outcomes(res.body)).toEqual([
			[1, "created", []],
			[2, "already_exists", []],
			[3, "already_exists", []],
			[4, "invalid", ["partner:unknown_partner"]],
			[5, "invalid", ["partner:partner_not_authorized"]],
			[6, "invalid", ["name:too_small"]],
			[7, "invalid", [":unrecognized_keys"]],
			[8, "created", []],
			[9, "invalid", ["partner:invalid_type", "commodity_codes:invalid_type"]],
		]);
		const [a, dup, again] = res.body.rows;
		expect(dup.product_id).toBe(existing.id);
		expect(again.product_id).toBe(a.product_id);
		expect(res.body.rows.filter((r: any) => r.outcome === "invalid").every((r: any) => r.product_id === null)).toBe(true);
		expect(await getOk(stack, acme, `/products/${a.product_id}`)).toMatchObject({
			name: "Import A",
			oem_name: "HP Inc.",
			source: "import",
			specs: { "a.b": 1, $z: 2 },
			rep_status: "catalog",
			status: "active",
			model: "IA",
			description: null,
		});
		expect((await getOk(stack, acme, `/products/${existing.id}`)).description).toBeNull();
		expect((await getOk(stack, acme, `/products/${res.body.rows[7].product_id}`)).status).toBe("discontinued");
		// Saved rows requested indexing like any other save: each has its job, or is indexed already
		// (a matching worker's batch takes the company's waiting products and removes their jobs).
		const queue = indexQueue();
		const jobs = new Set((await queue.jobs()).map((j) => j.data.productId));
		await queue.close();
		const { items } = await stack.broker.call<{ items: Array<{ productId: string }> }, object>("catalog.pendingIndexViews", {
			tenantId: acme.tenantId,
			limit: 500,
		});
		const waiting = new Set(items.map((v) => v.productId));
		for (const id of [a.product_id, res.body.rows[7].product_id])
			expect(jobs.has(id) || !waiting.has(id), `${id}: no job, still waiting`).toBe(true);
	});

	it("names partners per company: another company's partner names are unknown", async () => {
		const res = await importJson(globex, [{ partner: "HP Inc.", name: "Theirs" }]);
		expect(outcomes(res.body)).toEqual([[1, "invalid", ["partner:unknown_partner"]]]);
		expect(await count(globex)).toBe(0);
	});

	it("takes 5,000 rows in one request and never overwrites on a second run", async () => {
		const c = await catalogCompany(stack, "Bulk Co");
		await addPartner(stack, c, "Bulk OEM");
		const rows = Array.from({ length: 5000 }, (_, i) => ({
			partner: "Bulk OEM",
			name: `Part ${i}`,
			model: `P-${i}`,
			commodity_codes: ["31161500"],
			specs: { size: `M${i % 20}` },
		}));
		const started = Date.now();
		const first = await importJson(c, rows);
		const took = Date.now() - started;
		expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
		expect(first.body).toMatchObject({ total: 5000, created: 5000, already_exists: 0, invalid: 0 });
		const partner = (await getOk(stack, c, "/products/partners")).partners[0];
		expect(partner.active_product_count).toBe(5000);
		const second = await importJson(c, rows.slice(0, 300));
		expect(second.body).toMatchObject({ total: 300, created: 0, already_exists: 300 });
		expect(second.body.rows[299].product_id).toBe(first.body.rows[299].product_id);
		// Within the gateway's 10 s call timeout, or the answer above would have been an error.
		console.log(`import of 5,000 JSON rows: ${took} ms`);
	}, 60_000);
});

describe("POST /products/import with CSV", () => {
	it("reads columns by header name, empty cells as absent, codes split on ';', specs as JSON, and reports file lines", async () => {
		const csv = [
			"Name,PARTNER, model ,commodity_codes,specs,description",
			'Scanner 1,HP Inc.,S1,43211711; 43211712 ,"{""dpi"": 600, ""a.b"": true}",',
			'Scanner 2,hp inc.,S2,,,"First line',
			'second line, with a comma"',
			"",
			"Scanner 3,HP Inc.,S3,,{not json},",
			"Scanner 4,HP Inc.",
			"Scanner 5,Nobody,S5,,,",
			",,,,,",
			"Scanner 1,HP Inc.,s1,,,",
			`${"n".repeat(201)},HP Inc.,S6,,,`,
		].join("\r\n");
		const res = await importCsv(acme, csv);
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		expect(outcomes(res.body)).toEqual([
			[2, "created", []],
			[3, "created", []],
			[6, "invalid", ["specs:invalid_json"]],
			[7, "invalid", [":column_count"]],
			[8, "invalid", ["partner:unknown_partner"]],
			[10, "already_exists", []],
			[11, "invalid", ["name:too_big"]],
		]);
		const one = await getOk(stack, acme, `/products/${res.body.rows[0].product_id}`);
		expect(one).toMatchObject({
			name: "Scanner 1",
			model: "S1",
			commodity_codes: ["43211711", "43211712"],
			specs: { dpi: 600, "a.b": true },
			description: null,
			source: "import",
		});
		expect(Object.keys(one.specs)).toEqual(["dpi", "a.b"]);
		expect((await getOk(stack, acme, `/products/${res.body.rows[1].product_id}`)).description).toBe(
			"First line\nsecond line, with a comma",
		);
	});

	it("refuses a body that cannot be parsed with invalid_import, writing nothing", async () => {
		const before = await count(acme);
		const unusable: Array<[string, string]> = [
			['partner,name\nHP Inc.,"Unclosed\n', "cannot be parsed"],
			['partner,name\nHP Inc.,Bro"ken"\n', "cannot be parsed"],
			["partner,model\nHP Inc.,M1\n", "no name column"],
			["name\nOnly a name\n", "no partner column"],
			["partner,name,colour\nHP Inc.,X,red\n", 'unknown column(s) "colour"'],
			["partner,name,Name\nHP Inc.,X,Y\n", "repeated column(s) name"],
			["   \n\n", "no header line"],
		];
		for (const [csv, message] of unusable) {
			const res = await importCsv(acme, csv);
			expectError(res, 422, "invalid_import");
			expect(res.body.message).toContain(message);
		}
		for (const body of [{ rows: [] }, { partner: "HP Inc.", name: "Not in an array" }])
			expectError(await importJson(acme, body), 422, "invalid_import");
		expect(await count(acme)).toBe(before);
	});

	it("answers validation_failed for no rows, too many rows, rows that are not objects or a missing body", async () => {
		const before = await count(acme);
		expectError(await importJson(acme, []), 400, "validation_failed", "body");
		expectError(await importCsv(acme, "partner,name\n\n"), 400, "validation_failed", "body");
		expectError(
			await importJson(
				acme,
				Array.from({ length: 5001 }, (_, i) => ({ partner: "HP Inc.", name: `Too many ${i}` })),
			),
			400,
			"validation_failed",
			"body",
		);
		expectError(
			await importCsv(acme, `partner,name\n${Array.from({ length: 5001 }, (_, i) => `HP Inc.,Too many ${i}`).join("\n")}`),
			400,
			"validation_failed",
			"body",
		);
		expectError(await importJson(acme, [{ partner: "HP Inc.", name: "ok" }, 42]), 400, "validation_failed", "body.1");
		expectError(await api(stack, "POST", "/products/import", { key: acme.key }), 400, "validation_failed", "body");
		expectError(
			await api(stack, "POST", "/products/import?dry_run=1", { key: acme.key, body: [{ partner: "HP Inc.", name: "ok" }] }),
			400,
			"validation_failed",
			"",
		);
		expect(await count(acme)).toBe(before);
	});
});

describe("npm run cli -- catalog:import", () => {
	it("imports a CSV file in chunks, with progress on stderr and the summary as JSON on stdout", async () => {
		const c = await catalogCompany(stack, "Cli Co");
		await addPartner(stack, c, "Cli OEM");
		const file = join(dir, "products.csv");
		await writeFile(
			file,
			`partner,name,model\n${Array.from({ length: 250 }, (_, i) => `Cli OEM,Widget ${i},W${i}`).join("\n")}\nNobody,Lost,L\n`,
		);
		const run = await cli(["catalog:import", "--tenant", c.tenantId, file]);
		expect(run.code, run.stderr).toBe(0);
		const summary = JSON.parse(run.stdout);
		expect(summary).toMatchObject({ total: 251, created: 250, already_exists: 0, invalid: 1 });
		expect(summary.rows[250]).toMatchObject({
			line: 252,
			outcome: "invalid",
			issues: [expect.objectContaining({ code: "unknown_partner" })],
		});
		// Not a terminal: one line per tenth, ending at 100%.
		expect(
			run.stderr
				.trim()
				.split("\n")
				.filter((l) => /^\d+% \(/.test(l)),
		).toEqual(["30% (100/251)", "70% (200/251)", "100% (251/251)"]);
		expect(await count(c)).toBe(250);
		expect((await getOk(stack, c, "/products/partners")).partners[0].active_product_count).toBe(250);
	}, 60_000);

	it("takes a JSON file, and exits 1 with a message on a file it cannot read", async () => {
		const c = await catalogCompany(stack, "Cli Json Co");
		await addPartner(stack, c, "Json OEM");
		const file = join(dir, "products.json");
		await writeFile(file, JSON.stringify([{ partner: "json oem", name: "From JSON", specs: { k: "v" } }]));
		const run = await cli(["catalog:import", "--tenant", c.tenantId, file]);
		expect(run.code, run.stderr).toBe(0);
		expect(JSON.parse(run.stdout)).toMatchObject({ total: 1, created: 1 });
		expect(run.stderr).toContain("100% (1/1)");

		const broken = join(dir, "broken.csv");
		await writeFile(broken, 'partner,name\n"Json OEM,Unclosed\n');
		const bad = await cli(["catalog:import", "--tenant", c.tenantId, broken]);
		expect(bad.code).toBe(1);
		expect(bad.stdout).toBe("");
		expect(bad.stderr).toMatch(/^error: The CSV cannot be parsed/);
		expect((await cli(["catalog:import", "--tenant", c.tenantId])).code).toBe(1);
		expect(await count(c)).toBe(1);
	}, 60_000);
});
