import { parse } from "csv-parse/sync";
import { z } from "zod";
import {
	IMPORT_MAX_ROWS,
	ImportCsvText,
	ImportProductsBody,
	ProductImportRow,
	type ImportResult,
	type ImportRowResult,
} from "../../shared/contract/catalog.ts";
import type { ImportLine } from "../../shared/contract/internal/catalog-actions.ts";
import { unsafeTextIssues } from "../../shared/contract/safe-text.ts";
import { ApiError, validationFailed, type Issue } from "../../shared/errors.ts";
import { parseOrThrow, toIssues } from "../../shared/validation.ts";
import { sendAll, type Catalog } from "./indexing.ts";
import type { PartnerDoc, ProductDoc } from "./models.ts";
import { partnerKey } from "./normalize.ts";
import { newProductDoc, type ProductFields } from "./products.ts";

// Bulk import: a JSON array or CSV of up to 5,000 rows. The file is parsed whole first (a file
// that cannot be parsed writes nothing); then every row is validated and created on its own,
// each a single-document insert, so a row is either wholly there or not at all.

const invalidImport = (message: string) => new ApiError("invalid_import", message);

/** The same answer as the JSON array's bounds give. */
const rowCountError = (rows: number) =>
	rows === 0
		? validationFailed([{ path: "body", code: "too_small", message: "The import holds no rows" }])
		: validationFailed([{ path: "body", code: "too_big", message: `An import holds at most ${IMPORT_MAX_ROWS} rows` }]);

/** The rows of an import body: a JSON array as it is, CSV text parsed; or why the body is unusable. */
export function importLines(body: unknown): ImportLine[] {
	if (typeof body === "string") return csvLines(parseOrThrow(z.object({ body: ImportCsvText }), { body }).body);
	if (Array.isArray(body))
		return parseOrThrow(z.object({ body: ImportProductsBody }), { body }).body.map((row, i) => ({ line: i + 1, row, issues: [] }));
	if (body === undefined)
		throw validationFailed([{ path: "body", code: "invalid_type", message: "Send the rows as a JSON array or as CSV" }]);
	throw invalidImport("A JSON import must be an array of product rows");
}

const COLUMNS = new Set(Object.keys(ProductImportRow.shape));

interface CsvRecord {
	record: string[];
	info: { lines: number };
	raw: string;
}

/** The line a record starts on: csv-parse counts the line it ends on. */
const startLine = (r: CsvRecord) => r.info.lines - (r.raw.replace(/^\n+/, "").replace(/\n$/, "").match(/\n/g)?.length ?? 0);

function csvLines(text: string): ImportLine[] {
	let records: CsvRecord[];
	try {
		records = parse(text.replace(/\r\n?/g, "\n"), {
			bom: true,
			info: true,
			raw: true,
			record_delimiter: "\n",
			relax_column_count: true,
			skip_empty_lines: true,
			skip_records_with_empty_values: true,
			// The header, the most rows allowed and one more to tell that there are too many.
			to: IMPORT_MAX_ROWS + 2,
		}) as CsvRecord[];
	} catch (e) {
		throw invalidImport(`The CSV cannot be parsed: ${(e as Error).message}`);
	}
	const [header, ...rows] = records;
	if (!header) throw invalidImport("The CSV has no header line naming the columns");
	const columns = header.record.map((c) => c.trim().toLowerCase());
	const unknown = columns.filter((c) => !COLUMNS.has(c));
	const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
	const missing = ["partner", "name"].filter((c) => !columns.includes(c));
	if (unknown.length || repeated.length || missing.length) {
		const problems = [
			missing.length ? `no ${missing.join(" or ")} column` : "",
			unknown.length ? `unknown column(s) ${unknown.map((c) => JSON.stringify(c)).join(", ")}` : "",
			repeated.length ? `repeated column(s) ${[...new Set(repeated)].join(", ")}` : "",
		].filter(Boolean);
		throw invalidImport(`The CSV header is not usable: ${problems.join("; ")}. Columns: ${[...COLUMNS].join(", ")}`);
	}
	if (rows.length === 0 || rows.length > IMPORT_MAX_ROWS) throw rowCountError(rows.length);
	return rows.map((r) => ({ line: startLine(r), ...csvRow(columns, r.record) }));
}

/** Cells to a row: empty cells are absent, commodity_codes split on `;`, specs parsed as JSON. */
function csvRow(columns: string[], cells: string[]): Omit<ImportLine, "line"> {
	if (cells.length !== columns.length) {
		return {
			row: {},
			issues: [{ path: "", code: "column_count", message: `Expected ${columns.length} cells as in the header, got ${cells.length}` }],
		};
	}
	const row: Record<string, unknown> = {};
	const issues: Issue[] = [];
	columns.forEach((col, i) => {
		const cell = cells[i]!;
		if (cell.trim() === "") return;
		if (col === "commodity_codes")
			row[col] = cell
				.split(";")
				.map((c) => c.trim())
				.filter(Boolean);
		else if (col === "specs") {
			try {
				row[col] = JSON.parse(cell);
			} catch {
				issues.push({ path: "specs", code: "invalid_json", message: 'specs must be a JSON object, e.g. {"Voltage": "230 V"}' });
			}
		} else row[col] = cell;
	});
	return { row, issues };
}

