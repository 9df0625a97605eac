import type { NoticeDraft } from "./assemble.ts";
import { asAmount, asArray, asCurrency, Collector, isRecord, line, placeOrNull, refused } from "./assemble.ts";
import { normalizeCategory, procurementCategory, unspscBased } from "./codes.ts";
import type { DateRules } from "./dates.ts";
import { parseInstant, parseLocal } from "./dates.ts";
import type {
	AwardCriteria,
	AwardCriterion,
	Category,
	Contact,
	ContractPeriod,
	ExtensionField,
	Milestone,
	NoticeItem,
	NoticeLot,
	NoticeStatus,
	ParseResult,
	Place,
	Procedure,
	ProcurementCategory,
	Submission,
} from "./notice.ts";
import { LIMITS } from "./notice.ts";
import { kindOfProcedureName } from "../../../shared/procedure-names.ts";
import { kindOfCode, OCDS_METHODS, procedureOf } from "./procedure.ts";
import { cleanEmail, cleanText, languageField, safeUrl } from "./text.ts";

// OCDS 1.1: release packages ({releases}), record packages ({records}, each with embedded
// `releases` and/or a `compiledRelease`), a bare release, or an array of releases.
//
// Source: "ocds:<publisher>", the publisher taken from the OCID prefix the OCDS registry assigns
// ("ocds-b5fd17-…" is UK Contracts Finder), so the same process gets the same source from any
// package; a few well-known prefixes get readable names. source_id is the ocid.
//
// Versions: every release is a version (label = release id, ordered by release date then id).
// Within one package, a process's releases are compiled in that order with the OCDS merge rules
// (objects merge, null removes, arrays of objects with ids merge by id, other arrays replace), and
// each release yields the compiled state as of that release. A partial release (say a
// tenderAmendment carrying only tender.tenderPeriod) therefore still gives a complete notice.
// Releases of one process arriving in different files are full snapshots to versions.ts; a feed
// that publishes partial releases should be ingested as whole packages or record packages.
// A record whose releases are only links uses its compiledRelease as a single version.
//
// Status: tag tenderCancellation or tender.status cancelled/withdrawn -> cancelled; award or
// contract tags, tender.status complete or an active award -> awarded; tender.status unsuccessful
// -> closed; else open. Dates: UTC when a value lacks an offset (the standard requires one).

const DATES: DateRules = { naiveZone: "UTC", dateOnly: "start" };
const DEADLINES: DateRules = { naiveZone: "UTC", dateOnly: "end" };

const KNOWN_PUBLISHERS = new Map([
	["b5fd17", "uk-contracts-finder"],
	["h6vhtk", "uk-find-a-tender"],
]);

/** "ocds:<publisher>" from the ocid's registered prefix. */
export function ocdsSource(ocid: string): string {
	const prefix = /^ocds-([a-z0-9]{1,40})-/i.exec(ocid)?.[1]?.toLowerCase();
	return prefix ? `ocds:${KNOWN_PUBLISHERS.get(prefix) ?? prefix}` : "ocds:unregistered";
}

const AWARD_TAGS = new Set([
	"award",
	"awardUpdate",
	"contract",
	"contractUpdate",
	"contractAmendment",
	"implementation",
	"implementationUpdate",
	"contractTermination",
]);

/**
 * The stage a release speaks about (planning, tender, award, contract). The tag itself names an
 * event (tenderAmendment, tenderUpdate): that is version information, so it is not the notice
 * type, and an amendment does not count as a change of type.
 */
function stageOf(tags: string[], state: Record<string, unknown>): string | null {
	const stages: [RegExp, string][] = [
		[/^(contract|implementation)/, "contract"],
		[/^award/, "award"],
		[/^tender/, "tender"],
		[/^planning/, "planning"],
	];
	for (const [pattern, stage] of stages) if (tags.some((t) => pattern.test(t))) return stage;
	if (asArray(state.awards).length) return "award";
	return isRecord(state.tender) ? "tender" : null;
}

// Keys that could reach an object's prototype if assigned; a feed has no business sending them.
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const MAX_MERGE_DEPTH = 32;

function mergeArrays(base: unknown[], patch: unknown[], depth: number): unknown[] {
	const byId = patch.every((x) => isRecord(x) && x.id !== undefined && x.id !== null);
	if (!byId) return patch;
	const out = [...base];
	for (const item of patch as Record<string, unknown>[]) {
		const at = out.findIndex((x) => isRecord(x) && String(x.id) === String(item.id));
		if (at < 0) out.push(item);
		else out[at] = merge(out[at], item, depth + 1);
	}
	return out;
}

