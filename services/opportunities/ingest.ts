import type { IngestOutcome } from "../../shared/contract/internal/opportunities-actions.ts";
import { newRequest, requestWork } from "../../shared/outbox.ts";
import type { NormalizedNotice } from "./feeds/notice.ts";
import { mergeVersion, type StoredNotice } from "./feeds/versions.ts";
import { refreshCopies } from "./matches.ts";
import type { NoticeDoc, OpportunityModels } from "./models.ts";

// Ingestion: each parsed version is merged onto what is stored (feeds/versions.ts decides
// created / updated / unchanged / stale), written with a compare-and-set on the content hash
// (no lost update when two runs race), and every new or changed notice carries its matching
// request in the same write. The same solicitation arriving from another feed is recognised
// by its dedupe keys and kept as one notice; a cancellation or award from either feed closes it.

/** The stored notice's own fields, from the merged (normalized) notice (exported for scripts that measure the stored path). */
export function storedFields(n: StoredNotice, now: Date) {
	return {
		source: n.source,
		source_id: n.source_id,
		rfp_id: n.rfp_id,
		reference_number: n.reference_number ?? n.rfp_id,
		title: n.title,
		issuing_body: n.issuing_body || "Unknown buyer",
		description: n.description,
		categories: n.categories,
		deadline: n.deadline ? new Date(n.deadline) : null,
		estimated_value: n.estimated_value,
		currency: n.currency,
		source_status: n.status,
		source_url: n.source_url,
		published_at: n.published_at ? new Date(n.published_at) : null,
		content_hash: n.content_hash,
		details: {
			items: n.items,
			// Absent when the source declares none (ask reads them: the lots, how the winner is chosen).
			...(n.lots ? { lots: n.lots } : {}),
			...(n.award_criteria ? { award_criteria: n.award_criteria } : {}),
			// Absent when the source states none (ask reads them: when the contract starts, ends, how long it runs).
			...(n.contract_period ? { contract_period: n.contract_period } : {}),
			...(n.milestones ? { milestones: n.milestones } : {}),
			...(n.extensions ? { extensions: n.extensions } : {}),
			contacts: n.contacts,
			documents: n.documents,
			set_aside: n.set_aside,
			eligibility: n.eligibility,
			place_of_performance: n.place_of_performance,
			notice_type: n.notice_type,
			procurement_category: n.procurement_category,
			procedure: n.procedure,
			deadline_local: n.deadline_local ?? null,
			enquiry_deadline: n.enquiry_deadline ?? null,
			enquiry_deadline_local: n.enquiry_deadline_local ?? null,
			submission: n.submission ?? null,
			// The language the notice declares (ask reads its text in it); null when it declares none.
			language: n.language ?? null,
			minimum_value: n.minimum_value ?? null,
			// What the source says its latest version changed (an OCDS amendment's rationale): notice text for ask.
			source_note: n.version.note,
			description_url: n.description_url,
			versions: n.history,
		},
		normalized: n,
		dedupe_keys: n.dedupe_keys,
		updated_at: now,
	};
}

const CLOSING = new Set(["cancelled", "awarded"]);

/** The same solicitation seen in another feed: kept once; a closing status still applies. */
async function asDuplicate(m: OpportunityModels, other: NoticeDoc, n: NormalizedNotice): Promise<IngestOutcome> {
	const alias = `${n.source}|${n.source_id}`;
	const closes = CLOSING.has(n.status) && other.source_status === "open";
	const now = new Date();
	await m.notices.updateOne(
		{ _id: other._id },
		{ $addToSet: { aliases: alias }, ...(closes ? { $set: { source_status: n.status, updated_at: now, ...requestWork("match") } } : {}) },
	);
	if (closes) await refreshCopies(m, (await m.notices.findById(other._id).lean<NoticeDoc>())!, now);
	return {
		action: closes ? "updated" : "duplicate",
		noticeId: other._id,
		reason: `same solicitation as ${other.source} ${other.source_id}`,
		...(closes ? { changed: ["status"] } : {}),
	};
}

export async function ingestNotice(
	m: OpportunityModels,
	n: NormalizedNotice,
	attempt = 0,
): Promise<IngestOutcome & { notice?: NoticeDoc }> {
	const stored = await m.notices.findOne({ source: n.source, source_id: n.source_id }).lean<NoticeDoc>();
	if (!stored && n.dedupe_keys.length) {
		const other = await m.notices.findOne({ dedupe_keys: { $in: n.dedupe_keys }, source: { $ne: n.source } }).lean<NoticeDoc>();
		if (other) return asDuplicate(m, other, n);
	}
	const merged = mergeVersion((stored?.normalized as StoredNotice | null) ?? null, n);
	if (merged.action === "unchanged" || merged.action === "stale")
		return { action: merged.action, noticeId: stored?._id, reason: merged.reason };

	const now = new Date();
	const fields = storedFields(merged.notice, now);
	if (!stored) {
		try {
			const doc = await m.notices.create({ ...fields, created_at: now, match: newRequest() });
			return { action: "created", noticeId: doc._id, notice: doc.toObject() as NoticeDoc };
		} catch (e) {
			if ((e as { code?: number }).code === 11000 && attempt < 3) return ingestNotice(m, n, attempt + 1);
			throw e;
		}
	}
	const cas = await m.notices.updateOne(
		{ _id: stored._id, content_hash: stored.content_hash },
		{ $set: { ...fields, ...requestWork("match") } },
	);
	if (cas.matchedCount === 0) {
		if (attempt < 3) return ingestNotice(m, n, attempt + 1); // another run changed it meanwhile: merge onto that
		throw new Error(`notice ${stored._id} keeps changing under ingestion`);
	}
	const notice = (await m.notices.findById(stored._id).lean<NoticeDoc>())!;
	// A new reading of the same version is no amendment: the copies change, the digest's "updated" does not.
	const amended = merged.action === "updated";
	await refreshCopies(m, notice, now, amended);
	if (!amended) return { action: merged.action, noticeId: stored._id, reason: merged.reason, notice };
	return { action: "updated", noticeId: stored._id, changed: merged.change?.fields, reason: merged.change?.summary, notice };
}

export async function recordRun(m: OpportunityModels, source: string, outcome: "succeeded" | "failed", summary: unknown): Promise<void> {
	const now = new Date();
	await m.ingestionRuns.updateOne(
		{ _id: source },
		{
			$set: {
				last_run_at: now,
				last_outcome: outcome,
				last_summary: summary,
				...(outcome === "succeeded" ? { last_success_at: now } : {}),
			},
		},
		{ upsert: true },
	);
}

export async function lastIngestion(m: OpportunityModels) {
	const runs = await m.ingestionRuns.find({}).sort({ _id: 1 }).lean();
	return runs.map((r) => ({
		source: r._id,
		last_run_at: r.last_run_at.toISOString(),
		last_outcome: r.last_outcome as "succeeded" | "failed",
		last_success_at: r.last_success_at ? r.last_success_at.toISOString() : null,
	}));
}
