import { ApiError, notFound } from "../../shared/errors.ts";
import type { Feedback, FeedbackBody, OpportunitySummary } from "../../shared/contract/opportunities.ts";
import { iso } from "../../shared/contract/common.ts";
import { newRequest } from "../../shared/outbox.ts";
import type { FeedbackDoc, OpportunityDoc, OpportunityModels } from "./models.ts";
import { toSummary } from "./records.ts";

// The company's own actions on an opportunity: archive, unarchive, feedback.

export async function findOwned(m: OpportunityModels, tenantId: string, id: string): Promise<OpportunityDoc> {
	const d = await m.opportunities.findOne({ _id: id, tenant_id: tenantId }).lean<OpportunityDoc>();
	if (!d) throw notFound("Opportunity");
	return d;
}

/** Idempotent: an archived opportunity keeps its first archive time. */
export async function setArchived(m: OpportunityModels, tenantId: string, id: string, archived: boolean): Promise<OpportunitySummary> {
	const now = new Date();
	await m.opportunities.updateOne(
		{ _id: id, tenant_id: tenantId, archived_at: archived ? null : { $ne: null } },
		{ $set: { archived_at: archived ? now : null, updated_at: now } },
	);
	return toSummary(await findOwned(m, tenantId, id));
}

const STATUS_AFTER: Record<FeedbackBody["verdict"], "interested" | "dismissed"> = {
	relevant: "interested",
	not_relevant: "dismissed",
	not_eligible: "dismissed",
	wrong_product: "dismissed",
};

export function toFeedback(f: FeedbackDoc, opportunityStatus: string): Feedback {
	return {
		id: f._id,
		opportunity_id: f.opportunity_id,
		verdict: f.verdict as Feedback["verdict"],
		reason: f.reason ?? null,
		created_at: iso(f.created_at)!,
		superseded_at: iso(f.superseded_at),
		opportunity_status: opportunityStatus as Feedback["opportunity_status"],
	};
}

/**
 * Records a verdict (kept as history; it supersedes earlier ones), moves the status, and
 * durably requests that learned rules consider it: the request is part of the feedback's own
 * insert, so it cannot be lost between two writes.
 */
export async function recordFeedback(m: OpportunityModels, tenantId: string, userId: string, id: string, body: FeedbackBody): Promise<{ feedback: FeedbackDoc; status: string }> {
	const opp = await findOwned(m, tenantId, id);
	const now = new Date();
	const fb = await m.feedback.create({
		tenant_id: tenantId,
		opportunity_id: opp._id,
		notice_id: opp.notice_id,
		user_id: userId,
		verdict: body.verdict,
		reason: body.reason ?? null,
		created_at: now,
		learn: newRequest(),
	});
	await m.feedback.updateMany({ tenant_id: tenantId, opportunity_id: opp._id, _id: { $ne: fb._id }, superseded_at: null, created_at: { $lte: now } }, { $set: { superseded_at: now } });
	const status = STATUS_AFTER[body.verdict];
	const updated = await m.opportunities.updateOne({ _id: opp._id, tenant_id: tenantId }, { $set: { status, updated_at: now } });
	if (updated.matchedCount === 0) throw new ApiError("not_found", "Opportunity not found");
	return { feedback: fb.toObject() as FeedbackDoc, status };
}
