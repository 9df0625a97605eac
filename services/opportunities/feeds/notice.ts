import { z } from "zod";
import { PROCEDURE_KINDS } from "../../../shared/procedure-names.ts";
import { CATEGORY_SCHEMES } from "../../../shared/taxonomy/categories.ts";

// The one shape every feed parser produces (SAM.gov, OCDS, TED eForms). Feeds are untrusted, so
// every string and array has a bound; the parsers truncate to these limits before validating,
// and the schema is the last line of defence (a notice that still breaks it is rejected).
// Naming, date, version and dedupe rules: README.md beside this file.

export const LIMITS = {
	id: 200,
	title: 500,
	line: 300,
	description: 20_000,
	eligibility: 4_000,
	submission: 4_000,
	note: 2_000,
	url: 2_048,
	/** An item's or a lot's description: long enough for a works notice's list of areas and capacities. */
	itemDescription: 4_000,
	items: 200,
	lots: 200,
	awardCriteria: 100,
	milestones: 50,
	extensions: 20,
	categories: 100,
	documents: 100,
	contacts: 20,
	dedupeKeys: 8,
	dedupeKey: 300,
	sortKey: 400,
} as const;

/** UTC instant with a trailing Z and whole seconds, e.g. 2020-04-03T11:00:00Z (dates.ts writes these). */
export const UtcInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, "Expected a UTC instant such as 2020-04-03T11:00:00Z");

/** A time as the buyer wrote it: local wall time and UTC offset ("2038-01-29T13:00+02:00"). */
const LocalTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

