import { randomUUID } from "node:crypto";
import type { FilterQuery } from "mongoose";
import type {
	CreateProductBody,
	Product,
	ProductList,
	ProductListQuery,
	ProductStatus,
	RepStatus,
	UpdateProductBody,
} from "../../shared/contract/catalog.ts";
import { iso } from "../../shared/contract/common.ts";
import { decodeCursor, encodeCursor, listingKey } from "../../shared/cursor.ts";
import { ApiError, notFound, validationFailed } from "../../shared/errors.ts";
import { isDuplicateKeyError } from "../../shared/mongo.ts";
import { newRequest, newVersion, requestWork } from "../../shared/outbox.ts";
import type { Catalog } from "./indexing.ts";
import type { CatalogModels, PartnerDoc, ProductDoc } from "./models.ts";
import { escapeRegex } from "../../shared/mongo.ts";
import { fold, productKey, searchText } from "./normalize.ts";
import { authorizedPartner, ownPartner, partnersByIds } from "./partners.ts";

// Catalog products: created one by one or by import, changed, discontinued and reactivated,
// never deleted. (partner, name, model) is unique by a unique index on a normalized key.

/** A product's own fields, every one present (defaults applied). */
export interface ProductFields {
	name: string;
	model: string | null;
	description: string | null;
	commodity_codes: string[];
	specs: Record<string, unknown>;
	rep_status: RepStatus;
	status: ProductStatus;
	source_url: string | null;
}

/** Changing any of these changes what matching sees: the write requests indexing. */
const RELEVANT = ["oem_partner_id", "name", "model", "description", "commodity_codes", "specs_json", "rep_status", "status"] as const;

/** The stored form of a product's fields under a partner (derived keys included). */
function stored(tenantId: string, partner: PartnerDoc, f: ProductFields) {
	const { specs, ...plain } = f;
	return {
		oem_partner_id: partner._id,
		...plain,
		specs_json: JSON.stringify(specs),
		unique_key: productKey(tenantId, partner._id, f.name, f.model),
		search_text: searchText([f.name, f.model, f.description, partner.name]),
	};
}

export function newProductDoc(
	tenantId: string,
	partner: PartnerDoc,
	f: ProductFields,
	source: "api" | "import",
	now = new Date(),
): ProductDoc {
	return {
		_id: randomUUID(),
		tenant_id: tenantId,
		...stored(tenantId, partner, f),
		source,
		created_at: now,
		updated_at: now,
		rev: newVersion(),
		index: newRequest(),
	} as ProductDoc;
}

function fieldsOf(d: ProductDoc): ProductFields {
	return {
		name: d.name,
		model: d.model ?? null,
		description: d.description ?? null,
		commodity_codes: d.commodity_codes,
		specs: JSON.parse(d.specs_json) as Record<string, unknown>,
		rep_status: d.rep_status as RepStatus,
		status: d.status as ProductStatus,
		source_url: d.source_url ?? null,
	};
}

export function toProduct(d: ProductDoc, oemName: string): Product {
	return {
		id: d._id,
		oem_partner_id: d.oem_partner_id,
		oem_name: oemName,
		...fieldsOf(d),
		source: d.source ?? null,
		created_at: iso(d.created_at)!,
		updated_at: iso(d.updated_at)!,
	};
}

/** The product that holds this (partner, name, model), other than `except`. */
const holder = (m: CatalogModels, uniqueKey: string, except?: string) =>
	m.products.findOne({ unique_key: uniqueKey, ...(except ? { _id: { $ne: except } } : {}) }, { _id: 1 }).lean<{ _id: string }>();

const alreadyExists = (existingId?: string) =>
	new ApiError(
		"already_exists",
		`A product with this partner, name and model already exists${existingId ? ` (${existingId})` : ""}; it was not changed`,
	);

async function findOwned(m: CatalogModels, tenantId: string, id: string): Promise<ProductDoc> {
	const d = await m.products.findOne({ _id: id, tenant_id: tenantId }).lean<ProductDoc>();
	if (!d) throw notFound("Product");
	return d;
}

export async function getProduct(m: CatalogModels, tenantId: string, id: string): Promise<Product> {
	const d = await findOwned(m, tenantId, id);
	return toProduct(d, (await ownPartner(m, tenantId, d.oem_partner_id))?.name ?? "");
}

