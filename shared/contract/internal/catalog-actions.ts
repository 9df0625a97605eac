import { z } from "zod";
import { CompanyProfile, ImportResult, ProductStatus, RepStatus } from "../catalog.ts";
import { Issue } from "../common.ts";
import { RequestVersion, ReconcileParams, TenantRef, type InternalAction } from "./common.ts";

// catalog's internal actions: the CLI's import in chunks, and what the indexing consumer
// (matching) reads of products and marks done (never routed).

/** An import body as sent, classified by the action (CSV text, a JSON array of rows, or neither). */
export const RawImportParams = z.object({ body: z.unknown() }).strict();
export type RawImportParams = z.infer<typeof RawImportParams>;

/** One row as read from the file, with the problems reading it already found (CSV only). */
export const ImportLine = z
	.object({
		line: z.number().int().min(1),
		row: z.record(z.string(), z.unknown()),
		issues: z.array(Issue),
	})
	.strict();
export type ImportLine = z.infer<typeof ImportLine>;
export const ImportLines = z.object({ rows: z.array(ImportLine) });

export const ImportRowsParams = z.object({ tenantId: z.uuid(), rows: z.array(ImportLine).min(1).max(500) }).strict();
export type ImportRowsParams = z.infer<typeof ImportRowsParams>;

export const SpecAttribute = z.object({ key: z.string(), value: z.string() });
export type SpecAttribute = z.infer<typeof SpecAttribute>;

/** What matching's indexer sees of a product. */
export const ProductIndexView = z.object({
	tenantId: z.string(),
	productId: z.string(),
	/** The pending (or last) indexing request; pass it to catalog.markIndexed once indexed. */
	version: z.string(),
	partner: z.object({ id: z.string(), name: z.string(), authorized: z.boolean() }),
	name: z.string(),
	model: z.string().nullable(),
	description: z.string().nullable(),
	commodityCodes: z.array(z.string()),
	/** Untrusted catalog data: a bounded, deterministic subset of specs (catalog's specsSubset). */
	specs: z.array(SpecAttribute),
	repStatus: RepStatus,
	status: ProductStatus,
	/** Active and under an authorized partner: only such products may influence matching. */
	matchable: z.boolean(),
});
export type ProductIndexView = z.infer<typeof ProductIndexView>;
export const ProductIndexViews = z.object({ items: z.array(ProductIndexView) });

/** A product, within one company when tenantId is given. */
export const ProductRef = z.object({ productId: z.uuid(), tenantId: z.uuid().optional() }).strict();
export type ProductRef = z.infer<typeof ProductRef>;
export const ProductRefs = z.object({ productIds: z.array(z.uuid()).min(1).max(500), tenantId: z.uuid().optional() }).strict();
export type ProductRefs = z.infer<typeof ProductRefs>;

/** The company's products still waiting for indexing, oldest request first. */
export const PendingIndexViewsParams = z.object({ tenantId: z.uuid(), limit: z.number().int().min(1).max(500).default(100) }).strict();
export type PendingIndexViewsParams = z.infer<typeof PendingIndexViewsParams>;

const IndexedVersion = z.object({ productId: z.uuid(), version: RequestVersion }).strict();
export const MarkIndexedParams = IndexedVersion;
export type MarkIndexedParams = z.infer<typeof MarkIndexedParams>;
export const MarkManyIndexedParams = z.object({ items: z.array(IndexedVersion).min(1).max(500) }).strict();
export type MarkManyIndexedParams = z.infer<typeof MarkManyIndexedParams>;

export const catalogActions = {
	"catalog.parseImport": { params: RawImportParams, result: ImportLines },
	"catalog.importRows": { params: ImportRowsParams, result: ImportResult },
	"catalog.profileFor": { params: TenantRef, result: CompanyProfile },
	"catalog.indexView": { params: ProductRef, result: ProductIndexView },
	"catalog.indexViews": { params: ProductRefs, result: ProductIndexViews },
	"catalog.pendingIndexViews": { params: PendingIndexViewsParams, result: ProductIndexViews },
	/** done: false when a newer request replaced the version meanwhile. */
	"catalog.markIndexed": { params: MarkIndexedParams, result: z.object({ done: z.boolean() }) },
	/** done: how many versions were still the current request. */
	"catalog.markManyIndexed": { params: MarkManyIndexedParams, result: z.object({ done: z.number().int() }) },
	"catalog.reconcileIndexing": { params: ReconcileParams, result: z.object({ fanouts: z.number().int(), sent: z.number().int() }) },
} as const satisfies Record<string, InternalAction>;
