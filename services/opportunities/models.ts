import { randomUUID } from "node:crypto";
import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";
import { workRequestSchema } from "../../shared/outbox.ts";

// The opportunities service's collections: notices (global, one per solicitation), a
// company's opportunities (one per company and notice) and their feedback. Notice fields a list filters or sorts on are copied onto each
// opportunity (no $lookup on FerretDB) and refreshed when the notice changes.

const id = { type: String, default: () => randomUUID() };
const mixed = { type: Schema.Types.Mixed, default: null };

const OpportunitySchema = new Schema(
	{
		_id: id,
		tenant_id: { type: String, required: true },
		notice_id: { type: String, required: true },

		// --- copied from the notice
		rfp_id: { type: String, required: true },
		reference_number: { type: String, required: true },
		title: { type: String, required: true },
		issuing_body: { type: String, required: true },
		source: { type: String, required: true },
		source_url: { type: String, default: null },
		categories: { type: [String], default: [] },
		deadline: { type: Date, default: null },
		estimated_value: { type: Number, default: null },
		currency: { type: String, default: null },
		source_status: { type: String, required: true },
		/** Lower-cased title, issuing body, reference number and description, for `q`. */
		search_text: { type: String, default: "" },

		// --- written by matching
		score: { type: Number, default: null },
		score_band: { type: String, default: "unscored" },
		score_source: { type: String, default: "matcher" },
		product_match: { type: Schema.Types.Mixed, default: {} },
		product_match_name: { type: String, default: null },
		rationale: { type: [Schema.Types.Mixed], default: [] },
		eligible: { type: Boolean, default: true },
		signals: mixed,
		signal_source: { type: String, default: null },
		extraction_signal_source: { type: String, default: null },
		/** False when the products that supported the match are gone: kept, but out of the default list. */
		supported: { type: Boolean, default: true },
		match_version: { type: String, default: null },

		// --- the company's own state, never touched by re-matching
		status: { type: String, required: true, default: "new" },
		/**
		 * The current feedback verdict and its `seq`. The pointer moves only to a newer verdict, by a
		 * compare-and-set on this document, which also sets the status (pipeline.ts settleVerdicts).
		 */
		feedback_id: { type: String, default: null },
		feedback_seq: { type: String, default: null },
		archived_at: { type: Date, default: null },
		notified_at: { type: Date, default: null },
		/** When the notice last changed after this opportunity was discovered (for the digest's "updated" section). */
		amended_at: { type: Date, default: null },
		discovered_at: { type: Date, required: true },
		updated_at: { type: Date, required: true },

		// --- sort keys, each ascending (a descending order is the negated value); a missing
		// score or deadline sorts last either way
		score_asc: { type: Number, required: true },
		score_desc: { type: Number, required: true },
		deadline_asc: { type: Number, required: true },
		deadline_desc: { type: Number, required: true },
		discovered_asc: { type: Number, required: true },
		discovered_desc: { type: Number, required: true },
	},
	{ versionKey: false, minimize: false },
);
OpportunitySchema.index({ tenant_id: 1, notice_id: 1 }, { unique: true });
OpportunitySchema.index({ notice_id: 1 });
for (const key of ["score_asc", "score_desc", "deadline_asc", "deadline_desc", "discovered_asc", "discovered_desc"]) {
	OpportunitySchema.index({ tenant_id: 1, archived_at: 1, supported: 1, [key]: 1, _id: 1 });
}

const NoticeSchema = new Schema(
	{
		_id: id,
		source: { type: String, required: true },
		source_id: { type: String, required: true },
		rfp_id: { type: String, required: true },
		reference_number: { type: String, required: true },
		title: { type: String, required: true },
		issuing_body: { type: String, required: true },
		description: { type: String, default: "" },
		categories: { type: [{ scheme: String, code: String, label: String, _id: false }], default: [] },
		deadline: { type: Date, default: null },
		estimated_value: { type: Number, default: null },
		currency: { type: String, default: null },
		source_status: { type: String, required: true, default: "open" },
		source_url: { type: String, default: null },
		published_at: { type: Date, default: null },
		/** Hash of the stored content: an identical re-delivery changes nothing. */
		content_hash: { type: String, default: null },
		/** The rest of the normalized notice (items, contacts, documents, place, set-aside, version history). */
		details: { type: Schema.Types.Mixed, default: {} },
		/** The notice as the feeds' merge logic keeps it (feeds/versions.ts StoredNotice); null for notices written directly. */
		normalized: { type: Schema.Types.Mixed, default: null },
		/** Keys under which the same solicitation from another feed is recognised. */
		dedupe_keys: { type: [String], default: [] },
		/** `source|source_id` of the same solicitation seen in other feeds. */
		aliases: { type: [String], default: [] },
		created_at: { type: Date, required: true },
		updated_at: { type: Date, required: true },
		/** Durable request to match this notice against every company (consumer: matching). */
		match: { type: new Schema(workRequestSchema, { _id: false }), default: null },
	},
	{ versionKey: false, minimize: false },
);
NoticeSchema.index({ source: 1, source_id: 1 }, { unique: true });
NoticeSchema.index({ "match.pending": 1, "match.requested_at": 1 });
NoticeSchema.index({ dedupe_keys: 1 });

/** The last ingestion run of each source (dashboard). */
const IngestionRunSchema = new Schema(
	{
		_id: { type: String, required: true }, // the source
		last_run_at: { type: Date, required: true },
		last_outcome: { type: String, required: true, enum: ["succeeded", "failed"] },
		last_success_at: { type: Date, default: null },
		last_summary: { type: Schema.Types.Mixed, default: null },
	},
	{ versionKey: false },
);

const FeedbackSchema = new Schema(
	{
		_id: id,
		tenant_id: { type: String, required: true },
		opportunity_id: { type: String, required: true },
		notice_id: { type: String, required: true },
		user_id: { type: String, default: null },
		verdict: { type: String, required: true },
		reason: { type: String, default: null },
		created_at: { type: Date, required: true },
		/** Orders verdicts on one opportunity (newVersion(), increasing across processes); absent on older records. */
		seq: { type: String, default: null },
		superseded_at: { type: Date, default: null },
		/** Durable request for learned rules to take this verdict into account (consumer: matching). */
		learn: { type: new Schema(workRequestSchema, { _id: false }), default: null },
	},
	{ versionKey: false },
);
FeedbackSchema.index({ tenant_id: 1, opportunity_id: 1, created_at: -1 });
FeedbackSchema.index({ "learn.pending": 1, "learn.requested_at": 1 });

export type OpportunityDoc = InferSchemaType<typeof OpportunitySchema> & { _id: string };
export type FeedbackDoc = InferSchemaType<typeof FeedbackSchema> & { _id: string };
export type NoticeDoc = InferSchemaType<typeof NoticeSchema> & { _id: string };
export type IngestionRunDoc = InferSchemaType<typeof IngestionRunSchema> & { _id: string };

export interface OpportunityModels {
	opportunities: Model<OpportunityDoc>;
	feedback: Model<FeedbackDoc>;
	notices: Model<NoticeDoc>;
	ingestionRuns: Model<IngestionRunDoc>;
}

export function opportunityModels(conn: Connection): OpportunityModels {
	return {
		opportunities: conn.model("Opportunity", OpportunitySchema, "opportunities"),
		feedback: conn.model("Feedback", FeedbackSchema, "feedback"),
		notices: conn.model("Notice", NoticeSchema, "notices"),
		ingestionRuns: conn.model("IngestionRun", IngestionRunSchema, "ingestion_runs"),
	};
}
