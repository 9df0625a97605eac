import type { MatchResult } from "../../shared/contract/internal/opportunities-actions.ts";
import { notFound } from "../../shared/errors.ts";
import type { NoticeDoc, OpportunityModels } from "./models.ts";
import { deadlineFields, discoveredFields, scoreFields } from "./records.ts";

// Writing matching's results: one opportunity per (company, notice), upserted. Re-matching
// replaces the score and rationale but never the company's own state (status, archive,
// notification), and a replayed result (same match version) leaves the same state.

/** Lower-cased text that `q` searches: title, issuing body, reference number, description and item lines. */
export function searchText(
	n: Pick<NoticeDoc, "title" | "issuing_body" | "reference_number" | "rfp_id" | "description" | "details">,
): string {
	const items = ((n.details as { items?: Array<{ description?: string }> } | null)?.items ?? []).map((i) => i.description ?? "");
	return [n.title, n.issuing_body, n.reference_number, n.rfp_id, (n.description ?? "").slice(0, 4000), items.join("\n").slice(0, 4000)]
		.join("\n")
		.toLowerCase();
}

/** The notice fields each of its opportunities carries (refreshed when the notice changes). */
export function noticeCopy(n: NoticeDoc): Record<string, unknown> {
	return {
		rfp_id: n.rfp_id,
		reference_number: n.reference_number,
		title: n.title,
		issuing_body: n.issuing_body,
		source: n.source,
		source_url: n.source_url ?? null,
		categories: (n.categories ?? []).map((c) => c.code).filter(Boolean),
		deadline: n.deadline ?? null,
		estimated_value: n.estimated_value ?? null,
		currency: n.currency ?? null,
		source_status: n.source_status,
		search_text: searchText(n),
		...deadlineFields(n.deadline ?? null),
	};
}

/** Notice fields noticeCopy never reads, and the largest: recordMatch leaves them in the store. */
const NOT_COPIED = { normalized: 0, dedupe_keys: 0, aliases: 0, match: 0 } as const;

export async function recordMatch(m: OpportunityModels, r: MatchResult): Promise<{ id: string; created: boolean }> {
	const notice = await m.notices.findById(r.noticeId, NOT_COPIED).lean<NoticeDoc>();
	if (!notice) throw notFound("Notice");
	const now = new Date();
	const { tenantId, noticeId, matchVersion, ...result } = r;
	const set = {
		...noticeCopy(notice),
		...result,
		match_version: matchVersion,
		updated_at: now,
		...scoreFields(r.score),
	};
	const existing = await m.opportunities.findOne({ tenant_id: tenantId, notice_id: noticeId }, { _id: 1, match_version: 1 }).lean();
	if (existing) {
		// Versions (newVersion) compare in the order they were made, whichever process made them.
		await m.opportunities.updateOne(
			{ _id: existing._id, $or: [{ match_version: null }, { match_version: { $lte: matchVersion } }] },
			{ $set: set },
		);
		return { id: existing._id, created: false };
	}
	try {
		const doc = await m.opportunities.create({
			tenant_id: tenantId,
			notice_id: noticeId,
			status: notice.source_status === "open" ? "new" : "expired",
			...set,
			...discoveredFields(now),
		});
		return { id: doc._id, created: true };
	} catch (e) {
		if ((e as { code?: number }).code === 11000) return recordMatch(m, r); // raced with another writer: update instead
		throw e;
	}
}

/** After a notice changed: every company's copy of its fields follows, marked as amended unless the change is only a new reading. */
export async function refreshCopies(m: OpportunityModels, notice: NoticeDoc, at = new Date(), amended = true): Promise<number> {
	const r = await m.opportunities.updateMany(
		{ notice_id: notice._id },
		{ $set: { ...noticeCopy(notice), ...(amended ? { amended_at: at } : {}), updated_at: at } },
	);
	return r.modifiedCount;
}