const Line = (max: number = LIMITS.line) => z.string().max(max);
const HttpUrl = z
	.string()
	.max(LIMITS.url)
	.regex(/^https?:\/\//i, "Only http(s) links are kept");

/** `sam.gov`, `ted`, or `ocds:<publisher>` (the publisher slug comes from the OCID prefix). */
export const NoticeSource = z.string().regex(/^(sam\.gov|ted|ocds:[a-z0-9][a-z0-9-]{0,62})$/, "Unknown source naming");

export { CATEGORY_SCHEMES };
export const CategoryScheme = z.enum(CATEGORY_SCHEMES);
export type CategoryScheme = z.infer<typeof CategoryScheme>;

export const Category = z.object({
	scheme: CategoryScheme,
	code: z.string().min(1).max(32),
	label: Line().optional(),
	/** The scheme and code as the source wrote them, when normalizing changed more than their spelling ("GSIN N6640" for PSC 6640). */
	as_published: Line(60).optional(),
});
export type Category = z.infer<typeof Category>;

/** SAM.gov set-aside codes (typeOfSetAside), upper-cased: the vocabulary US federal notices use. */
export const SET_ASIDE_CODES = [
	"SBA",
	"SBP",
	"8A",
	"8AN",
	"HZC",
	"HZS",
	"SDVOSBC",
	"SDVOSBS",
	"WOSB",
	"WOSBSS",
	"EDWOSB",
	"EDWOSBSS",
	"LAS",
	"IEE",
	"ISBEE",
	"BICIV",
	"VSA",
	"VSS",
] as const;
export const SetAsideCode = z.enum(SET_ASIDE_CODES);
export type SetAsideCode = z.infer<typeof SetAsideCode>;

export const NOTICE_STATUSES = ["open", "cancelled", "awarded", "closed"] as const;
export const NoticeStatus = z.enum(NOTICE_STATUSES);
export type NoticeStatus = z.infer<typeof NoticeStatus>;

export const ProcurementCategory = z.enum(["goods", "services", "works"]);
export type ProcurementCategory = z.infer<typeof ProcurementCategory>;

/**
 * How the buyer picks who may tender, in one vocabulary for every feed (procedure.ts maps each
 * feed's codes and labels onto it; README.md has the tables). Internal: the public API shows only
 * the signal it feeds (bid_eligibility).
 */
export const ProcedureKind = z.enum(PROCEDURE_KINDS);
export type ProcedureKind = z.infer<typeof ProcedureKind>;

/** Whether any supplier may tender (`open`) or only some (`restricted`): a function of the kind (procedure.ts). */
export const Competition = z.enum(["open", "restricted"]);
export type Competition = z.infer<typeof Competition>;

export const Procedure = z.object({
	/** Null when the source states a procedure we cannot place (say a concession procedure); code and text still say what it was. */
	kind: ProcedureKind.nullable(),
	competition: Competition.nullable(),
	/** The source's own code: eForms procurement-procedure-type, TED PT_*, OCDS procurementMethod, SAM typeOfSetAside NONE or notice type. */
	code: Line(100).nullable(),
	/** The source's own words: OCDS procurementMethodDetails (any language), a TED label, SAM's set-aside description. */
	text: Line(500).nullable(),
	/** `agreement`: the notice sets up a framework agreement or dynamic purchasing system; `call_off`: it buys under one. */
	framework: z.enum(["agreement", "call_off"]).nullable(),
});
export type Procedure = z.infer<typeof Procedure>;

export const NoticeItem = z.object({
	description: Line(LIMITS.itemDescription),
	quantity: z.number().finite().nonnegative().nullable(),
	unit: Line(100).nullable(),
	classification: Category.nullable(),
	/** The eForms lot (or OCDS related lot) the item belongs to, when the source splits into lots. */
	lot: Line(100).nullable(),
});
export type NoticeItem = z.infer<typeof NoticeItem>;

/** An amount and its currency as the source states them. */
const Money = z.object({
	amount: z.number().finite().nonnegative(),
	currency: z
		.string()
		.regex(/^[A-Z]{3}$/)
		.nullable(),
});

/**
 * A lot as the source declares it (OCDS tender.lots, eForms ProcurementProjectLot, TED OBJECT_DESCR):
 * what a bidder may tender for separately. Items say what is bought; lots say how it is split, and
 * a source may name lots no item refers to.
 */
export const NoticeLot = z.object({
	id: Line(100),
	title: Line(LIMITS.line).nullable(),
	description: Line(LIMITS.itemDescription).nullable(),
	value: Money.nullable(),
});
export type NoticeLot = z.infer<typeof NoticeLot>;

/** One award criterion: price, quality or cost, its name, its weight as stated, and the lot it applies to. */
export const AwardCriterion = z.object({
	/** The lot's id; null when it applies to the whole tender. */
	lot: Line(100).nullable(),
	/** price, quality, cost (the source's code). */
	type: Line(100).nullable(),
	name: Line(LIMITS.line).nullable(),
	description: Line(LIMITS.note).nullable(),
	/** The weighting as written ("60", "60 %", "Points 40"). */
	weight: Line(100).nullable(),
});
export type AwardCriterion = z.infer<typeof AwardCriterion>;

/** How the winner is chosen: the source's method code, its own words, and the criteria it lists. */
export const AwardCriteria = z.object({
	/** OCDS awardCriteria codelist (priceOnly, ratedCriteria, bestValueToGovernment, ...) or the source's own code. */
	method: Line(100).nullable(),
	/** The source's own words: OCDS awardCriteriaDetails. */
	text: Line(LIMITS.eligibility).nullable(),
	criteria: z.array(AwardCriterion).max(LIMITS.awardCriteria),
});
export type AwardCriteria = z.infer<typeof AwardCriteria>;

/** When the contract runs (OCDS tender.contractPeriod); a bid manager's second question after the deadline. */
export const ContractPeriod = z.object({
	start: UtcInstant.nullable(),
	end: UtcInstant.nullable(),
	duration_days: z.number().int().positive().nullable(),
	/** The duration as published, with its unit ("48 months"), one per lot when lots differ ("lot 1: 30 days; lot 2: 60 days"). */
	duration: Line(LIMITS.line).nullable().optional(),
});
export type ContractPeriod = z.infer<typeof ContractPeriod>;

/** A date the buyer plans (OCDS tender.milestones: the contract's start and end, a delivery, a meeting), in its own words. */
export const Milestone = z.object({
	title: Line().nullable(),
	description: Line(LIMITS.note).nullable(),
	due: UtcInstant.nullable(),
});
export type Milestone = z.infer<typeof Milestone>;

/** A publisher's own tender field outside the OCDS schema (NSW's timeframeDelivery, conditionsForParticipation), as text. */
export const ExtensionField = z.object({
	/** The field's key in words ("Conditions for participation"). */
	name: Line(100),
	text: Line(LIMITS.note),
});
export type ExtensionField = z.infer<typeof ExtensionField>;

export const Contact = z.object({
	name: Line(200).nullable(),
	email: Line(254).nullable(),
	phone: Line(60).nullable(),
});
export type Contact = z.infer<typeof Contact>;

export const NoticeDocument = z.object({
	title: Line().nullable(),
	url: HttpUrl,
});
export type NoticeDocument = z.infer<typeof NoticeDocument>;

export const Place = z.object({
	/** As the source gives it: an ISO code (USA, GBR) or a country name. */
	country: Line(100).nullable(),
	/** State code (VA), NUTS code (UKM83) or region name. */
	region: Line(100).nullable(),
	city: Line(100).nullable(),
	postal_code: Line(30).nullable(),
	/** Free text such as a street address or "public buildings of the council". */
	text: Line(1_000).nullable(),
});
export type Place = z.infer<typeof Place>;

export const SetAside = z.object({
	code: SetAsideCode.nullable(),
	text: Line(500).nullable(),
});
export type SetAside = z.infer<typeof SetAside>;

/** OCDS submissionMethod codelist: the vocabulary every feed's submission method is put in. */
export const SUBMISSION_METHODS = ["electronicSubmission", "electronicAuction", "written", "inPerson"] as const;

/**
 * How and where tenders are submitted, as the feed's own fields say it (not its text): what a bid
 * manager asks first after the deadline. Optional and left out when the feed says nothing, so
 * notices without it keep their content hash.
 */
export const Submission = z.object({
	/** OCDS submissionMethod codes (SUBMISSION_METHODS; another code a publisher uses is kept as given). */
	methods: z.array(Line(100)).max(10),
	/** Where to submit electronically: eForms BT-18 (TenderRecipientParty/EndpointID), TED URL_PARTICIPATION, an OCDS details field that is a link. */
	url: HttpUrl.nullable(),
	/** The source's own words: OCDS submissionMethodDetails, the address TED names for submissions. */
	text: Line(LIMITS.submission).nullable(),
});
export type Submission = z.infer<typeof Submission>;

export const NoticeVersion = z.object({
	/** The source's own name for this version: OCDS release id, `<notice id>-<VersionID>` (eForms), SAM noticeId. */
	label: z.string().min(1).max(LIMITS.id),
	/** When the source issued this version (release date, eForms issue date-time, SAM postedDate). */
	released_at: UtcInstant.nullable(),
	/** Versions of one notice order by comparing these strings (code-unit order); see versions.ts. */
	sort_key: z.string().min(1).max(LIMITS.sortKey),
	/** The label of the version this one replaces, when the source says (eForms ChangedNoticeIdentifier). */
	supersedes: z.string().max(LIMITS.id).nullable(),
	/** What the source says changed (eForms change descriptions and reason, OCDS amendment rationale). */
	note: Line(LIMITS.note).nullable(),
});
export type NoticeVersion = z.infer<typeof NoticeVersion>;

export const NormalizedNotice = z.object({
	source: NoticeSource,
	/** Stable within the source across versions: SAM solicitation number, OCDS ocid, eForms ContractFolderID. */
	source_id: z.string().min(1).max(LIMITS.id),
	/** What users call the solicitation: the buyer's reference when there is one, else the source's id. */
	rfp_id: z.string().min(1).max(LIMITS.id),
	/** The buyer's own reference (trimmed), null when the source states none. */
	reference_number: z.string().min(1).max(LIMITS.id).nullable(),
	title: z.string().min(1).max(LIMITS.title),
	issuing_body: Line(LIMITS.title),
	/** Clean text: no markup, entities decoded, whitespace collapsed, paragraphs separated by "\n". */
	description: z.string().max(LIMITS.description),
	/** The language the notice says its text is in (ISO 639-1: OCDS `language`, TED LG_ORIG, eForms NoticeLanguageCode); absent when it says none. */
	language: z
		.string()
		.regex(/^[a-z]{2}$/)
		.optional(),
	/** Where the full description lives when the feed only links to it (SAM.gov). */
	description_url: HttpUrl.nullable(),
	notice_type: Line(100).nullable(),
	procurement_category: ProcurementCategory.nullable(),
	/** The procedure as the feed's structured fields state it; null when they state none. Defaults to null for notices from older clients. */
	procedure: Procedure.nullable().default(null),
	items: z.array(NoticeItem).max(LIMITS.items),
	/** The lots the source declares; absent when it declares none, so notices without them keep their content hash. */
	lots: z.array(NoticeLot).max(LIMITS.lots).optional(),
	/** How the winner is chosen; absent when the source states nothing. */
	award_criteria: AwardCriteria.optional(),
	/** When the contract runs; absent when the feed states none, so notices without it keep their content hash. */
	contract_period: ContractPeriod.optional(),
	/** The dates the buyer plans (contract start and end, deliveries, meetings); absent when the feed lists none. */
	milestones: z.array(Milestone).max(LIMITS.milestones).optional(),
	/** A publisher's own text fields (ExtensionField); absent when it has none. */
	extensions: z.array(ExtensionField).max(LIMITS.extensions).optional(),
	/** Every classification of the notice and its items, one entry per (scheme, code). */
	categories: z.array(Category).max(LIMITS.categories),
	deadline: UtcInstant.nullable(),
	/** The deadline as the buyer wrote it: local wall time and UTC offset ("2038-01-29T13:00+02:00"). */
	deadline_local: LocalTime.nullable().optional(),
	published_at: UtcInstant.nullable(),
	/** Until when bidders may ask questions: OCDS tender.enquiryPeriod.endDate, eForms BT-13. Absent when the feed states none. */
	enquiry_deadline: UtcInstant.optional(),
	/** The same as the buyer wrote it, local wall time and UTC offset (like deadline_local). */
	enquiry_deadline_local: LocalTime.optional(),
	/** How and where to submit (Submission); absent when the feed's fields say nothing. */
	submission: Submission.optional(),
	estimated_value: z.number().finite().nonnegative().nullable(),
	/** The lowest value the buyer states (OCDS tender.minValue), beside or instead of the estimate; absent when not stated. */
	minimum_value: Money.optional(),
	currency: z
		.string()
		.regex(/^[A-Z]{3}$/)
		.nullable(),
	set_aside: SetAside.nullable(),
	eligibility: Line(LIMITS.eligibility).nullable(),
	place_of_performance: Place.nullable(),
	contacts: z.array(Contact).max(LIMITS.contacts),
	documents: z.array(NoticeDocument).max(LIMITS.documents),
	status: NoticeStatus,
	version: NoticeVersion,
	/** The notice's page at the source, when known. */
	source_url: HttpUrl.nullable(),
	/** Keys under which the same solicitation from another feed is recognised (dedupe.ts). */
	dedupe_keys: z.array(z.string().min(1).max(LIMITS.dedupeKey)).max(LIMITS.dedupeKeys),
});
export type NormalizedNotice = z.infer<typeof NormalizedNotice>;

/** A record the parser skipped: its position in the feed and/or its id there, and why. */
export interface Rejection {
	index?: number;
	ref?: string;
	reason: string;
}

export interface ParseResult {
	notices: NormalizedNotice[];
	rejected: Rejection[];
}
