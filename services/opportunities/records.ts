import { iso } from "../../shared/contract/common.ts";
import type { OpportunityDetail, OpportunitySummary, RationaleItem, Signals } from "../../shared/contract/opportunities.ts";
import type { OpportunityDoc } from "./models.ts";

// Stored opportunities as the contract shows them, and the derived fields a write keeps in step.

/** The stored fields toSummary reads: lists and archive answers fetch only these. */
export const SUMMARY_FIELDS = {
	rfp_id: 1,
	title: 1,
	issuing_body: 1,
	source: 1,
	status: 1,
	discovered_at: 1,
	source_status: 1,
	deadline: 1,
	estimated_value: 1,
	currency: 1,
	score: 1,
	score_source: 1,
	archived_at: 1,
	product_match_name: 1,
} as const;

export function toSummary(d: OpportunityDoc): OpportunitySummary {
	return {
		id: d._id,
		rfp_id: d.rfp_id,
		title: d.title,
		issuing_body: d.issuing_body,
		source: d.source,
		status: d.status as OpportunitySummary["status"],
		discovered_at: iso(d.discovered_at)!,
		source_status: d.source_status as OpportunitySummary["source_status"],
		deadline: iso(d.deadline),
		estimated_value: d.estimated_value ?? null,
		currency: d.currency ?? null,
		score: d.score ?? null,
		score_source: d.score_source as OpportunitySummary["score_source"],
		archived_at: iso(d.archived_at),
		product_match_name: d.product_match_name ?? null,
	};
}

export function toDetail(d: OpportunityDoc): OpportunityDetail {
	const detail: OpportunityDetail = {
		...toSummary(d),
		eligible: d.eligible ?? true,
		product_match: (d.product_match as Record<string, unknown>) ?? {},
		categories: d.categories ?? [],
		reference_number: d.reference_number,
		signals: (d.signals as Signals | null) ?? null,
		source_url: d.source_url ?? null,
		rationale: (d.rationale as RationaleItem[]) ?? [],
	};
	if (d.signal_source) detail.signal_source = d.signal_source as OpportunityDetail["signal_source"];
	if (d.extraction_signal_source)
		detail.extraction_signal_source = d.extraction_signal_source as OpportunityDetail["extraction_signal_source"];
	return detail;
}

export const SCORE_BANDS = ["high", "medium", "low", "very_low", "unscored"] as const;
export type ScoreBand = (typeof SCORE_BANDS)[number];

export function scoreBand(score: number | null | undefined): ScoreBand {
	if (score === null || score === undefined) return "unscored";
	if (score >= 80) return "high";
	if (score >= 60) return "medium";
	if (score >= 40) return "low";
	return "very_low";
}

// Beyond any real score (0..100) or deadline (epoch ms), so missing values sort last.
const FAR = 8.64e15;

/** Fields derived from the score: its band and sort keys. */
export function scoreFields(score: number | null): Record<string, unknown> {
	return { score_band: scoreBand(score), score_asc: score ?? FAR, score_desc: score === null ? FAR : -score };
}

/** Sort keys derived from the deadline. */
export function deadlineFields(deadline: Date | null): Record<string, unknown> {
	const ms = deadline ? deadline.getTime() : null;
	return { deadline_asc: ms ?? FAR, deadline_desc: ms === null ? FAR : -ms };
}

export function discoveredFields(at: Date): Record<string, unknown> {
	return { discovered_at: at, discovered_asc: at.getTime(), discovered_desc: -at.getTime() };
}
