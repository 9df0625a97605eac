import { z } from "zod";
import { Cursor, DateTime, Issue, Limit, Uuid } from "./common.ts";

// Manufacturer partners, catalog products, bulk import and the company profile (catalog service).

const nonEmpty = (o: object) => Object.keys(o).length > 0;
/** Run a refinement only when nothing else is wrong (an unknown key alone is not "empty"). */
const cleanSoFar = (payload: { issues: readonly unknown[] }) => payload.issues.length === 0;
const NON_EMPTY_MESSAGE = "Send at least one field to change";

// ---------------------------------------------------------------------------------------------
// Field building blocks (shared by create, update and import)

/** An http(s) URL, kept exactly as sent. */
export const SourceUrl = z
	.url({ protocol: /^https?$/, message: "Expected an http or https URL" })
	.max(2048)
	.describe("An http or https URL, at most 2048 characters");

export const PartnerName = z.string().trim().min(1).max(200).describe("1 to 200 characters (surrounding spaces are trimmed)");
export const PartnerRelationship = z.string().trim().min(1).max(200).describe("Free text, 1 to 200 characters, e.g. `Gold partner`");

export const RepStatus = z
	.enum(["carried", "catalog"])
	.meta({ id: "RepStatus", description: "`carried`: stocked and represented; `catalog`: available to quote" });
export type RepStatus = z.infer<typeof RepStatus>;

export const ProductStatus = z
	.enum(["active", "discontinued"])
	.meta({ id: "ProductStatus", description: "`discontinued` products stop influencing matching; products are never deleted" });
export type ProductStatus = z.infer<typeof ProductStatus>;

export const ProductName = z.string().trim().min(1).max(200).describe("1 to 200 characters (surrounding spaces are trimmed)");
export const ProductModel = z.string().trim().min(1).max(100).describe("Model or part number, 1 to 100 characters");
export const ProductDescription = z.string().trim().min(1).max(4000).describe("1 to 4000 characters");
export const CommodityCode = z
	.string()
	.trim()
	.min(1)
	.max(64)
	.describe("A classification code (UNSPSC, NAICS, CPV, PSC, ...), 1 to 64 characters, e.g. `43211503`");
export const CommodityCodes = z.array(CommodityCode).max(50).describe("At most 50 commodity codes");

/** Bounds of the free-form `specs` object. */
export const SPECS_LIMITS = { maxBytes: 16_384, maxKeys: 200, maxDepth: 10 } as const;

/** True when `value` nests objects/arrays deeper than `max` levels (iterative: no stack overflow). */
function nestsDeeperThan(value: unknown, max: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 1]];
	while (stack.length > 0) {
		const [v, level] = stack.pop()!;
		if (v === null || typeof v !== "object") continue;
		if (level > max) return true;
		for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, level + 1]);
	}
	return false;
}

/**
 * Free-form technical attributes, stored and returned verbatim (key order included; keys may
 * contain dots or start with `$`). Bounded: at most 200 top-level keys, 10 levels of nesting
 * and 16 KB as JSON. A top-level `__proto__` key is refused, as a JavaScript object cannot
 * carry it through verbatim.
 */
export const Specs = z
	.preprocess(
		(v, ctx) => {
			if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, "__proto__")) {
				ctx.addIssue({ code: "custom", message: "The key __proto__ is not allowed in specs", path: ["__proto__"], input: v });
			}
			return v;
		},
		z.record(z.string(), z.unknown()).superRefine((specs, ctx) => {
			const keys = Object.keys(specs).length;
			if (keys > SPECS_LIMITS.maxKeys) {
				ctx.addIssue({
					code: "too_big",
					origin: "object",
					maximum: SPECS_LIMITS.maxKeys,
					inclusive: true,
					input: specs,
					message: `specs may have at most ${SPECS_LIMITS.maxKeys} keys (got ${keys})`,
				});
				return;
			}
			if (nestsDeeperThan(specs, SPECS_LIMITS.maxDepth)) {
				ctx.addIssue({ code: "custom", input: specs, message: `specs may nest at most ${SPECS_LIMITS.maxDepth} levels deep` });
				return;
			}
			const bytes = Buffer.byteLength(JSON.stringify(specs), "utf8");
			if (bytes > SPECS_LIMITS.maxBytes) {
				ctx.addIssue({
					code: "too_big",
					origin: "string",
					maximum: SPECS_LIMITS.maxBytes,
					inclusive: true,
					input: specs,
					message: `specs may be at most ${SPECS_LIMITS.maxBytes} bytes as JSON (got ${bytes})`,
				});
			}
		}),
	)
	.meta({
		maxProperties: SPECS_LIMITS.maxKeys,
		description:
			"Free-form technical attributes, stored and returned verbatim (key order included; " +
			"keys may contain dots or start with `$`; as everywhere JSON passes through JavaScript, keys that are whole " +
			'numbers such as `"10"` come first, in ascending order). ' +
			"At most 200 top-level keys, 10 levels of nesting and 16 KB as JSON. " +
			"Only a bounded, deterministically ordered subset informs indexing and matching, as untrusted catalog data: " +
			"in stored order, the first 20 attributes with a scalar value (or a list of scalars), a nested object's " +
			"scalar members one level down as `parent.child`, each key and value cut to 100 characters.",
	});