/** OCDS merge of one release onto the compiled state so far. */
function merge(base: unknown, patch: unknown, depth = 0): unknown {
	if (!isRecord(patch) || !isRecord(base) || depth > MAX_MERGE_DEPTH) return patch;
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(patch)) {
		if (UNSAFE_KEYS.has(key)) continue;
		if (value === null) delete out[key];
		else if (Array.isArray(value) && Array.isArray(out[key])) out[key] = mergeArrays(out[key] as unknown[], value, depth);
		else out[key] = merge(out[key], value, depth + 1);
	}
	return out;
}

function rolesOf(party: Record<string, unknown>): string[] {
	return asArray(party.roles).filter((r) => typeof r === "string");
}

function contactOf(party: Record<string, unknown> | undefined): Contact | null {
	const c = party?.contactPoint;
	if (!isRecord(c)) return null;
	return { name: line(c.name, 200), email: cleanEmail(c.email), phone: line(c.telephone, 60) };
}

/** Longer than any country's postal code: a publisher that put the whole address there (Uganda's "... Plot 5 George Street ..."). */
const POSTAL_CODE_MAX = 12;

function addressOf(a: unknown): Place | null {
	if (!isRecord(a)) return null;
	const postal = line(a.postalCode, 1_000);
	const whole = postal !== null && postal.length > POSTAL_CODE_MAX;
	return placeOrNull({
		country: line(a.countryName, 100),
		region: line(a.region, 100),
		city: line(a.locality, 100),
		postal_code: whole ? null : postal,
		text:
			[line(a.streetAddress, 1_000), whole ? postal : null]
				.filter((p) => p !== null)
				.join(", ")
				.slice(0, 1_000) || null,
	});
}

function statusOf(tags: string[], tender: Record<string, unknown>, awards: unknown[]): NoticeStatus {
	const status = typeof tender.status === "string" ? tender.status : "";
	if (tags.includes("tenderCancellation") || status === "cancelled" || status === "withdrawn") return "cancelled";
	const activeAward = awards.some((a) => isRecord(a) && a.status === "active");
	if (tags.some((t) => AWARD_TAGS.has(t)) || status === "complete" || activeAward) return "awarded";
	if (status === "unsuccessful") return "closed";
	return "open";
}

/** What the release itself says changed: its latest amendment's rationale and description. */
function noteOf(release: Record<string, unknown>): string | null {
	const tender = isRecord(release.tender) ? release.tender : {};
	const amendment = asArray(tender.amendments).filter(isRecord).at(-1);
	const parts = [amendment?.rationale, amendment?.description, tender.statusDetails]
		.map((p) => line(p, LIMITS.note))
		.filter((p) => p !== null);
	return parts.length ? line(parts.join(". "), LIMITS.note) : null;
}

/**
 * The procedure: procurementMethod (the codelist, or a publisher's own name put there),
 * procurementMethodDetails (the publisher's own name for it, any language), the rationale only
 * when neither names a kind; a related process
 * with relationship "framework" makes this a call-off, techniques.hasFrameworkAgreement or
 * hasDynamicPurchasingSystem a notice that sets one up.
 */
function procedureOfTender(tender: Record<string, unknown>, state: Record<string, unknown>): Procedure | null {
	const techniques = isRecord(tender.techniques) ? tender.techniques : {};
	const related = [...asArray(state.relatedProcesses), ...asArray(tender.relatedProcesses)].filter(isRecord);
	const callOff = related.some((p) => asArray(p.relationship).includes("framework"));
	const sets = techniques.hasFrameworkAgreement === true || techniques.hasDynamicPurchasingSystem === true;
	// Some publishers put their national procedure's name where the codelist value belongs
	// ("Licitaţie publică"): read as a name, like procurementMethodDetails.
	const method = line(tender.procurementMethod, 200);
	return procedureOf({
		codeKind:
			kindOfCode(OCDS_METHODS, method) ??
			kindOfProcedureName(method) ??
			kindOfProcedureName(line(tender.procurementMethodRationale, 2_000)),
		code: tender.procurementMethod,
		text: tender.procurementMethodDetails,
		framework: callOff ? "call_off" : sets ? "agreement" : null,
	});
}