/** Validates each row and creates the valid ones; one result per row, in file order. */
export async function importRows(cat: Catalog, tenantId: string, lines: ImportLine[]): Promise<ImportRowResult[]> {
	const partners = new Map((await cat.m.partners.find({ tenant_id: tenantId }).lean<PartnerDoc[]>()).map((p) => [p.name_key, p]));
	const now = new Date();
	const results: ImportRowResult[] = [];
	const valid: Array<{ result: ImportRowResult; doc: ProductDoc }> = [];
	for (const l of lines) {
		const result: ImportRowResult = { line: l.line, outcome: "invalid", product_id: null, issues: [...l.issues] };
		results.push(result);
		if (result.issues.some((i) => i.code === "column_count")) continue;
		const parsed = ProductImportRow.safeParse(l.row);
		if (!parsed.success) result.issues.push(...toIssues(parsed.error));
		result.issues.push(...unsafeTextIssues(l.row));
		if (!parsed.success || result.issues.length) continue;
		const { partner: name, ...r } = parsed.data;
		const partner = partners.get(partnerKey(name));
		if (!partner)
			result.issues.push({
				path: "partner",
				code: "unknown_partner",
				message: `No manufacturer partner named "${name}": add it with POST /products/partners first`,
			});
		else if (!partner.authorized)
			result.issues.push({
				path: "partner",
				code: "partner_not_authorized",
				message: `The company is not an authorized reseller of ${partner.name}`,
			});
		else {
			const fields: ProductFields = {
				model: null,
				description: null,
				commodity_codes: [],
				specs: {},
				rep_status: "carried",
				status: "active",
				source_url: null,
				...r,
			};
			valid.push({ result, doc: newProductDoc(tenantId, partner, fields, "import", now) });
		}
	}
	await insertRows(cat, valid);
	return results;
}

const INSERT_BATCH = 500;

const notStored = (): Issue => ({
	path: "",
	code: "not_stored",
	message: "The store did not save this row (nothing of it was written); import it again",
});

/**
 * Unordered bulk inserts: each document on its own, a duplicate (11000) refusing only its row.
 * The report is the truth row by row: when the store refuses anything but duplicates, or fails
 * the batch as a whole (a lost connection), the batch is read back and only rows found there
 * are `created`; the others are `invalid` with `not_stored` (nothing of them was written).
 */
async function insertRows(cat: Catalog, rows: Array<{ result: ImportRowResult; doc: ProductDoc }>): Promise<void> {
	const duplicates: typeof rows = [];
	const created: ProductDoc[] = [];
	for (let i = 0; i < rows.length; i += INSERT_BATCH) {
		const batch = rows.slice(i, i + INSERT_BATCH);
		const failed = await insertBatch(
			cat,
			batch.map((r) => r.doc),
		);
		const stored = [...failed.values()].some((code) => code !== 11000) ? await storedIds(cat, batch[0]!.doc) : null;
		batch.forEach((r, j) => {
			if (stored ? stored.has(r.doc._id) : !failed.has(j)) {
				r.result.outcome = "created";
				r.result.product_id = r.doc._id;
				created.push(r.doc);
			} else if (failed.get(j) === 11000) duplicates.push(r);
			else r.result.issues.push(notStored());
		});
	}
	if (duplicates.length) {
		const existing = await cat.m.products.find({ unique_key: { $in: duplicates.map((d) => d.doc.unique_key) } }, { unique_key: 1 }).lean();
		const ids = new Map(existing.map((d) => [d.unique_key, d._id]));
		for (const d of duplicates) {
			d.result.outcome = "already_exists";
			d.result.product_id = ids.get(d.doc.unique_key) ?? null;
		}
	}
	await sendAll(cat.outbox, created);
}

/** Inserts the documents; the error code of each refused one by its index (-1: the whole batch failed). */
async function insertBatch(cat: Catalog, docs: ProductDoc[]): Promise<Map<number, number>> {
	const failed = new Map<number, number>();
	try {
		await cat.m.products.insertMany(docs, { ordered: false });
	} catch (e) {
		// The driver's WriteError carries the code itself or in `err` (as mongoose passes it on).
		const writeErrors = (e as { writeErrors?: Array<{ index: number; code?: number; err?: { code?: number } }> }).writeErrors;
		for (const w of writeErrors ?? []) failed.set(w.index, w.code ?? w.err?.code ?? 0);
		if (!writeErrors) docs.forEach((_, j) => failed.set(j, -1));
	}
	return failed;
}

/** The ids of the company's products stored at this import's instant. */
async function storedIds(cat: Catalog, like: ProductDoc): Promise<Set<string>> {
	const found = await cat.m.products.find({ tenant_id: like.tenant_id, created_at: like.created_at }, { _id: 1 }).lean<{ _id: string }[]>();
	return new Set(found.map((d) => d._id));
}

export function summarize(rows: ImportRowResult[]): ImportResult {
	const count = (o: ImportRowResult["outcome"]) => rows.filter((r) => r.outcome === o).length;
	return { total: rows.length, created: count("created"), already_exists: count("already_exists"), invalid: count("invalid"), rows };
}
