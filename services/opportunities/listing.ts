import type { FilterQuery } from "mongoose";
import type { OpportunityList, OpportunityListQuery, OpportunitySort } from "../../shared/contract/opportunities.ts";
import { decodeCursor, encodeCursor, listingKey } from "../../shared/cursor.ts";
import { validationFailed } from "../../shared/errors.ts";
import { escapeRegex } from "../../shared/mongo.ts";
import type { OpportunityDoc, OpportunityModels } from "./models.ts";
import { SUMMARY_FIELDS, toSummary } from "./records.ts";

// GET /opportunities: filters, sort and keyset pagination. Every sort is ascending on a stored
// key with the id as tie-breaker, so a cursor (key, id) resumes exactly after the last item:
// no duplicates or gaps when opportunities are added between pages.

const SORT_KEY: Record<OpportunitySort, keyof OpportunityDoc> = {
	score: "score_asc",
	"-score": "score_desc",
	deadline: "deadline_asc",
	"-deadline": "deadline_desc",
	discovered_at: "discovered_asc",
	"-discovered_at": "discovered_desc",
};

export function listFilter(tenantId: string, q: OpportunityListQuery): FilterQuery<OpportunityDoc> {
	const f: FilterQuery<OpportunityDoc> = { tenant_id: tenantId, supported: true, archived_at: q.archived ? { $ne: null } : null };
	if (q.status?.length) f.status = { $in: q.status };
	if (q.source) f.source = q.source;
	if (q.q) f.search_text = { $regex: escapeRegex(q.q.toLowerCase()) };
	if (q.min_score !== undefined) f.score = { $gte: q.min_score };
	if (q.deadline_before || q.deadline_after) {
		f.deadline = { $ne: null };
		if (q.deadline_before) f.deadline.$lt = new Date(q.deadline_before);
		if (q.deadline_after) f.deadline.$gt = new Date(q.deadline_after);
	}
	return f;
}

export async function listOpportunities(m: OpportunityModels, tenantId: string, q: OpportunityListQuery): Promise<OpportunityList> {
	const key = SORT_KEY[q.sort] as string;
	const filter = listFilter(tenantId, q);
	const listing = listingKey(tenantId, q.sort);
	if (q.cursor) {
		const c = decodeCursor(q.cursor, listing);
		if (typeof c.k !== "number") throw validationFailed([{ path: "cursor", code: "invalid_cursor", message: "Invalid cursor" }]);
		filter.$or = [{ [key]: { $gt: c.k } }, { [key]: c.k, _id: { $gt: c.id } }];
	}
	const docs = await m.opportunities
		.find(filter, { ...SUMMARY_FIELDS, [key]: 1 })
		.sort({ [key]: 1, _id: 1 })
		.limit(q.limit + 1)
		.lean<OpportunityDoc[]>();
	const page = docs.slice(0, q.limit);
	const last = page[page.length - 1];
	return {
		items: page.map(toSummary),
		nextCursor:
			docs.length > q.limit && last ? encodeCursor({ k: last[key as keyof OpportunityDoc] as number, id: last._id, s: listing }) : null,
	};
}