export type Specs = z.infer<typeof Specs>;

// ---------------------------------------------------------------------------------------------
// Manufacturer partners

export const Partner = z
	.object({
		id: z.string(),
		name: z.string(),
		authorized: z.boolean().describe("Whether the company is currently an authorized reseller for this manufacturer"),
		relationship: z.string().nullable().describe("Free text"),
		source_url: z.string().nullable(),
		active_product_count: z.number().int().min(0),
		discontinued_product_count: z.number().int().min(0),
		created_at: DateTime,
	})
	.meta({ id: "ManufacturerPartner" });
export type Partner = z.infer<typeof Partner>;

export const PartnerList = z.object({ partners: z.array(Partner).describe("Ordered by name") }).meta({ id: "ManufacturerPartnerList" });
export type PartnerList = z.infer<typeof PartnerList>;

export const CreatePartnerBody = z
	.object({
		name: PartnerName.describe("The name as it should appear on the company profile, 1 to 200 characters"),
		relationship: PartnerRelationship.optional(),
		source_url: SourceUrl.optional(),
	})
	.strict()
	.meta({ id: "CreatePartnerRequest" });
export type CreatePartnerBody = z.infer<typeof CreatePartnerBody>;

export const UpdatePartnerBody = z
	.object({
		authorized: z
			.boolean()
			.optional()
			.describe(
				"false de-authorizes the partner: its products stop influencing matching and no product can be created under it; true re-authorizes it (discontinued products stay discontinued)",
			),
		relationship: PartnerRelationship.nullable().optional().describe("1 to 200 characters; null clears it"),
	})
	.strict()
	.refine(nonEmpty, { message: NON_EMPTY_MESSAGE, when: cleanSoFar })
	.meta({ id: "UpdatePartnerRequest", minProperties: 1 });
export type UpdatePartnerBody = z.infer<typeof UpdatePartnerBody>;

// ---------------------------------------------------------------------------------------------
// Products

export const Product = z
	.object({
		id: z.string(),
		oem_partner_id: z.string().describe("One of the company's manufacturer partners"),
		oem_name: z.string().describe("The partner's name, joined on for display"),
		name: z.string(),
		model: z.string().nullable(),
		description: z.string().nullable(),
		commodity_codes: z.array(z.string()),
		specs: z.record(z.string(), z.unknown()).describe("Free-form technical attributes, returned verbatim"),
		rep_status: RepStatus,
		status: ProductStatus,
		source: z
			.string()
			.nullable()
			.describe("How the product entered the catalog: `api` (created one by one) or `import` (bulk import); null when unknown"),
		source_url: z.string().nullable(),
		created_at: DateTime,
		updated_at: DateTime,
	})
	.meta({ id: "Product" });
export type Product = z.infer<typeof Product>;

export const ProductList = z
	.object({
		items: z.array(Product),
		nextCursor: z.string().nullable().describe("Pass as `cursor` to get the following page; null on the last page"),
	})
	.meta({ id: "ProductList" });
export type ProductList = z.infer<typeof ProductList>;

export const ProductListQuery = z
	.object({
		partner: Uuid.optional().describe("Only products of this manufacturer partner (its id)"),
		status: ProductStatus.optional().describe("Only products in this status; both when absent"),
		rep_status: RepStatus.optional().describe("Only products with this rep_status; both when absent"),
		q: z
			.string()
			.trim()
			.max(200)
			.optional()
			.describe("Case-insensitive text searched in name, model, description and the partner's name; empty means no text filter"),
		cursor: Cursor.optional(),
		limit: Limit,
	})
	.strict();
export type ProductListQuery = z.infer<typeof ProductListQuery>;

export const CreateProductBody = z
	.object({
		oem_partner_id: Uuid.describe("One of the company's manufacturer partners; it must be authorized"),
		name: ProductName,
		model: ProductModel.nullable().default(null),
		description: ProductDescription.nullable().default(null),
		commodity_codes: CommodityCodes.default([]),
		specs: Specs.default({}),
		rep_status: RepStatus.default("carried"),
		source_url: SourceUrl.nullable().default(null),
	})
	.strict()
	.meta({ id: "CreateProductRequest" });
