import { randomUUID } from "node:crypto";
import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";
import { workRequestSchema } from "../../shared/outbox.ts";

// The catalog service's collections: manufacturer partners, products and company profiles.
// Ids are UUID strings. Case-insensitive lookups and uniqueness go through normalized copies
// of the text (no collation indexes on FerretDB); counts are computed on read, never kept.

const id = { type: String, default: () => randomUUID() };
const request = { type: new Schema(workRequestSchema, { _id: false }), default: null };

const PartnerSchema = new Schema(
	{
		_id: id,
		tenant_id: { type: String, required: true },
		name: { type: String, required: true },
		/** The name case-folded with every space removed: a re-post of the "same" name finds it. */
		name_key: { type: String, required: true },
		authorized: { type: Boolean, required: true },
		relationship: { type: String, default: null },
		source_url: { type: String, default: null },
		created_at: { type: Date, required: true },
		/**
		 * Durable request to re-request indexing of every product of the partner after its
		 * authorization changed: set by the same write that flips `authorized`, cleared once
		 * the products carry their own requests (a reconciler finishes an interrupted one).
		 */
		fanout: request,
	},
	{ versionKey: false },
);
PartnerSchema.index({ tenant_id: 1, name_key: 1 }, { unique: true });
PartnerSchema.index({ "fanout.pending": 1, "fanout.requested_at": 1 });

const ProductSchema = new Schema(
	{
		_id: id,
		tenant_id: { type: String, required: true },
		oem_partner_id: { type: String, required: true },
		name: { type: String, required: true },
		model: { type: String, default: null },
		description: { type: String, default: null },
		commodity_codes: { type: [String], default: [] },
		/** `specs` as the client sent it, as JSON text: keeps key order and keys MongoDB cannot store (dots, `$`). */
		specs_json: { type: String, required: true },
		rep_status: { type: String, required: true },
		status: { type: String, required: true },
		source: { type: String, default: null },
		source_url: { type: String, default: null },
		created_at: { type: Date, required: true },
		updated_at: { type: Date, required: true },
		/** "tenant|partner|name|model", normalized: the unique index that makes (partner, name, model) unique. */
		unique_key: { type: String, required: true },
		/** Normalized name, model, description and partner name, for `q`. */
		search_text: { type: String, required: true },
		/** A fresh token on every write: an update applies only to the version it was computed from. */
		rev: { type: String, required: true },
		/** Durable indexing request (consumer: matching). */
		index: request,
	},
	{ versionKey: false, minimize: false },
);
ProductSchema.index({ unique_key: 1 }, { unique: true });
ProductSchema.index({ tenant_id: 1, created_at: -1, _id: -1 });
ProductSchema.index({ tenant_id: 1, oem_partner_id: 1, created_at: -1, _id: -1 });
ProductSchema.index({ "index.pending": 1, "index.requested_at": 1 });
ProductSchema.index({ tenant_id: 1, "index.pending": 1, "index.requested_at": 1 });

const CertificationSchema = new Schema(
	{ name: { type: String, required: true }, number: { type: String, default: null }, expires_at: { type: Date, default: null } },
	{ _id: false },
);

const ProfileSchema = new Schema(
	{
		/** The tenant id: one profile per company. */
		_id: { type: String, required: true },
		company_name: { type: String, default: null },
		certifications: { type: [CertificationSchema], default: [] },
		set_asides: { type: [String], default: [] },
		naics_codes: { type: [String], default: [] },
		places_served: { type: [String], default: [] },
		updated_at: { type: Date, default: null },
	},
	{ versionKey: false },
);

export type PartnerDoc = InferSchemaType<typeof PartnerSchema> & { _id: string };
export type ProductDoc = InferSchemaType<typeof ProductSchema> & { _id: string };
export type ProfileDoc = InferSchemaType<typeof ProfileSchema> & { _id: string };

export interface CatalogModels {
	partners: Model<PartnerDoc>;
	products: Model<ProductDoc>;
	profiles: Model<ProfileDoc>;
}

export function catalogModels(conn: Connection): CatalogModels {
	return {
		partners: conn.model("Partner", PartnerSchema, "partners"),
		products: conn.model("Product", ProductSchema, "products"),
		profiles: conn.model("Profile", ProfileSchema, "profiles"),
	};
}