/** mainProcurementCategory, else the one additional category when there is exactly one. */
function categoryOfTender(tender: Record<string, unknown>): ProcurementCategory | null {
	const main = procurementCategory(tender.mainProcurementCategory);
	if (main) return main;
	const additional = new Set(
		asArray(tender.additionalProcurementCategories)
			.map(procurementCategory)
			.filter((c) => c !== null),
	);
	return additional.size === 1 ? ([...additional][0] ?? null) : null;
}

/** An item's main classification: a scheme we read, else a national catalogue built on UNSPSC. */
function itemCategory(c: Record<string, unknown>): Category | null {
	return normalizeCategory(c.scheme, c.id, c.description) ?? unspscBased(c.scheme, c.id, c.description);
}

/** Items as listed; a tender that lists lots but no items gets one item per lot (its title and description). */
function itemsOfTender(tender: Record<string, unknown>): NoticeItem[] {
	const items = asArray(tender.items).filter(isRecord);
	if (items.length === 0) {
		return asArray(tender.lots)
			.filter(isRecord)
			.map((lot) => ({
				description:
					line([lot.title, lot.description].filter((p) => typeof p === "string" && p.trim()).join(": "), LIMITS.itemDescription) ?? "",
				quantity: null,
				unit: null,
				classification: null,
				lot: line(lot.id, 100),
			}))
			.filter((i) => i.description !== "");
	}
	return items.map((item) => {
		const unit = isRecord(item.unit) ? item.unit : {};
		const classification = isRecord(item.classification) ? item.classification : {};
		return {
			description: line(item.description, LIMITS.itemDescription) ?? "",
			quantity: asAmount(item.quantity),
			unit: line(unit.name, 100),
			classification: itemCategory(classification),
			lot: line(item.relatedLot, 100),
		};
	});
}

/** An amount and currency from an OCDS Value object, or null. */
function moneyOf(v: unknown): NoticeLot["value"] {
	const amount = isRecord(v) ? asAmount(v.amount) : null;
	return amount === null || !isRecord(v) ? null : { amount, currency: asCurrency(v.currency) };
}

/** tender.lots as declared (id, title, description, value); empty when the tender declares none. */
function lotsOfTender(tender: Record<string, unknown>): { lots?: NoticeLot[] } {
	const lots = asArray(tender.lots)
		.filter(isRecord)
		.slice(0, LIMITS.lots)
		.flatMap((lot) => {
			const id = line(lot.id, 100);
			if (id === null) return [];
			return [
				{
					id,
					title: line(lot.title),
					description: cleanText(lot.description, LIMITS.itemDescription, { html: true }),
					value: moneyOf(lot.value),
				},
			];
		});
	return lots.length ? { lots } : {};
}

/**
 * Criteria of an OCDS awardCriteria object (the eForms profile's {criteria: [{type, name,
 * description, numbers: [{number, weighting}]}]}), for one lot or the whole tender.
 */
function criteriaOf(value: unknown, lot: string | null): AwardCriterion[] {
	if (!isRecord(value)) return [];
	return asArray(value.criteria)
		.filter(isRecord)
		.map((c) => {
			const numbers = asArray(c.numbers).filter(isRecord);
			const weight = numbers.find((n) => n.weighting !== undefined || n.number !== undefined);
			return {
				lot,
				type: line(c.type, 100),
				name: line(c.name),
				description: cleanText(c.description, LIMITS.note, { html: true }),
				// The eForms profile's weighting codes (percentageExact, percentageRangeMiddle, ...) say the number is a percentage.
				weight: weight && /^percentage/.test(String(weight.weighting ?? "")) ? line(`${weight.number} %`, 100) : line(weight?.number, 100),
			};
		})
		.filter((c) => c.name !== null || c.description !== null || c.type !== null);
}

/**
 * How the winner is chosen: tender.awardCriteria (the 1.1 codelist, or an object of criteria),
 * tender.awardCriteriaDetails (the buyer's own words), and each lot's criteria. Empty when none is stated.
 */
function awardCriteriaOf(tender: Record<string, unknown>): { award_criteria?: AwardCriteria } {
	const criteria = [
		...criteriaOf(tender.awardCriteria, null),
		...asArray(tender.lots)
			.filter(isRecord)
			.flatMap((lot) => criteriaOf(lot.awardCriteria, line(lot.id, 100))),
	].slice(0, LIMITS.awardCriteria);
	const method = typeof tender.awardCriteria === "string" ? line(tender.awardCriteria, 100) : null;
	const text = cleanText(tender.awardCriteriaDetails, LIMITS.eligibility, { html: true });
	if (!method && !text && !criteria.length) return {};
	return { award_criteria: { method, text, criteria } };
}

