import type { DigestCandidates, DigestItem, DigestQuery, MarkNotified } from "../../shared/contract/internal/opportunities-actions.ts";
import type { OpportunityDoc, OpportunityModels } from "./models.ts";

// What a company's digest carries, chosen here because this service owns the opportunities:
// new matches (never sent, at or above the company's minimum score, best first) and, per the
// amendment policy, opportunities already sent whose notice changed since. A cancelled notice
// leaves digests altogether.

const item = (d: OpportunityDoc): DigestItem => ({
	id: d._id,
	title: d.title,
	issuing_body: d.issuing_body,
	rfp_id: d.rfp_id,
	deadline: d.deadline ? d.deadline.toISOString() : null,
	score: d.score ?? null,
	source_status: d.source_status,
	reasons: ((d.rationale ?? []) as Array<{ points: number; detail: string; feature: string }>)
		.filter((r) => r.points > 0)
		.slice(0, 3)
		.map((r) => r.detail || r.feature),
	source_url: d.source_url ?? null,
});

export async function digestCandidates(m: OpportunityModels, q: DigestQuery): Promise<DigestCandidates> {
	const live = { tenant_id: q.tenantId, archived_at: null, supported: true };
	const fresh = await m.opportunities
		.find({ ...live, status: "new", source_status: "open", score: { $gte: q.minScore } })
		.sort({ score_desc: 1, _id: 1 })
		.limit(q.maxItems)
		.lean<OpportunityDoc[]>();
	let updated: OpportunityDoc[] = [];
	if (q.amendmentPolicy !== "none") {
		const amended = await m.opportunities
			.find({
				...live,
				status: { $in: ["notified", "interested"] },
				source_status: { $ne: "cancelled" },
				amended_at: { $ne: null },
				...(q.amendmentPolicy === "positive_only" ? { score: { $gte: q.minScore } } : {}),
			})
			.sort({ amended_at: -1, _id: 1 })
			.limit(100)
			.lean<OpportunityDoc[]>();
		// Only changes made after it was last sent (FerretDB has no $expr to compare two fields).
		updated = amended.filter((d) => d.amended_at && (!d.notified_at || d.amended_at > d.notified_at)).slice(0, q.maxItems);
	}
	return { items: fresh.map(item), updated: updated.map(item) };
}

/** After a digest went out: new ones become notified; amendments count as told. Idempotent. */
export async function markNotified(m: OpportunityModels, p: MarkNotified): Promise<void> {
	const at = new Date(p.at);
	if (p.newIds.length)
		await m.opportunities.updateMany(
			{ tenant_id: p.tenantId, _id: { $in: p.newIds }, status: "new" },
			{ $set: { status: "notified", notified_at: at } },
		);
	const told = [...p.newIds, ...p.updatedIds];
	if (told.length)
		await m.opportunities.updateMany(
			{ tenant_id: p.tenantId, _id: { $in: told }, $or: [{ notified_at: null }, { notified_at: { $lt: at } }] },
			{ $set: { notified_at: at } },
		);
}
