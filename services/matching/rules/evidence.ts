import type { FeedbackForLearning } from "../../../shared/contract/internal/opportunities-actions.ts";
import { featureId, noticeFeatures, type Feature } from "./features.ts";
import type { EvidenceDoc, RuleModels } from "./models.ts";

// One feedback verdict as evidence. Only the current verdict on an opportunity counts: a verdict
// that a later one superseded has its evidence removed, whichever of their jobs runs first. The
// document is keyed by the feedback id, so a replayed job rewrites the same document.

export const isNegative = (verdict: string): boolean =>
	verdict === "not_relevant" || verdict === "not_eligible" || verdict === "wrong_product";

export interface EvidenceChange {
	/** Feature ids whose evidence may have changed (before or after). */
	affected: Set<string>;
	/** The features of this verdict's notice, for the labels of new rules. */
	features: Map<string, Feature>;
}

export async function recordEvidence(m: RuleModels, tenantId: string, input: FeedbackForLearning): Promise<EvidenceChange> {
	const f = input.feedback;
	const before = await m.evidence.find({ tenant_id: tenantId, opportunity_id: f.opportunity_id }).lean<EvidenceDoc[]>();
	const affected = new Set(before.flatMap((d) => d.features));
	const features = new Map<string, Feature>();
	const current = f.superseded_at === null && input.notice !== null;
	if (!current) {
		await m.evidence.deleteOne({ _id: f.id, tenant_id: tenantId });
		return { affected, features };
	}
	for (const feature of noticeFeatures(input.notice!)) features.set(featureId(feature), feature);
	const doc = {
		tenant_id: tenantId,
		opportunity_id: f.opportunity_id,
		notice_id: f.notice_id,
		verdict: f.verdict,
		polarity: isNegative(f.verdict) ? "negative" : "positive",
		features: [...features.keys()],
	};
	const same = before.find((d) => d._id === f.id);
	const unchanged =
		same && same.verdict === doc.verdict && same.polarity === doc.polarity && same.features.join("\n") === doc.features.join("\n");
	if (!unchanged) await m.evidence.updateOne({ _id: f.id }, { $set: { ...doc, updated_at: new Date() } }, { upsert: true });
	// This verdict is the current one: earlier verdicts on the same opportunity no longer count.
	if (before.some((d) => d._id !== f.id))
		await m.evidence.deleteMany({ tenant_id: tenantId, opportunity_id: f.opportunity_id, _id: { $ne: f.id } });
	for (const id of features.keys()) affected.add(id);
	return { affected, features };
}