/**
 * How to submit: tender.submissionMethod (codelist) and tender.submissionMethodDetails (free text,
 * any language; a publisher that puts only a link there names where to submit). Undefined when
 * neither is given, so notices without them keep their content hash.
 */
function submissionOf(tender: Record<string, unknown>): Submission | undefined {
	const methods = [
		...new Set(
			asArray(tender.submissionMethod)
				.map((m) => line(m, 100))
				.filter((m) => m !== null),
		),
	].slice(0, 10);
	const details = cleanText(tender.submissionMethodDetails, LIMITS.submission, { html: true });
	const url = details && /^\S+$/.test(details) ? safeUrl(details) : null;
	if (!methods.length && !details) return undefined;
	return { methods, url, text: url ? null : details };
}

/** tender.minValue: the lowest value the buyer states; empty when it states none. */
function minimumValueOf(tender: Record<string, unknown>): { minimum_value?: { amount: number; currency: string | null } } {
	const min = isRecord(tender.minValue) ? tender.minValue : {};
	const amount = asAmount(min.amount);
	return amount === null ? {} : { minimum_value: { amount, currency: asCurrency(min.currency) } };
}

/** Until when bidders may ask questions (tender.enquiryPeriod.endDate), in UTC and as written; empty when not stated. */
function enquiryDeadlineOf(tender: Record<string, unknown>): { enquiry_deadline?: string; enquiry_deadline_local?: string } {
	const end = isRecord(tender.enquiryPeriod) ? tender.enquiryPeriod.endDate : undefined;
	const utc = parseInstant(end, DEADLINES);
	const local = parseLocal(end, DEADLINES);
	return utc ? { enquiry_deadline: utc, ...(local ? { enquiry_deadline_local: local } : {}) } : {};
}

/** tender.contractPeriod: start, end and duration; empty when it states none (a duration of 0 days states nothing). */
function contractPeriodOf(tender: Record<string, unknown>): { contract_period?: ContractPeriod } {
	const p = isRecord(tender.contractPeriod) ? tender.contractPeriod : {};
	const start = parseInstant(p.startDate, DATES);
	const end = parseInstant(p.endDate, DEADLINES);
	const days = asAmount(p.durationInDays);
	const duration_days = days !== null && days >= 1 ? Math.round(days) : null;
	return start || end || duration_days ? { contract_period: { start, end, duration_days } } : {};
}

/** tender.milestones with a title, a description or a due date; empty when it lists none. */
function milestonesOf(tender: Record<string, unknown>): { milestones?: Milestone[] } {
	const milestones = asArray(tender.milestones)
		.filter(isRecord)
		.map((m) => ({
			title: line(m.title),
			description: cleanText(m.description, LIMITS.note, { html: true }),
			due: parseInstant(m.dueDate, DATES),
		}))
		.filter((m) => m.title !== null || m.description !== null)
		.slice(0, LIMITS.milestones);
	return milestones.length ? { milestones } : {};
}

/** The tender fields of OCDS 1.1 and the extensions read above: every other field is a publisher's own. */
const TENDER_FIELDS = new Set(
	(
		"id title description status procuringEntity items value minValue procurementMethod procurementMethodDetails procurementMethodRationale " +
		"mainProcurementCategory additionalProcurementCategories awardCriteria awardCriteriaDetails submissionMethod submissionMethodDetails " +
		"tenderPeriod enquiryPeriod hasEnquiries eligibilityCriteria awardPeriod contractPeriod numberOfTenderers tenderers documents " +
		"milestones amendments amendment lots lotGroups classification additionalClassifications techniques relatedProcesses statusDetails"
	).split(" "),
);

/**
 * A publisher's own text fields of the tender (NSW's timeframeDelivery "20 Weeks", conditionsForParticipation): what they
 * say is notice text like any other. Kept when they hold words (two or more, or one with a figure: "20 Weeks"), not a bare
 * code, status or link.
 */
