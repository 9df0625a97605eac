import { createHash } from "node:crypto";
import type { NoticeForMatching, NoticeForReading, NoticeInput } from "../../shared/contract/internal/opportunities-actions.ts";
import { newRequest, requestWork } from "../../shared/outbox.ts";
import type { NoticeDoc, OpportunityModels } from "./models.ts";
import { refreshCopies } from "./matches.ts";

// Storing notices. Every new or changed notice durably requests matching (the `match`
// request is written with the notice itself) and its opportunities' copies follow it.

export interface PutResult {
	notice: NoticeDoc;
	created: boolean;
	changed: boolean;
}

const contentHash = (n: NoticeInput) => createHash("sha256").update(JSON.stringify(n)).digest("hex");

export async function putNotice(m: OpportunityModels, n: NoticeInput): Promise<PutResult> {
	const now = new Date();
	const hash = contentHash(n);
	const fields = {
		...n,
		deadline: n.deadline ? new Date(n.deadline) : null,
		published_at: n.published_at ? new Date(n.published_at) : null,
		content_hash: hash,
		updated_at: now,
	};
	const existing = await m.notices.findOne({ source: n.source, source_id: n.source_id }).lean<NoticeDoc>();
	if (existing?.content_hash === hash) return { notice: existing, created: false, changed: false };
	if (existing) {
		await m.notices.updateOne({ _id: existing._id }, { $set: { ...fields, ...requestWork("match") } });
		const notice = (await m.notices.findById(existing._id).lean<NoticeDoc>())!;
		await refreshCopies(m, notice, now);
		return { notice, created: false, changed: true };
	}
	try {
		const doc = await m.notices.create({ ...fields, created_at: now, match: newRequest() });
		return { notice: doc.toObject() as NoticeDoc, created: true, changed: true };
	} catch (e) {
		if ((e as { code?: number }).code === 11000) return putNotice(m, n); // another writer created it first
		throw e;
	}
}

/** A notice as other services read it (ask, matching): its text and normalized details. */
export function noticeForReading(n: NoticeDoc): NoticeForReading {
	return {
		id: n._id,
		source: n.source,
		source_id: n.source_id,
		rfp_id: n.rfp_id,
		reference_number: n.reference_number,
		title: n.title,
		issuing_body: n.issuing_body,
		description: n.description ?? "",
		// Both writers (NoticeInput, the feeds' notice) store scheme and code; the model leaves them optional.
		categories: (n.categories ?? []) as NoticeForReading["categories"],
		deadline: n.deadline ? n.deadline.toISOString() : null,
		estimated_value: n.estimated_value ?? null,
		currency: n.currency ?? null,
		source_status: n.source_status,
		source_url: n.source_url ?? null,
		published_at: n.published_at ? n.published_at.toISOString() : null,
		details: (n.details ?? {}) as Record<string, unknown>,
	};
}

/** A notice as matching reads it: the text and codes it scores, and the request version to mark done. */
export function noticeForMatching(n: NoticeDoc): NoticeForMatching {
	const d = (n.details ?? {}) as Record<string, unknown>;
	return {
		...noticeForReading(n),
		version: n.match?.requested ?? null,
		items: (Array.isArray(d.items) ? d.items : []) as Array<{
			description: string;
			quantity?: number | null;
			unit?: string | null;
			classification?: { scheme: string; code: string } | null;
		}>,
		set_aside: (d.set_aside ?? null) as { code: string | null; text: string | null } | null,
		eligibility: typeof d.eligibility === "string" ? d.eligibility : null,
		// The feed's structured procedure and contract nature: the signals read them before the text.
		procedure: (d.procedure ?? null) as Record<string, string | null> | null,
		procurement_category: typeof d.procurement_category === "string" ? d.procurement_category : null,
	};
}