export async function createProduct(cat: Catalog, tenantId: string, body: CreateProductBody): Promise<Product> {
	const partner = await authorizedPartner(cat.m, tenantId, body.oem_partner_id);
	const { oem_partner_id: _, ...fields } = body;
	const doc = newProductDoc(tenantId, partner, { ...fields, status: "active" }, "api");
	try {
		await cat.m.products.create(doc);
	} catch (e) {
		if (isDuplicateKeyError(e)) throw alreadyExists((await holder(cat.m, doc.unique_key))?._id);
		throw e;
	}
	await cat.outbox.send(doc);
	return toProduct(doc, partner.name);
}

const PATCH_ATTEMPTS = 5;

/**
 * Applies a partial change. The write is conditional on the version (`rev`) it was computed
 * from, so derived keys never mix two concurrent changes; a lost race recomputes. A change
 * to a field matching sees records an indexing request in the same write.
 */
export async function updateProduct(cat: Catalog, tenantId: string, id: string, body: UpdateProductBody): Promise<Product> {
	for (let attempt = 1; ; attempt++) {
		const cur = await findOwned(cat.m, tenantId, id);
		const moved = body.oem_partner_id !== undefined && body.oem_partner_id !== cur.oem_partner_id;
		const partner = moved
			? await authorizedPartner(cat.m, tenantId, body.oem_partner_id!)
			: await ownPartner(cat.m, tenantId, cur.oem_partner_id);
		if (!partner) throw new Error(`product ${id} names a partner that does not exist`);
		const { oem_partner_id: _, ...patch } = body;
		const next = stored(tenantId, partner, { ...fieldsOf(cur), ...patch });
		const changed = (Object.keys(next) as Array<keyof typeof next>).filter(
			(k) => JSON.stringify(next[k]) !== JSON.stringify(cur[k] ?? null),
		);
		if (changed.length === 0) return toProduct(cur, partner.name);
		const relevant = changed.some((k) => (RELEVANT as readonly string[]).includes(k));
		const $set = { ...next, updated_at: new Date(), rev: newVersion(), ...(relevant ? requestWork() : {}) };
		let doc: ProductDoc | null;
		try {
			doc = await cat.m.products
				.findOneAndUpdate({ _id: id, tenant_id: tenantId, rev: cur.rev }, { $set }, { new: true })
				.lean<ProductDoc>();
		} catch (e) {
			// The unique index refused the new key: name the product that holds it.
			if (isDuplicateKeyError(e)) throw alreadyExists((await holder(cat.m, next.unique_key, id))?._id);
			throw e;
		}
		if (doc) {
			if (relevant) await cat.outbox.send(doc);
			return toProduct(doc, partner.name);
		}
		if (attempt >= PATCH_ATTEMPTS) throw new Error(`product ${id} kept changing under ${PATCH_ATTEMPTS} attempts to update it`);
	}
}

/** Binds a cursor to the company and filters it was made for. */
const listingId = (tenantId: string, q: ProductListQuery) =>
	listingKey(tenantId, q.partner ?? null, q.status ?? null, q.rep_status ?? null, fold(q.q ?? ""));

/** Newest first, id as tie-breaker: a (created_at, id) cursor resumes exactly after the last item. */
export async function listProducts(m: CatalogModels, tenantId: string, q: ProductListQuery): Promise<ProductList> {
	const filter: FilterQuery<ProductDoc> = { tenant_id: tenantId };
	if (q.partner) filter.oem_partner_id = q.partner;
	if (q.status) filter.status = q.status;
	if (q.rep_status) filter.rep_status = q.rep_status;
	if (q.q) filter.search_text = { $regex: escapeRegex(fold(q.q)) };
	const listing = listingId(tenantId, q);
	if (q.cursor) {
		const c = decodeCursor(q.cursor, listing);
		if (typeof c.k !== "number") throw validationFailed([{ path: "cursor", code: "invalid_cursor", message: "Invalid cursor" }]);
		const at = new Date(c.k);
		filter.$or = [{ created_at: { $lt: at } }, { created_at: at, _id: { $lt: c.id } }];
	}
	const docs = await m.products
		.find(filter)
		.sort({ created_at: -1, _id: -1 })
		.limit(q.limit + 1)
		.lean<ProductDoc[]>();
	const page = docs.slice(0, q.limit);
	const partners = await partnersByIds(
		m,
		tenantId,
		page.map((d) => d.oem_partner_id),
	);
	const last = page[page.length - 1];
	return {
		items: page.map((d) => toProduct(d, partners.get(d.oem_partner_id)?.name ?? "")),
		nextCursor: docs.length > q.limit && last ? encodeCursor({ k: last.created_at.getTime(), id: last._id, s: listing }) : null,
	};
}