function extensionsOf(tender: Record<string, unknown>): { extensions?: ExtensionField[] } {
	const extensions = Object.entries(tender)
		.filter(([key, v]) => typeof v === "string" && !TENDER_FIELDS.has(key))
		.flatMap(([key, v]) => {
			const text = cleanText(v, LIMITS.note, { html: true });
			const words = (text ?? "").match(/\p{L}+/gu) ?? [];
			if (!text || safeUrl(text) || !words.length || (words.length < 2 && !/\d/.test(text))) return [];
			const named = key
				.replace(/([a-z])([A-Z])/g, "$1 $2")
				.replace(/[_-]+/g, " ")
				.toLowerCase();
			const name = line(named.charAt(0).toUpperCase() + named.slice(1), 100);
			return name ? [{ name, text: text.replace(/\s*\n\s*/g, " ") }] : [];
		})
		.slice(0, LIMITS.extensions);
	return extensions.length ? { extensions } : {};
}

interface Version {
	release: Record<string, unknown>;
	date: string;
	id: string;
	/** Release date, then id: the order of a process's releases. */
	key: string;
}

function draftOf(state: Record<string, unknown>, version: Version, firstDate: string): NoticeDraft | string {
	const ocid = line(state.ocid, LIMITS.id);
	if (!ocid) return "ocid missing";
	const tender = isRecord(state.tender) ? state.tender : {};
	const title = line(tender.title, LIMITS.title);
	if (!title) return "tender.title missing";
	const parties = asArray(state.parties).filter(isRecord);
	const buyerRef = isRecord(state.buyer) ? state.buyer : undefined;
	const buyer =
		parties.find((p) => buyerRef?.id !== undefined && p.id === buyerRef.id) ?? parties.find((p) => rolesOf(p).includes("buyer"));
	const procuring = parties.find((p) => rolesOf(p).includes("procuringEntity"));
	const procuringRef = isRecord(tender.procuringEntity) ? tender.procuringEntity : undefined;
	const reference = line(tender.id, LIMITS.id);
	const items = asArray(tender.items).filter(isRecord);
	const value = isRecord(tender.value) ? tender.value : {};
	const period = isRecord(tender.tenderPeriod) ? tender.tenderPeriod : {};
	const documents = asArray(tender.documents).filter(isRecord);
	const tags = asArray(version.release.tag).filter((t) => typeof t === "string");
	const delivery = items.map((i) => addressOf(i.deliveryAddress)).find((p) => p !== null);
	const submission = submissionOf(tender);

	return {
		source: ocdsSource(ocid),
		source_id: ocid,
		rfp_id: reference ?? ocid,
		reference_number: reference,
		title,
		issuing_body:
			line(buyerRef?.name, LIMITS.title) ??
			line(buyer?.name, LIMITS.title) ??
			line(procuringRef?.name ?? procuring?.name, LIMITS.title) ??
			"",
		description: cleanText(tender.description, LIMITS.description, { html: true }) ?? "",
		...languageField(state.language),
		description_url: null,
		notice_type: stageOf(tags, state),
		procurement_category: categoryOfTender(tender),
		procedure: procedureOfTender(tender, state),
		items: itemsOfTender(tender),
		...lotsOfTender(tender),
		...awardCriteriaOf(tender),
		...contractPeriodOf(tender),
		...milestonesOf(tender),
		...extensionsOf(tender),
		// The tender's own classification (eForms' main CPV and many publishers' put it there), then each item's
		// main classification before its additional ones: the first code is what the notice mainly buys, for
		// the API's reader and for matching ("Passenger Motor Vehicles" before the light trucks it also allows).
		categories: [
			...[tender.classification, ...asArray(tender.additionalClassifications)]
				.filter(isRecord)
				.map((c) => normalizeCategory(c.scheme, c.id, c.description)),
			...items.flatMap((item) => [
				isRecord(item.classification) ? itemCategory(item.classification) : null,
				...asArray(item.additionalClassifications)
					.filter(isRecord)
					.map((c) => normalizeCategory(c.scheme, c.id, c.description)),
			]),
		],
		deadline: parseInstant(period.endDate, DEADLINES),
		deadline_local: parseLocal(period.endDate, DEADLINES),
		published_at: parseInstant(period.startDate, DATES) ?? firstDate,
		...enquiryDeadlineOf(tender),
		...(submission ? { submission } : {}),
		estimated_value: asAmount(value.amount),
		...minimumValueOf(tender),
		currency: asCurrency(value.currency),
		set_aside: null,
		eligibility: cleanText(tender.eligibilityCriteria, LIMITS.eligibility, { html: true }),
		// OCDS core has no place of performance; items' deliveryAddress (location extension) when
		// given, else the buyer's address as the nearest stand-in.
		place_of_performance: delivery ?? addressOf(buyer?.address),
		// Some publishers put the contact point on the buyer reference itself rather than on a party.
		contacts: [contactOf(buyer) ?? contactOf(buyerRef), contactOf(procuring)].filter((c) => c !== null),
		documents: documents.flatMap((d) => {
			const url = safeUrl(d.url);
			return url ? [{ title: line(d.title), url }] : [];
		}),
		status: statusOf(tags, tender, asArray(state.awards)),
		version: {
			label: version.id,
			released_at: version.date,
			sort_key: version.key,
			supersedes: null,
			note: noteOf(version.release),
		},
		source_url: safeUrl(documents.find((d) => d.documentType === "tenderNotice")?.url),
	};
}

