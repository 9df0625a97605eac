import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";
import { workRequestSchema } from "../../../shared/outbox.ts";

// Learned rules and the evidence they rest on, in matching's own database.
//
// Evidence is one document per feedback verdict (its id is the feedback's), listing the
// features of the verdict's notice. Counts are always recounted from these documents, never
// incremented, so replaying a feedback job rewrites the same document and recounts the same
// numbers.

const EvidenceSchema = new Schema(
	{
		_id: { type: String, required: true }, // the feedback id
		tenant_id: { type: String, required: true },
		opportunity_id: { type: String, required: true },
		notice_id: { type: String, required: true },
		verdict: { type: String, required: true },
		/** negative (not_relevant, not_eligible, wrong_product) or positive (relevant): a positive verdict counts against a rule. */
		polarity: { type: String, required: true, enum: ["negative", "positive"] },
		/** featureId()s of the notice: "issuing_body|ministry of health", "category_code|UNSPSC:4322*", ... */
		features: { type: [String], default: [] },
		updated_at: { type: Date, required: true },
	},
	{ versionKey: false },
);
EvidenceSchema.index({ tenant_id: 1, features: 1 });
EvidenceSchema.index({ tenant_id: 1, opportunity_id: 1 });

const RuleSchema = new Schema(
	{
		_id: { type: String, required: true }, // a UUID
		tenant_id: { type: String, required: true },
		rule_type: { type: String, required: true },
		/** The normalized feature value (features.ts); unique per company and type. */
		key: { type: String, required: true },
		/** The value as a person reads it. */
		label: { type: String, required: true },
		description: { type: String, required: true },
		/** Net evidence: negative verdicts minus relevant ones on notices with the feature. */
		evidence_count: { type: Number, required: true },
		active: { type: Boolean, required: true },
		/** Who decided `active` last: learning follows the evidence; a person's choice is kept. */
		set_by: { type: String, required: true, enum: ["learning", "person"] },
		created_at: { type: Date, required: true },
		updated_at: { type: Date, required: true },
		/** Durable request to re-score the company's opportunities the rule concerns (written with every change of `active`). */
		rescore: { type: new Schema(workRequestSchema, { _id: false }), default: null },
	},
	{ versionKey: false },
);
RuleSchema.index({ tenant_id: 1, rule_type: 1, key: 1 }, { unique: true });
RuleSchema.index({ tenant_id: 1, created_at: -1, _id: -1 });
RuleSchema.index({ tenant_id: 1, active: 1 });
RuleSchema.index({ "rescore.pending": 1, "rescore.requested_at": 1 });

/**
 * One per company while its rules are being switched on: counting the active rules and then
 * switching one on is safe only when no other switch runs in between (rules/lock.ts).
 */
const RuleLockSchema = new Schema(
	{
		_id: { type: String, required: true }, // the tenant id
		holder: { type: String, default: null },
		/** Free once this has passed: a holder that died does not keep the company's rules locked. */
		until: { type: Date, required: true },
	},
	{ versionKey: false },
);

export type EvidenceDoc = InferSchemaType<typeof EvidenceSchema> & { _id: string };
export type RuleDoc = InferSchemaType<typeof RuleSchema> & { _id: string };

export type RuleLockDoc = InferSchemaType<typeof RuleLockSchema> & { _id: string };

export interface RuleModels {
	rules: Model<RuleDoc>;
	evidence: Model<EvidenceDoc>;
	ruleLocks: Model<RuleLockDoc>;
}

export function ruleModels(conn: Connection): RuleModels {
	return {
		rules: conn.model("LearnedRule", RuleSchema, "learned_rules"),
		evidence: conn.model("RuleEvidence", EvidenceSchema, "rule_evidence"),
		ruleLocks: conn.model("RuleLock", RuleLockSchema, "rule_locks"),
	};
}
