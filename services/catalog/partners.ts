import type { FilterQuery } from "mongoose";
import type { CreatePartnerBody, Partner, UpdatePartnerBody } from "../../shared/contract/catalog.ts";
import { iso } from "../../shared/contract/common.ts";
import { ApiError, notFound, validationFailed } from "../../shared/errors.ts";
import { isDuplicateKeyError } from "../../shared/mongo.ts";
import { newRequest } from "../../shared/outbox.ts";
import { fanOut, type Catalog } from "./indexing.ts";
import type { CatalogModels, PartnerDoc } from "./models.ts";
import { partnerKey } from "./normalize.ts";

// Manufacturer partners: the OEMs a company resells. Never deleted; de-authorized instead.

interface Counts {
	active: number;
	discontinued: number;
}

/** Products per partner and status, counted now (one $group): counts kept on the side could drift. */
async function productCounts(m: CatalogModels, tenantId: string, partnerId?: string): Promise<Map<string, Counts>> {
	const match: FilterQuery<unknown> = { tenant_id: tenantId };
	if (partnerId) match.oem_partner_id = partnerId;
	const rows = await m.products.aggregate<{ _id: { p: string; s: string }; n: number }>([
		{ $match: match },
		{ $group: { _id: { p: "$oem_partner_id", s: "$status" }, n: { $sum: 1 } } },
	]);
	const out = new Map<string, Counts>();
	for (const { _id, n } of rows) {
		const c = out.get(_id.p) ?? { active: 0, discontinued: 0 };
		if (_id.s === "active" || _id.s === "discontinued") c[_id.s] += n;
		out.set(_id.p, c);
	}
	return out;
}

function toPartner(p: PartnerDoc, counts: Counts = { active: 0, discontinued: 0 }): Partner {
	return {
		id: p._id,
		name: p.name,
		authorized: p.authorized,
		relationship: p.relationship ?? null,
		source_url: p.source_url ?? null,
		active_product_count: counts.active,
		discontinued_product_count: counts.discontinued,
		created_at: iso(p.created_at)!,
	};
}

async function withCounts(m: CatalogModels, p: PartnerDoc): Promise<Partner> {
	return toPartner(p, (await productCounts(m, p.tenant_id, p._id)).get(p._id));
}

/** Ordered by name (case-insensitively), then id. */
export async function listPartners(m: CatalogModels, tenantId: string): Promise<Partner[]> {
	const [partners, counts] = await Promise.all([
		m.partners.find({ tenant_id: tenantId }).sort({ name_key: 1, _id: 1 }).lean<PartnerDoc[]>(),
		productCounts(m, tenantId),
	]);
	return partners.map((p) => toPartner(p, counts.get(p._id)));
}

/** Names of the authorized partners in the order they were added: the profile's manufacturer_partners. */
export async function authorizedPartnerNames(m: CatalogModels, tenantId: string): Promise<string[]> {
	const docs = await m.partners.find({ tenant_id: tenantId, authorized: true }, { name: 1 }).sort({ created_at: 1, _id: 1 }).lean();
	return docs.map((p) => p.name);
}

/** The partners of a page of products, in one query. */
export async function partnersByIds(m: CatalogModels, tenantId: string, ids: string[]): Promise<Map<string, PartnerDoc>> {
	const docs = await m.partners.find({ tenant_id: tenantId, _id: { $in: [...new Set(ids)] } }).lean<PartnerDoc[]>();
	return new Map(docs.map((p) => [p._id, p]));
}

export async function ownPartner(m: CatalogModels, tenantId: string, id: string): Promise<PartnerDoc | null> {
	return m.partners.findOne({ _id: id, tenant_id: tenantId }).lean<PartnerDoc>();
}

/** The partner a product is filed under: one of the company's (else validation_failed) and authorized. */
export async function authorizedPartner(m: CatalogModels, tenantId: string, id: string, path = "body.oem_partner_id"): Promise<PartnerDoc> {
	const p = await ownPartner(m, tenantId, id);
	if (!p) throw validationFailed([{ path, code: "unknown_partner", message: "Not one of the company's manufacturer partners" }]);
	if (!p.authorized)
		throw new ApiError("partner_not_authorized", `The company is not an authorized reseller of ${p.name}: authorize the partner first`);
	return p;
}

/**
 * Applies `set`. When it flips `authorized`, that same write records the fanout request
 * (so a crash cannot separate them) and the fanout runs before the answer.
 */
async function writePartner(
	cat: Catalog,
	filter: FilterQuery<PartnerDoc>,
	set: Partial<Pick<PartnerDoc, "authorized" | "relationship" | "source_url">>,
): Promise<PartnerDoc | null> {
	if (set.authorized !== undefined) {
		const flipped = await cat.m.partners
			.findOneAndUpdate({ ...filter, authorized: !set.authorized }, { $set: { ...set, fanout: newRequest() } }, { new: true })
			.lean<PartnerDoc>();
		if (flipped) {
			await fanOut(cat, flipped);
			return flipped;
		}
	}
	return cat.m.partners.findOneAndUpdate(filter, { $set: set }, { new: true }).lean<PartnerDoc>();
}

/**
 * Adds a partner, authorized. A name already on file (case- and space-insensitively) is that
 * partner: it is re-authorized, keeps its id and name, and takes relationship and source_url
 * when they are sent; its products keep their status (discontinued ones stay discontinued).
 */
export async function createPartner(cat: Catalog, tenantId: string, body: CreatePartnerBody): Promise<Partner> {
	const key = partnerKey(body.name);
	try {
		const doc = await cat.m.partners.create({
			tenant_id: tenantId,
			name: body.name,
			name_key: key,
			authorized: true,
			relationship: body.relationship ?? null,
			source_url: body.source_url ?? null,
			created_at: new Date(),
		});
		return toPartner(doc.toObject());
	} catch (e) {
		if (!isDuplicateKeyError(e)) throw e;
	}
	const set: Parameters<typeof writePartner>[2] = { authorized: true };
	if (body.relationship !== undefined) set.relationship = body.relationship;
	if (body.source_url !== undefined) set.source_url = body.source_url;
	const p = await writePartner(cat, { tenant_id: tenantId, name_key: key }, set);
	if (!p) throw new Error("partner vanished between insert and update");
	return withCounts(cat.m, p);
}

/** De-authorizes or re-authorizes a partner, or changes its relationship (null clears it). */
export async function updatePartner(cat: Catalog, tenantId: string, id: string, body: UpdatePartnerBody): Promise<Partner> {
	const p = await writePartner(cat, { _id: id, tenant_id: tenantId }, body);
	if (!p) throw notFound("Partner");
	return withCounts(cat.m, p);
}
