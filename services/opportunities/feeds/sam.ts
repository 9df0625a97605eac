import type { NoticeDraft } from "./assemble.ts";
import { asArray, Collector, isRecord, line, placeOrNull, refused } from "./assemble.ts";
import { categoryOfPsc, normalizeCategory, normalizeSetAside } from "./codes.ts";
import type { DateRules } from "./dates.ts";
import { parseInstant, parseLocal } from "./dates.ts";
import type { Contact, NoticeDocument, NoticeStatus, ParseResult, Place, Procedure } from "./notice.ts";
import { LIMITS } from "./notice.ts";
import { kindOfCode, procedureOf, SAM_TYPES } from "./procedure.ts";
import { cleanEmail, cleanText, safeUrl } from "./text.ts";

// SAM.gov Get Opportunities API v2 search responses: `{ totalRecords, limit, offset,
// opportunitiesData: [...] }` (field names per open.gsa.gov/api/get-opportunities-public-api).
//
// Identity: each SAM version of an opportunity (presolicitation, solicitation, amendments, award
// notice) has its own noticeId, and the search API only returns the latest active one; what stays
// the same is the solicitation number. So source_id is the solicitation number (trimmed, spaces
// removed, upper-cased), or "notice:<noticeId>" when there is none. The version label is the
// noticeId; versions order by postedDate, then the notice type's place in the procurement
// (presolicitation/sources sought, solicitation, award), then noticeId.
//
// Dates: naive values are US Eastern (see dates.ts); a bare responseDeadLine is the end of that day.
// Description: the API gives a link to fetch (with an API key), kept as description_url; when a
// record carries the text itself it is cleaned as HTML.
// Status: a title starting "CANCELLED"/"CANCELED" (how agencies flag cancellations, which the
// search API has no field for) is cancelled; an award or an Award Notice is awarded; active "No"
// (archived) is closed; else open.

const DATES: DateRules = { naiveZone: "America/New_York", dateOnly: "start" };
const DEADLINES: DateRules = { naiveZone: "America/New_York", dateOnly: "end" };

const TYPE_RANK: [RegExp, number][] = [
	[/presolicitation|sources sought|special notice|intent to bundle/i, 1],
	[/award/i, 3],
];

function typeRank(type: string | null): number {
	return TYPE_RANK.find(([pattern]) => type && pattern.test(type))?.[1] ?? 2;
}

/** "DEPT.SUBTIER.OFFICE" becomes "DEPT > SUBTIER > OFFICE" when the codes path confirms the split. */
function issuingBody(r: Record<string, unknown>): string {
	const path = line(r.fullParentPathName, LIMITS.title);
	const codes = line(r.fullParentPathCode, LIMITS.title);
	if (path) {
		const names = path.split(".");
		return codes && codes.split(".").length === names.length ? names.map((n) => n.trim()).join(" > ") : path;
	}
	return [r.department, r.subTier, r.office]
		.map((v) => line(v))
		.filter((v) => v !== null)
		.join(" > ");
}

function nameOrCode(v: unknown): string | null {
	if (!isRecord(v)) return line(v, 100);
	return line(v.code, 100) ?? line(v.name, 100);
}

function placeOf(v: unknown): Place | null {
	if (!isRecord(v)) return null;
	const cityName = isRecord(v.city) ? line(v.city.name, 100) : null;
	return placeOrNull({
		country: nameOrCode(v.country),
		region: nameOrCode(v.state),
		// SAM sometimes repeats the city's numeric code as its name ("21000"): not a city name.
		city: cityName && !/^\d+$/.test(cityName) ? cityName : null,
		postal_code: line(v.zip, 30),
		text: line([v.streetAddress, v.streetAddress2].filter((s) => typeof s === "string").join(", "), 1_000),
	});
}

function contactsOf(v: unknown): Contact[] {
	return asArray(v)
		.filter(isRecord)
		.map((c) => ({ name: line(c.fullName, 200), email: cleanEmail(c.email), phone: line(c.phone, 60) }));
}

function documentsOf(r: Record<string, unknown>): NoticeDocument[] {
	const docs: NoticeDocument[] = [];
	for (const link of asArray(r.resourceLinks)) {
		const url = safeUrl(link);
		if (url) docs.push({ title: null, url });
	}
	const info = safeUrl(r.additionalInfoLink);
	if (info) docs.push({ title: "Additional information", url: info });
	return docs;
}

