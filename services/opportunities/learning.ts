import type { FeedbackForLearning, FeedbackForLearningQuery } from "../../shared/contract/internal/opportunities-actions.ts";
import { iso } from "../../shared/contract/common.ts";
import { notFound } from "../../shared/errors.ts";
import type { FeedbackDoc, NoticeDoc, OpportunityDoc, OpportunityModels } from "./models.ts";
import { settleVerdicts } from "./pipeline.ts";

// What matching's learned rules read of one feedback verdict (internal, never routed): the
// verdict, whether a later one superseded it, and the features of its notice (issuing body,
// category codes, title, and the bid eligibility and nature matching extracted from it).
// Read after the verdicts of its opportunity are settled (pipeline.ts settleVerdicts).

export async function feedbackForLearning(m: OpportunityModels, q: FeedbackForLearningQuery): Promise<FeedbackForLearning> {
	let f = await m.feedback.findOne({ _id: q.feedbackId, tenant_id: q.tenantId }).lean<FeedbackDoc>();
	if (!f) throw notFound("Feedback");
	// Settled first, so `superseded_at` is final before learning reads it: a verdict whose request
	// stopped between its insert and settling, or older verdicts that such a request left open.
	let opp: Pick<OpportunityDoc, "signals" | "feedback_id"> | null;
	if (f.superseded_at === null) {
		opp = await settleVerdicts(m, q.tenantId, f.opportunity_id);
		if (opp && opp.feedback_id !== f._id) f = (await m.feedback.findOne({ _id: q.feedbackId, tenant_id: q.tenantId }).lean<FeedbackDoc>())!;
	} else {
		opp = await m.opportunities.findOne({ _id: f.opportunity_id, tenant_id: q.tenantId }, { signals: 1 }).lean();
	}
	const n = await m.notices
		.findById(f.notice_id, { title: 1, issuing_body: 1, categories: 1 })
		.lean<Pick<NoticeDoc, "title" | "issuing_body" | "categories">>();
	const signals = (opp?.signals ?? null) as { bid_eligibility?: string; procurement_nature?: string } | null;
	return {
		feedback: {
			id: f._id,
			opportunity_id: f.opportunity_id,
			notice_id: f.notice_id,
			verdict: f.verdict,
			reason: f.reason ?? null,
			created_at: iso(f.created_at),
			superseded_at: iso(f.superseded_at),
		},
		notice: n
			? {
					title: n.title,
					issuing_body: n.issuing_body,
					categories: (n.categories ?? []).filter((c) => c.code).map((c) => ({ scheme: c.scheme ?? "", code: c.code! })),
					bid_eligibility: signals?.bid_eligibility ?? null,
					procurement_nature: signals?.procurement_nature ?? null,
				}
			: null,
	};
}
