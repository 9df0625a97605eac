import type { ProductIndexView, SpecAttribute } from "../../shared/contract/internal/catalog-actions.ts";
import { notFound } from "../../shared/errors.ts";
import type { CatalogModels, ProductDoc } from "./models.ts";
import { partnersByIds } from "./partners.ts";

// What indexing and matching may see of a product: the job names the product and version, the
// consumer reads this view (always the current state) and marks the version it indexed.

/** Bounds of the specs subset indexing sees. */
export const SPECS_VIEW = { maxAttributes: 20, maxKeyLength: 100, maxValueLength: 100 } as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Control characters and runs of whitespace become one space; cut at `max` code points. */
function clip(s: string, max: number): string {
	return Array.from(s.replace(/[\s\p{Cc}]+/gu, " ").trim())
		.slice(0, max)
		.join("");
}

function scalarText(v: unknown): string | undefined {
	if (typeof v === "string") return v;
	if (typeof v === "number" || typeof v === "boolean") return String(v);
	if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" || typeof x === "number" || typeof x === "boolean"))
		return v.map(String).join(", ");
	return undefined;
}

/**
 * The specs attributes indexing sees: in stored order, the first 20 with a scalar value
 * (string, number, boolean, or a list of them joined with ", "). A nested object contributes
 * its scalar members one level down, as `parent.child`; anything deeper, nulls and empty
 * values are skipped. Keys and values are cut to 100 characters, whitespace collapsed.
 */
export function specsSubset(specs: Record<string, unknown>): SpecAttribute[] {
	const out: SpecAttribute[] = [];
	const add = (key: string, v: unknown) => {
		const text = scalarText(v);
		const value = text === undefined ? "" : clip(text, SPECS_VIEW.maxValueLength);
		if (value && out.length < SPECS_VIEW.maxAttributes) out.push({ key: clip(key, SPECS_VIEW.maxKeyLength), value });
	};
	for (const [k, v] of Object.entries(specs)) {
		if (out.length >= SPECS_VIEW.maxAttributes) break;
		if (isPlainObject(v)) for (const [ck, cv] of Object.entries(v)) add(`${k}.${ck}`, cv);
		else add(k, v);
	}
	return out;
}

/** The views of these products (absent ones left out, in the order asked), optionally only within one company. */
export async function indexViews(m: CatalogModels, productIds: string[], tenantId?: string): Promise<ProductIndexView[]> {
	const docs = await m.products.find({ _id: { $in: productIds }, ...(tenantId ? { tenant_id: tenantId } : {}) }).lean<ProductDoc[]>();
	const order = new Map(productIds.map((id, i) => [id, i]));
	return (await viewsOf(m, docs)).sort((a, b) => order.get(a.productId)! - order.get(b.productId)!);
}

async function viewsOf(m: CatalogModels, docs: ProductDoc[]): Promise<ProductIndexView[]> {
	const byTenant = new Map<string, ProductDoc[]>();
	for (const d of docs) byTenant.set(d.tenant_id, [...(byTenant.get(d.tenant_id) ?? []), d]);
	const views: ProductIndexView[] = [];
	for (const [tenant, products] of byTenant) {
		const partners = await partnersByIds(
			m,
			tenant,
			products.map((p) => p.oem_partner_id),
		);
		for (const p of products) {
			const partner = partners.get(p.oem_partner_id);
			const authorized = partner?.authorized ?? false;
			views.push({
				tenantId: p.tenant_id,
				productId: p._id,
				version: p.index?.requested ?? "",
				partner: { id: p.oem_partner_id, name: partner?.name ?? "", authorized },
				name: p.name,
				model: p.model ?? null,
				description: p.description ?? null,
				commodityCodes: p.commodity_codes,
				specs: specsSubset(JSON.parse(p.specs_json) as Record<string, unknown>),
				repStatus: p.rep_status as ProductIndexView["repStatus"],
				status: p.status as ProductIndexView["status"],
				matchable: p.status === "active" && authorized,
			});
		}
	}
	return views;
}

export async function indexView(m: CatalogModels, productId: string, tenantId?: string): Promise<ProductIndexView> {
	const [view] = await indexViews(m, [productId], tenantId);
	if (!view) throw notFound("Product");
	return view;
}

/**
 * The company's products still waiting for indexing, oldest request first: a consumer that
 * takes them together scores each affected notice once for a whole import, not once per row.
 * The index `{tenant_id, index.pending, index.requested_at}` serves the filter and the order, so
 * the read stops at `limit` however long the backlog.
 */
export async function pendingIndexViews(m: CatalogModels, tenantId: string, limit: number): Promise<ProductIndexView[]> {
	const docs = await m.products
		.find({ tenant_id: tenantId, "index.pending": true })
		.sort({ "index.requested_at": 1 })
		.limit(limit)
		.lean<ProductDoc[]>();
	return viewsOf(m, docs);
}