function statusOf(r: Record<string, unknown>, title: string, type: string | null): NoticeStatus {
	if (/^\W{0,3}cancell?ed\b/i.test(title)) return "cancelled";
	const award = isRecord(r.award) && (r.award.number || r.award.amount || r.award.date);
	if (award || (type && /award notice/i.test(type))) return "awarded";
	if (typeof r.active === "string" && r.active.trim().toLowerCase() === "no") return "closed";
	return "open";
}

/**
 * What SAM.gov states about the competition: typeOfSetAside "NONE" ("No Set aside used") is an
 * unrestricted notice; a justification notice announces an award without full and open competition.
 * Set-asides themselves stay in set_aside (their kinds are finer than open or restricted).
 */
function procedureOfRecord(r: Record<string, unknown>, type: string | null): Procedure | null {
	const fromType = kindOfCode(SAM_TYPES, type);
	if (fromType) return procedureOf({ codeKind: fromType, code: type, text: null, framework: null });
	const code = line(r.typeOfSetAside ?? r.setAsideCode, 20)?.toUpperCase() ?? null;
	const text = line(r.typeOfSetAsideDescription ?? r.setAside, 500);
	const none = code === "NONE" || (code === null && text !== null && /^no set[- ]?aside( used)?$/i.test(text));
	return none ? procedureOf({ codeKind: "unrestricted", code: "NONE", text, framework: null }) : null;
}

function draftOf(r: Record<string, unknown>): NoticeDraft | string {
	const noticeId = line(r.noticeId, LIMITS.id);
	if (!noticeId) return "noticeId missing";
	const title = line(r.title, LIMITS.title);
	if (!title) return "title missing";
	const solicitation = line(r.solicitationNumber, LIMITS.id);
	const type = line(r.type, 100);
	const posted = parseInstant(r.postedDate, DATES);
	// The documentation's table spells it "reponseDeadLine"; responses use responseDeadLine.
	const deadline = parseInstant(r.responseDeadLine ?? r.reponseDeadLine, DEADLINES);
	const descriptionUrl = safeUrl(r.description);
	const psc = line(r.classificationCode, 10)?.toUpperCase() ?? null;
	const naics = [...asArray(r.naicsCodes), r.naicsCode];

	return {
		source: "sam.gov",
		source_id: solicitation ? solicitation.replace(/\s+/g, "").toUpperCase() : `notice:${noticeId}`,
		rfp_id: solicitation ?? noticeId,
		reference_number: solicitation,
		title,
		issuing_body: issuingBody(r),
		description: descriptionUrl ? "" : (cleanText(r.description, LIMITS.description, { html: true }) ?? ""),
		// SAM.gov publishes in English only and declares no language.
		language: "en",
		description_url: descriptionUrl,
		notice_type: type,
		procurement_category: categoryOfPsc(psc),
		procedure: procedureOfRecord(r, type),
		items: [],
		categories: [...naics.map((code) => normalizeCategory("NAICS", code)), normalizeCategory("PSC", psc)],
		deadline,
		deadline_local: parseLocal(r.responseDeadLine ?? r.reponseDeadLine, DEADLINES),
		published_at: posted,
		estimated_value: null,
		currency: null,
		set_aside: normalizeSetAside(r.typeOfSetAside ?? r.setAsideCode, r.typeOfSetAsideDescription ?? r.setAside),
		eligibility: null,
		place_of_performance: placeOf(r.placeOfPerformance),
		contacts: contactsOf(r.pointOfContact),
		documents: documentsOf(r),
		status: statusOf(r, title, type),
		version: {
			label: noticeId,
			released_at: posted,
			sort_key: `${posted ?? "0000-00-00T00:00:00Z"}|${typeRank(type)}|${noticeId}`,
			supersedes: null,
			note: null,
		},
		source_url: safeUrl(r.uiLink),
	};
}

/** A SAM.gov search response (already JSON-parsed) to notices; bad records are skipped and reported. */
export function parseSam(input: unknown): ParseResult {
	if (!isRecord(input) || !Array.isArray(input.opportunitiesData))
		return refused("not a SAM.gov search response: opportunitiesData array missing");
	const out = new Collector();
	for (const [index, record] of input.opportunitiesData.entries()) {
		// Named by noticeId, else by solicitation number, so a report can point at the bad record.
		const ref = isRecord(record)
			? (line(record.noticeId, LIMITS.id) ?? line(record.solicitationNumber, LIMITS.id) ?? undefined)
			: undefined;
		out.record({ index, ref }, () => (isRecord(record) ? draftOf(record) : "record is not an object"));
	}
	return out.result();
}