export type CreateProductBody = z.infer<typeof CreateProductBody>;

export const UpdateProductBody = z
	.object({
		oem_partner_id: Uuid.optional().describe("Moves the product to another of the company's partners"),
		name: ProductName.optional(),
		model: ProductModel.nullable().optional().describe("1 to 100 characters; null clears it"),
		description: ProductDescription.nullable().optional().describe("1 to 4000 characters; null clears it"),
		commodity_codes: CommodityCodes.optional().describe("Replaces the whole list; at most 50 codes"),
		specs: Specs.optional().describe("Replaces the whole object (stored verbatim; bounds as on creation)"),
		rep_status: RepStatus.optional(),
		status: ProductStatus.optional().describe("`discontinued` takes the product out of matching; `active` brings it back"),
		source_url: SourceUrl.nullable().optional().describe("An http or https URL; null clears it"),
	})
	.strict()
	.refine(nonEmpty, { message: NON_EMPTY_MESSAGE, when: cleanSoFar })
	.meta({ id: "UpdateProductRequest", minProperties: 1 });
export type UpdateProductBody = z.infer<typeof UpdateProductBody>;

// ---------------------------------------------------------------------------------------------
// Bulk import

export const IMPORT_MAX_ROWS = 5000;

/**
 * One row of a bulk import, as the catalog validates it row by row (a CSV line is first turned
 * into this shape: empty cells are absent, `commodity_codes` split on `;`, `specs` parsed from
 * JSON text). The partner is named, not referenced by id. Absent fields take the defaults of
 * POST /products (status: active); no defaults are applied here, so that the schema reads the
 * same as a request and as a component of the OpenAPI document.
 */
export const ProductImportRow = z
	.object({
		partner: PartnerName.describe("Name of one of the company's authorized manufacturer partners, compared case- and space-insensitively"),
		name: ProductName,
		model: ProductModel.nullable().optional().describe("1 to 100 characters; default null"),
		description: ProductDescription.nullable().optional().describe("1 to 4000 characters; default null"),
		commodity_codes: CommodityCodes.optional().describe("At most 50; default []"),
		specs: Specs.optional().describe("Free-form object, bounds as for POST /products; default {}"),
		rep_status: RepStatus.optional().describe("Default carried"),
		status: ProductStatus.optional().describe("Default active"),
		source_url: SourceUrl.nullable().optional().describe("An http or https URL; default null"),
	})
	.strict()
	.meta({
		id: "ProductImportRow",
		description: "One row of POST /products/import (a JSON array element, or a CSV line with these columns)",
	});
export type ProductImportRow = z.infer<typeof ProductImportRow>;

/**
 * The import body as the action receives it: rows are only required to be objects here, so
 * that each is validated on its own (with ProductImportRow) and reported, not refused as a whole.
 */
export const ImportProductsBody = z
	.array(z.record(z.string(), z.unknown()).describe("A product row: see ProductImportRow"))
	.min(1, "The import holds no rows")
	.max(IMPORT_MAX_ROWS, `An import holds at most ${IMPORT_MAX_ROWS} rows`)
	.meta({
		id: "ImportProductsRequest",
		description:
			"Up to 5,000 product rows, either as this JSON array (Content-Type application/json) or as CSV (Content-Type " +
			"text/csv) with a header line naming the columns. Columns/keys: " +
			"partner (the partner's name), name, model, description, commodity_codes (in CSV separated by `;`), specs (in " +
			"CSV a JSON object as text), rep_status, status, source_url; only partner and name are required. " +
			"Each row is validated and created on its own: see the ProductImportRow schema.",
	});
export type ImportProductsBody = z.infer<typeof ImportProductsBody>;

/** The import route's body limit (the gateway's 8mb) in characters of CSV text. */
export const IMPORT_MAX_CSV_CHARS = 8 * 1024 * 1024;

/**
 * The body of a text/csv import as the action receives it: the CSV text itself (the gateway
 * documents it as the text/csv content of the same request body). The action takes either
 * this or ImportProductsBody.
 */
export const ImportCsvText = z
	.string()
	.max(IMPORT_MAX_CSV_CHARS, "The CSV text is larger than 8 MiB")
	.describe("CSV text: a header line naming the columns, then one product per record");

export const ImportRowOutcome = z.enum(["created", "already_exists", "invalid"]).meta({ id: "ImportRowOutcome" });

