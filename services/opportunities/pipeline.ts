import { notFound } from "../../shared/errors.ts";
import type { Feedback, FeedbackBody, OpportunitySummary } from "../../shared/contract/opportunities.ts";
import { iso } from "../../shared/contract/common.ts";
import { newRequest, newVersion } from "../../shared/outbox.ts";
import type { FeedbackDoc, OpportunityDoc, OpportunityModels } from "./models.ts";
import { SUMMARY_FIELDS, toSummary } from "./records.ts";

// The company's own actions on an opportunity: archive, unarchive, feedback.

/** The stored fields a reader of one opportunity needs: never `search_text`, which only `q` reads. */
export const DETAIL_FIELDS = { search_text: 0 } as const;

export async function findOwned(
	m: OpportunityModels,
	tenantId: string,
	id: string,
	fields: Record<string, 0 | 1> = DETAIL_FIELDS,
): Promise<OpportunityDoc> {
	const d = await m.opportunities.findOne({ _id: id, tenant_id: tenantId }, fields).lean<OpportunityDoc>();
	if (!d) throw notFound("Opportunity");
	return d;
}

/**
 * Idempotent: an archived opportunity keeps its first archive time. One statement when the
 * state changes (the update answers the document); when it was already so, one read.
 */
export async function setArchived(m: OpportunityModels, tenantId: string, id: string, archived: boolean): Promise<OpportunitySummary> {
	const now = new Date();
	const moved = await m.opportunities
		.findOneAndUpdate(
			{ _id: id, tenant_id: tenantId, archived_at: archived ? null : { $ne: null } },
			{ $set: { archived_at: archived ? now : null, updated_at: now } },
			{ new: true, projection: SUMMARY_FIELDS },
		)
		.lean<OpportunityDoc>();
	return toSummary(moved ?? (await findOwned(m, tenantId, id, SUMMARY_FIELDS)));
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
 *
 * The new verdict is the newest one this request knows of, so it settles without reading the
 * others. The opportunity's pointer moves to it unless a newer verdict is already current
 * (compare-and-set on `feedback_seq`, answering the pointer it replaced); then the verdict it
 * replaced is superseded, or this one when it lost. Every verdict whose move succeeded is thus
 * superseded by the next one that moves, and every one that lost supersedes itself: concurrent
 * verdicts end with exactly one open verdict, the current one. Four statements. What a request
 * that stopped midway leaves open is settled by settleVerdicts (its learning job, learning.ts).
 */
export async function recordFeedback(
	m: OpportunityModels,
	tenantId: string,
	userId: string,
	id: string,
	body: FeedbackBody,
): Promise<{ feedback: FeedbackDoc; status: string }> {
	const opp = await findOwned(m, tenantId, id, { notice_id: 1 });
	const seq = newVersion();
	const fb = (
		await m.feedback.create({
			tenant_id: tenantId,
			opportunity_id: opp._id,
			notice_id: opp.notice_id,
			user_id: userId,
			verdict: body.verdict,
			reason: body.reason ?? null,
			created_at: new Date(),
			seq,
			learn: newRequest(),
		})
	).toObject() as FeedbackDoc;
	const status = STATUS_AFTER[body.verdict];
	const replaced = await m.opportunities
		.findOneAndUpdate(
			{ _id: opp._id, tenant_id: tenantId, $or: [{ feedback_seq: null }, { feedback_seq: { $lt: seq } }] },
			{ $set: { feedback_id: fb._id, feedback_seq: seq, status, updated_at: new Date() } },
			{ new: false, projection: VERDICT_FIELDS },
		)
		.lean<OpportunityDoc>();
	const now = new Date();
	if (replaced) {
		if (replaced.feedback_id) await supersede(m, [replaced.feedback_id], now);
		return { feedback: fb, status };
	}
	// A newer verdict is current: this one is superseded, and answers that verdict's status.
	const [current] = await Promise.all([
		m.opportunities.findOne({ _id: opp._id, tenant_id: tenantId }, VERDICT_FIELDS).lean<OpportunityDoc>(),
		supersede(m, [fb._id], now),
	]);
	if (!current) throw notFound("Opportunity");
	return { feedback: { ...fb, superseded_at: now }, status: current.status };
}

/** Supersedes open verdicts by id: the stand-in store (deploy/ferretdb) then locks only those documents. */
async function supersede(m: OpportunityModels, ids: string[], at = new Date()): Promise<void> {
	await m.feedback.updateMany({ _id: { $in: ids }, superseded_at: null }, { $set: { superseded_at: at } });
}

/** What settling reads of an opportunity: its current verdict and status. */
const VERDICT_FIELDS = { feedback_id: 1, feedback_seq: 1, status: 1 } as const;

/** What settleVerdicts answers: the current verdict, the status, and the signals learning reads. */
const SETTLE_FIELDS = { ...VERDICT_FIELDS, signals: 1 } as const;

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
 * verdict, or its own learning job, learning.ts). Answers the opportunity's SETTLE_FIELDS, or null if it is gone.
 */
export async function settleVerdicts(m: OpportunityModels, tenantId: string, opportunityId: string): Promise<OpportunityDoc | null> {
	for (let attempt = 0; attempt < SETTLE_TRIES; attempt++) {
		const opp = await m.opportunities.findOne({ _id: opportunityId, tenant_id: tenantId }, SETTLE_FIELDS).lean<OpportunityDoc>();
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
					{ new: true, projection: SETTLE_FIELDS },
				)
				.lean<OpportunityDoc>();
			if (!moved) continue; // another request moved it meanwhile: read again
			current = moved;
		}
		const currentSeq = current.feedback_seq ?? "";
		const older = open.filter((f) => f._id !== current.feedback_id && seqOf(f) < currentSeq);
		if (older.length)
			await supersede(
				m,
				older.map((f) => f._id),
			);
		return current;
	}
	throw new Error(`the current verdict of opportunity ${opportunityId} kept moving; gave up after ${SETTLE_TRIES} tries`);
}
