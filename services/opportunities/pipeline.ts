import { notFound } from "../../shared/errors.ts";
import type { Feedback, FeedbackBody, OpportunitySummary } from "../../shared/contract/opportunities.ts";
import { iso } from "../../shared/contract/common.ts";
import { newRequest, newVersion } from "../../shared/outbox.ts";
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
 * insert, so it cannot be lost between two writes. Concurrent verdicts are ordered by `seq`;
 * the answer says whether a newer one has already superseded this one.
 */
export async function recordFeedback(
	m: OpportunityModels,
	tenantId: string,
	userId: string,
	id: string,
	body: FeedbackBody,
): Promise<{ feedback: FeedbackDoc; status: string }> {
	const opp = await findOwned(m, tenantId, id);
	const fb = await m.feedback.create({
		tenant_id: tenantId,
		opportunity_id: opp._id,
		notice_id: opp.notice_id,
		user_id: userId,
		verdict: body.verdict,
		reason: body.reason ?? null,
		created_at: new Date(),
		seq: newVersion(),
		learn: newRequest(),
	});
	const settled = await settleVerdicts(m, tenantId, opp._id);
	if (!settled) throw notFound("Opportunity");
	const feedback = (await m.feedback.findById(fb._id).lean<FeedbackDoc>())!;
	return { feedback, status: settled.status };
}

/** Moves of the current verdict another request may win before this one gives up (each is a newer verdict). */
const SETTLE_TRIES = 50;

const seqOf = (f: Pick<FeedbackDoc, "seq">): string => f.seq ?? "";

/**
 * Makes the newest verdict on an opportunity (by `seq`) its current one: the opportunity points
 * at it and has its status, and every older verdict is superseded. The pointer moves only
 * forward, by a compare-and-set on the opportunity (one document: atomic on MongoDB), and a
 * verdict is superseded only once a newer one is current, so it can never become current again.
 * Concurrent verdicts therefore end with exactly one current verdict and the status it sets,
 * and a verdict whose request stopped after its insert is settled by the next call (another
 * verdict, or its own learning job, learning.ts). Answers the opportunity, or null if it is gone.
 */
export async function settleVerdicts(m: OpportunityModels, tenantId: string, opportunityId: string): Promise<OpportunityDoc | null> {
	for (let attempt = 0; attempt < SETTLE_TRIES; attempt++) {
		const opp = await m.opportunities.findOne({ _id: opportunityId, tenant_id: tenantId }).lean<OpportunityDoc>();
		if (!opp) return null;
		const open = await m.feedback
			.find({ tenant_id: tenantId, opportunity_id: opportunityId, superseded_at: null }, { seq: 1, verdict: 1 })
			.lean<FeedbackDoc[]>();
		const newest = open.reduce<FeedbackDoc | null>((a, f) => (!a || seqOf(f) > seqOf(a) ? f : a), null);
		let current = opp;
		if (newest && seqOf(newest) > (opp.feedback_seq ?? "")) {
			const status = STATUS_AFTER[newest.verdict as FeedbackBody["verdict"]];
			const moved = await m.opportunities
				.findOneAndUpdate(
					{ _id: opportunityId, tenant_id: tenantId, feedback_seq: opp.feedback_seq ?? null },
					{ $set: { feedback_id: newest._id, feedback_seq: newest.seq, status, updated_at: new Date() } },
					{ new: true },
				)
				.lean<OpportunityDoc>();
			if (!moved) continue; // another request moved it meanwhile: read again
			current = moved;
		}
		const currentSeq = current.feedback_seq ?? "";
		const older = open.filter((f) => f._id !== current.feedback_id && seqOf(f) < currentSeq);
		if (older.length)
			await m.feedback.updateMany({ _id: { $in: older.map((f) => f._id) }, superseded_at: null }, { $set: { superseded_at: new Date() } });
		return current;
	}
	throw new Error(`the current verdict of opportunity ${opportunityId} kept moving; gave up after ${SETTLE_TRIES} tries`);
}
