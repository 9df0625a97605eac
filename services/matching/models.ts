import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";
import { dropRetiredIndexes } from "../../shared/mongo.ts";
import { ruleModels, type RuleModels } from "./rules/models.ts";

// The matching service's own collections: what it indexed of each product and notice (its
// indexes are rebuilt from these), and the last result per (company, notice), so a match whose
// support disappears is withdrawn rather than forgotten. Learned rules and their evidence are
// in rules/models.ts.

const ProductSchema = new Schema(
	{
		_id: { type: String, required: true }, // the product id
		tenant_id: { type: String, required: true },
		version: { type: String, required: true },
		view: { type: Schema.Types.Mixed, required: true },
		matchable: { type: Boolean, required: true },
		seq: { type: Number, required: true },
		/** The version whose matching is complete (its company re-scored where it counts). */
		matched: { type: String, default: null },
	},
	{ versionKey: false, minimize: false },
);
ProductSchema.index({ seq: 1 });
// A company's products, and a job about them catching up with that company's changes only (engine.ts).
ProductSchema.index({ tenant_id: 1, seq: 1 });

const NoticeSchema = new Schema(
	{
		_id: { type: String, required: true }, // the notice id
		version: { type: String, required: true },
		open: { type: Boolean, required: true },
		view: { type: Schema.Types.Mixed, required: true },
		signals: { type: Schema.Types.Mixed, default: null },
		seq: { type: Number, required: true },
	},
	{ versionKey: false, minimize: false },
);
NoticeSchema.index({ seq: 1 });

const ResultSchema = new Schema(
	{
		_id: { type: String, required: true }, // `${tenantId}|${noticeId}`
		tenant_id: { type: String, required: true },
		notice_id: { type: String, required: true },
		score: { type: Number, default: null },
		product_ids: { type: [String], default: [] },
		supported: { type: Boolean, required: true },
		/** Digest of what was last sent to opportunities: an unchanged result is not sent again. */
		recorded: { type: String, default: null },
		updated_at: { type: Date, required: true },
	},
	{ versionKey: false },
);
ResultSchema.index({ tenant_id: 1, product_ids: 1 });
ResultSchema.index({ notice_id: 1 });

export type IndexedProduct = InferSchemaType<typeof ProductSchema> & { _id: string };
export type IndexedNotice = InferSchemaType<typeof NoticeSchema> & { _id: string };
export type ResultDoc = InferSchemaType<typeof ResultSchema> & { _id: string };

export interface MatchingModels extends RuleModels {
	products: Model<IndexedProduct>;
	notices: Model<IndexedNotice>;
	results: Model<ResultDoc>;
}

/**
 * Indexes of earlier releases, dropped at start. `bucket_1`: the catch-up once read recent changes
 * in 10-second buckets of seq, by equality, because the stand-in store answered a range on seq by
 * reading the whole collection; it reads a range on the `seq` index now.
 */
export async function dropRetiredMatchingIndexes(m: MatchingModels): Promise<void> {
	await dropRetiredIndexes(m.products, ["bucket_1", "tenant_id_1"]);
	await dropRetiredIndexes(m.notices, ["bucket_1"]);
}

export function matchingModels(conn: Connection): MatchingModels {
	return {
		products: conn.model("IndexedProduct", ProductSchema, "products"),
		notices: conn.model("IndexedNotice", NoticeSchema, "notices"),
		results: conn.model("Result", ResultSchema, "results"),
		...ruleModels(conn),
	};
}