interface Candidate {
	where: { index: number; ref?: string };
	release: unknown;
}

/** The releases (or compiled releases) a document holds, with where each came from. */
function candidatesOf(input: unknown, out: Collector): Candidate[] | null {
	if (Array.isArray(input)) return input.map((release, index) => ({ where: { index }, release }));
	if (!isRecord(input)) return null;
	if (Array.isArray(input.releases)) return input.releases.map((release, index) => ({ where: { index }, release }));
	if (typeof input.ocid === "string") return [{ where: { index: 0 }, release: input }];
	if (!Array.isArray(input.records)) return null;
	return input.records.flatMap((record, index): Candidate[] => {
		if (!isRecord(record)) {
			out.reject({ index, reason: "record is not an object" });
			return [];
		}
		// Embedded releases carry their ocid; linked releases are only {url, date, tag}.
		const embedded = asArray(record.releases).filter((r) => isRecord(r) && typeof r.ocid === "string");
		if (embedded.length)
			return embedded.map((release) => ({ where: { index, ref: isRecord(release) ? String(release.id) : undefined }, release }));
		if (isRecord(record.compiledRelease)) return [{ where: { index, ref: "compiledRelease" }, release: record.compiledRelease }];
		out.reject({ index, reason: "record has neither embedded releases nor a compiledRelease" });
		return [];
	});
}

/** Why a release cannot be used at all (it needs an ocid, an id and a date to be ordered), or null. */
function releaseProblem(release: unknown): string | null {
	if (!isRecord(release)) return "release is not an object";
	if (typeof release.ocid !== "string" || !release.ocid.trim() || release.ocid.length > LIMITS.id) return "ocid missing";
	if ((typeof release.id !== "string" && typeof release.id !== "number") || String(release.id).length > LIMITS.id)
		return "release id missing";
	if (parseInstant(release.date, DATES) === null) return "release date missing or not a date";
	return null;
}

/** An OCDS document (already JSON-parsed) to notices, one per release; bad releases are reported. */
export function parseOcds(input: unknown): ParseResult {
	const out = new Collector();
	const candidates = candidatesOf(input, out);
	if (!candidates) return refused("not OCDS: expected a release package, a record package, a release or an array of releases");

	// Group valid releases by process, keeping the order in which processes first appear.
	const processes = new Map<string, { where: Candidate["where"]; version: Version }[]>();
	for (const { where, release } of candidates) {
		const problem = releaseProblem(release);
		const ref = isRecord(release) && release.id !== undefined ? String(release.id).slice(0, LIMITS.id) : where.ref;
		if (problem !== null || !isRecord(release)) {
			out.reject({ ...where, ref, reason: problem ?? "release is not an object" });
			continue;
		}
		const ocid = String(release.ocid).trim();
		const date = parseInstant(release.date, DATES) ?? "";
		const id = String(release.id);
		const version: Version = { release, date, id, key: `${date}|${id}` };
		const list = processes.get(ocid);
		if (list) list.push({ where: { ...where, ref }, version });
		else processes.set(ocid, [{ where: { ...where, ref }, version }]);
	}

	for (const list of processes.values()) {
		list.sort((a, b) => (a.version.key < b.version.key ? -1 : a.version.key > b.version.key ? 1 : 0));
		const firstDate = list[0]?.version.date ?? "";
		let state: Record<string, unknown> = {};
		for (const { where, version } of list) {
			state = merge(state, version.release) as Record<string, unknown>;
			const snapshot = state;
			out.record(where, () => draftOf(snapshot, version, firstDate));
		}
	}
	return out.result();
}