export const ImportRowResult = z
	.object({
		line: z
			.number()
			.int()
			.min(1)
			.describe("CSV: the line the row starts on (the header is line 1). JSON: the row's 1-based position in the array"),
		outcome: ImportRowOutcome,
		product_id: z.string().nullable().describe("The created product, or the existing one for already_exists; null for invalid rows"),
		issues: z
			.array(Issue)
			.describe(
				"Why an invalid row was refused; paths are relative to the row (e.g. `name`, `commodity_codes.3`). " +
					"Codes are those of validation_failed, plus unknown_partner (no partner of that name), partner_not_authorized, " +
					"column_count (a CSV record with more or fewer cells than the header) and invalid_json (CSV specs that are not " +
					"JSON). Empty otherwise",
			),
	})
	.meta({ id: "ImportRowResult" });
export type ImportRowResult = z.infer<typeof ImportRowResult>;

export const ImportResult = z
	.object({
		total: z.number().int().min(0),
		created: z.number().int().min(0),
		already_exists: z.number().int().min(0),
		invalid: z.number().int().min(0),
		rows: z.array(ImportRowResult).describe("One entry per row, in file order"),
	})
	.meta({ id: "ImportResult" });
export type ImportResult = z.infer<typeof ImportResult>;

// ---------------------------------------------------------------------------------------------
// Company profile

export const SetAside = z
	.enum(["small_business", "8a", "hubzone", "sdvosb", "wosb"])
	.meta({ id: "SetAside", description: "A set-aside status the company holds (US federal programmes)" });
export type SetAside = z.infer<typeof SetAside>;

export const Certification = z
	.object({
		name: z.string().describe("e.g. `ISO 9001`, `TAA`, `FIPS 140-2`"),
		number: z.string().nullable().describe("Certificate number"),
		expires_at: DateTime.nullable().describe("null when it does not expire; an expired certification does not count for eligibility"),
	})
	.meta({ id: "Certification" });
export type Certification = z.infer<typeof Certification>;

export const CertificationInput = z
	.object({
		name: z.string().trim().min(1).max(200).describe("1 to 200 characters, e.g. `ISO 9001`"),
		number: z
			.string()
			.trim()
			.min(1)
			.max(100)
			.nullable()
			.optional()
			.describe("Certificate number, 1 to 100 characters; null or absent when none"),
		expires_at: DateTime.nullable().optional().describe("UTC date-time; null or absent when it does not expire"),
	})
	.strict()
	.meta({ id: "CertificationInput" });
export type CertificationInput = z.infer<typeof CertificationInput>;

const unique = (a: readonly unknown[]) => new Set(a).size === a.length;

export const NaicsCode = z
	.string()
	.trim()
	.regex(/^\d{2,6}$/, "A NAICS code is 2 to 6 digits");
export const PlaceServed = z
	.string()
	.trim()
	.min(1)
	.max(100)
	.describe("A place the company delivers to or performs in, e.g. `US`, `US-VA`, `Northern Virginia`, 1 to 100 characters");

export const CompanyProfile = z
	.object({
		company_name: z.string().nullable().describe("null until set with PATCH /profile"),
		certifications: z.array(Certification),
		set_asides: z.array(SetAside),
		naics_codes: z.array(z.string()),
		places_served: z.array(z.string()),
		manufacturer_partners: z
			.array(z.string())
			.describe("Read-only: names of the company's authorized manufacturer partners, managed through /products/partners"),
		updated_at: DateTime.nullable().describe("null until the profile is first changed"),
	})
	.meta({ id: "CompanyProfile" });
export type CompanyProfile = z.infer<typeof CompanyProfile>;

export const UpdateProfileBody = z
	.object({
		company_name: z.string().trim().min(1).max(200).optional().describe("1 to 200 characters"),
		certifications: z.array(CertificationInput).max(50).optional().describe("Replaces the whole list; at most 50"),
		set_asides: z.array(SetAside).max(5).refine(unique, "set_asides must be unique").optional().describe("Replaces the whole list"),
		naics_codes: z
			.array(NaicsCode)
			.max(100)
			.refine(unique, "naics_codes must be unique")
			.optional()
			.describe("Replaces the whole list; at most 100 codes of 2 to 6 digits"),
		places_served: z.array(PlaceServed).max(100).optional().describe("Replaces the whole list; at most 100"),
	})
	.strict()
	.refine(nonEmpty, { message: NON_EMPTY_MESSAGE, when: cleanSoFar })
	.meta({
		id: "UpdateProfileRequest",
		minProperties: 1,
		description:
			"Any non-empty subset of the fields; a list given replaces the stored list. manufacturer_partners is read-only (managed through /products/partners); unknown fields are refused.",
	});
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;
