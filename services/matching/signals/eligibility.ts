import type { BidEligibility } from "../../../shared/contract/opportunities.ts";
import { competitionOf, type ProcedureKindName, procedureNamedIn } from "../../../shared/procedure-names.ts";
import type { NoticeKind } from "./notice-kind.ts";
import { clauses, type PreparedNotice } from "./text.ts";

// Who may bid: structure first, text second. Order of precedence (first that applies wins):
//  1. a structured set-aside code (SAM.gov codes and plain names);
//  2. the notice is an intent to award without competition (sole source, direct award) -> restricted;
//  3. a market-research notice (sources sought, RFI) -> unknown: its set-aside talk is hypothetical
//     (so is SAM.gov's "no set-aside" on it); a procedure code or label still counts (a prior
//     information notice that calls for competition under an open procedure is open);
//  4. a set-aside statement in the text -> its kind (the most specific kind stated wins:
//     8(a) > HUBZone > SDVOSB > WOSB/EDWOSB > other (VOSB, Indian enterprise, AbilityOne...) > small
//     business): a set-aside or reserved contract says more about who may bid than the procedure;
//  5. the structured procedure (feeds/procedure.ts in opportunities): an open procedure or a US
//     unrestricted notice -> open; any other known procedure -> restricted (restricted or negotiated
//     procedures, competitive dialogue, innovation partnership, qualification systems, call-offs and
//     mini-competitions under a framework, negotiated procedures without a call, direct awards);
//  6. a sole-source statement elsewhere, an incumbent-only competition, or a justification for other
//     than full and open competition that is not about a brand name -> restricted;
//  6b. a sentence names the notice's procedure, in any EU language (shared/procedure-names.ts: "åpen
//     anbudskonkurranse", "konkurranse med forhandling", "procedura aperta") -> open or restricted;
//  7. the notice says it is open (full and open, unrestricted, open procedure, open to all, all/any
//     qualified vendors may bid, not set aside, "Set-Aside: None") -> open;
//  8. otherwise unknown.
// "Brand name only" restricts the product, not the bidders (any authorized reseller may quote), so it
// does not by itself make the notice restricted; it shows in requires_oem_documentation instead. For
// the same reason an OCDS `limited` method on a brand-name purchase that is no sole-source award is
// read as the US limited-sources (brand-name) justification, not as a closed list of bidders: the
// text decides.
//
// The rule names tell the two kinds of restricted procedure apart for whoever reads the explanation:
// `procedure_restricted` (a call for competition was published: any supplier may ask to take part)
// and `procedure_closed` (no call: only the suppliers the buyer picked, or a framework's members).

export interface EligibilityResult {
	value: BidEligibility;
	rule: string;
	evidence: string | null;
}

type SetAsideKind = Exclude<BidEligibility, "open" | "restricted" | "unknown">;

const CODE_MAP: Record<string, BidEligibility> = {
	SBA: "small_business",
	SBP: "small_business",
	SB: "small_business",
	SMALLBUSINESS: "small_business",
	TOTALSMALLBUSINESS: "small_business",
	TOTALSMALLBUSINESSSETASIDE: "small_business",
	PARTIALSMALLBUSINESSSETASIDE: "small_business",
	ESB: "small_business",
	"8A": "8a",
	"8ASETASIDE": "8a",
	HZC: "hubzone",
	HUBZONE: "hubzone",
	HUBZONESETASIDE: "hubzone",
	SDVOSBC: "sdvosb",
	SDVOSB: "sdvosb",
	SDVOSBSETASIDE: "sdvosb",
	WOSB: "wosb",
	EDWOSB: "wosb",
	WOSBSETASIDE: "wosb",
	EDWOSBSETASIDE: "wosb",
	VSA: "other_set_aside",
	VOSB: "other_set_aside",
	IEE: "other_set_aside",
	ISBEE: "other_set_aside",
	BICIV: "other_set_aside",
	LAS: "other_set_aside",
	// Sole-source awards under a program: one named firm gets the award.
	"8AN": "restricted",
	HZS: "restricted",
	SDVOSBS: "restricted",
	WOSBSS: "restricted",
	EDWOSBSS: "restricted",
	VSS: "restricted",
};

// A clause that reserves the competition for a class of firms.
const SET_ASIDE_TRIGGER = new RegExp(
	[
		String.raw`\bcompetitive 8 ?\(a\)|\b8 ?\(a\) competitive\b|\bset[- ]?asides?\b|\bset aside\b|\breserved (for|to)\b|\brestricted to\b`,
		String.raw`\blimited to\b|\bexclusively (for|to)\b|\bcompetition is limited\b|\boffers? (received )?from other than\b`,
		String.raw`\bquotes? (received )?from other than\b`,
		String.raw`\bonly [^.;]{0,60}\b(may|will be|are eligible to) (submit|quote|bid|respond|considered|eligible)\b`,
		String.raw`\breserved contract\b|\bsheltered (workshops?|employment)\b`,
	].join("|"),
);

// The clause denies a set-aside or only imagines one.
const NOT_SET_ASIDE = new RegExp(
	[
		String.raw`\bnot (be |been )?(a )?set[- ]?aside\b|\bnot an? [^.;]{0,40}\bset[- ]?aside\b|\bno set[- ]?asides?\b`,
		String.raw`\bwithout (a )?set[- ]?aside\b|\bnot (be )?reserved\b|\bset[- ]?asides? (does|do|will) not apply\b`,
		String.raw`\bset[- ]?aside( type| code)?\s?:\s?(none|n\/a|no)\b`,
	].join("|"),
);
const HYPOTHETICAL = new RegExp(
	[
		String.raw`\bmay\b(?! (submit|quote|bid|respond|offer|participate|compete|apply|tender)\b)`,
		String.raw`\b(might|could|would|whether|if|potential(ly)?|possible|possibly|determine|considering|consider)\b`,
		String.raw`\bwill be withdrawn\b|\bre-?solicit`,
	].join("|"),
);
const PREFERENCE_ONLY = /\bprice evaluation preference\b|\bencourag/;

const KINDS: [SetAsideKind | "vosb", RegExp][] = [
	["8a", /\b8 ?\(a\)|\b8a\b/],
	["hubzone", /\bhub ?zone\b|\bhistorically underutilized business zone\b/],
	["sdvosb", /\bservice[- ]disabled\b|\bsdvosbs?\b|\bsdvobs?\b|\bdisabled veteran/],
	["wosb", /\bwom[ae]n[- ]owned\b|\b(ed)?wosbs?\b/],
	["vosb", /(?<!disabled[- ])\bveteran[- ]owned\b|\bvosbs?\b|\bveterans first\b/],
	[
		"other_set_aside",
		new RegExp(
			[
				String.raw`\bindian (small business )?economic enterprises?\b|\bbuy indian\b|\bindian[- ]owned\b|\btribal(ly)?[- ]owned\b`,
				String.raw`\bnative (american|hawaiian)[- ]owned\b|\balaska native\b|\babilityone\b|\bsheltered (workshops?|employment)\b`,
				String.raw`\bsupported (employment|business)\b|\bsocial enterprises?\b|\bdisadvantaged (business|person)|\bminority[- ]owned\b`,
				String.raw`\blocal (area )?(business|firms?|vendors?|set[- ]aside)\b|\bhistorically underutilized business(es)?\b(?! zone)`,
				String.raw`\bhub vendors?\b|\bdisabilit(y|ies)\b|\breserved contract\b`,
			].join("|"),
		),
	],
	["small_business", /\bsmall[- ]business(es)?\b|\bsmall (business )?concerns?\b|\bsb set[- ]?aside\b|\bsmall and medium/],
];

const KIND_RANK: Record<SetAsideKind, number> = {
	"8a": 6,
	hubzone: 5,
	sdvosb: 4,
	wosb: 3,
	other_set_aside: 2,
	small_business: 1,
};

const VOSB = /(?<!disabled[- ])\bveteran[- ]owned\b|\bvosbs?\b/;
const SDVOSB = /\bservice[- ]disabled\b|\bsdvosbs?\b/;

function kindOfClause(clause: string): SetAsideKind | null {
	// A set-aside for veteran-owned firms names service-disabled ones too ("VOSB/SDVOSB"): the wider
	// class is the set-aside.
	if (VOSB.test(clause) && SDVOSB.test(clause) && !/\b8 ?\(a\)|\bhub ?zone\b/.test(clause)) return "other_set_aside";
	for (const [kind, re] of KINDS) {
		if (re.test(clause)) return kind === "vosb" ? "other_set_aside" : kind;
	}
	return null;
}

/** The set-aside kind a clause states, if it states one (not denied, not hypothetical, not a mere preference). */
export function setAsideKind(clause: string): SetAsideKind | null {
	const m = SET_ASIDE_TRIGGER.exec(clause);
	if (!m || NOT_SET_ASIDE.test(clause)) return null;
	const around = clause.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60);
	if (HYPOTHETICAL.test(around) || PREFERENCE_ONLY.test(around)) return null;
	return kindOfClause(clause);
}

const OPEN = [
	/(?<!\bother than |\bnot |\bnon-)\bfull and open (competition|basis|procedures?|competitive)\b(?! after exclusion)/,
	/\bcompeted (on a |under |using )?full and open\b/,
	/\bopen procedure\b/,
	/\bopen to all\b/,
	/\bopen to any (qualified|interested|responsible|responsive|registered)\b/,
	/\ball (responsible|interested|qualified|registered|eligible) (sources|offerors|vendors|bidders|firms|suppliers|contractors) (may|are invited to|can) (submit|respond|quote|bid|tender)\b/,
	/\bopen (competition|competitive (bidding|tender(ing)?)|tender(ing)? procedure)\b/,
	new RegExp(
		String.raw`\bany (interested|qualified|responsible|responsive|registered|eligible) ` +
			String.raw`(party|parties|vendors?|firms?|bidders?|offerors?|suppliers?|contractors?|sources?) ` +
			String.raw`(may|can|is invited to|are invited to) (submit|bid|quote|respond|tender)\b`,
	),
];
const UNRESTRICTED = /\bunrestricted\b/;
const UNRESTRICTED_CONTEXT =
	/\b(acquisition|procurement|solicitation|competition|requirement|bid|tender|rfq|rfp|ifb|contract|basis|this is)\b/;

const INCUMBENT_ONLY = /\blimited to the incumbent\b|\bincumbent (contractor |vendor )?only\b|\bonly the incumbent\b/;
const OTHER_THAN_FULL_AND_OPEN = /\bother than full and open competition\b/;
const BRAND_NAME = /\bbrand[- ]name\b|\bbrand[- ]specific\b/;

/** Procedures without a call for competition that a supplier could answer. */
export const CLOSED_PROCEDURES: ReadonlySet<string> = new Set(["limited", "call_off", "negotiated_without_call", "direct_award"]);

/** What the structured procedure says, or null when it says nothing usable here. */
function fromProcedure(n: PreparedNotice, kind: NoticeKind): EligibilityResult | null {
	const p = n.procedure;
	if (!p || p.competition === null) return null;
	if (p.competition === "open") return result("open", "procedure_open", p.evidence);
	if (p.kind === "limited" && BRAND_NAME.test(n.all) && !kind.soleSourceMention) return null;
	const closed = p.framework === "call_off" || (p.kind !== null && CLOSED_PROCEDURES.has(p.kind));
	return result("restricted", closed ? "procedure_closed" : "procedure_restricted", p.evidence);
}

function result(value: BidEligibility, rule: string, evidence: string | null): EligibilityResult {
	return { value, rule, evidence };
}

export function detectEligibility(n: PreparedNotice, kind: NoticeKind): EligibilityResult {
	if (n.setAsideCode) {
		const mapped = CODE_MAP[n.setAsideCode];
		if (mapped) return result(mapped, "set_aside_code", n.setAsideCode);
	}

	if (kind.soleSourceNotice) return result("restricted", "sole_source_notice", kind.soleSourceEvidence);
	const procedure = fromProcedure(n, kind);
	if (kind.marketResearch) {
		const stated = procedure !== null && n.procedure?.kind !== "unrestricted";
		return stated ? procedure : result("unknown", "market_research_notice", kind.marketResearchEvidence);
	}

	let best: { kind: SetAsideKind; evidence: string } | null = null;
	let open: string | null = null;
	let restricted: { rule: string; evidence: string } | null = null;
	let otherThanFullAndOpen: string | null = null;
	let named: { kind: string; evidence: string } | null = null;

	for (const s of n.sentences) {
		for (const clause of clauses(s.lower)) {
			const k = setAsideKind(clause);
			if (k && (best === null || KIND_RANK[k] > KIND_RANK[best.kind])) best = { kind: k, evidence: s.text };
			if (open === null) {
				if (OPEN.some((re) => re.test(clause)) || NOT_SET_ASIDE.test(clause)) open = s.text;
				else if (UNRESTRICTED.test(clause) && (clause.length < 40 || UNRESTRICTED_CONTEXT.test(clause))) open = s.text;
			}
			if (restricted === null && INCUMBENT_ONLY.test(clause)) restricted = { rule: "incumbent_only", evidence: s.text };
			if (otherThanFullAndOpen === null && OTHER_THAN_FULL_AND_OPEN.test(clause)) otherThanFullAndOpen = s.text;
		}
		if (named === null) {
			const k = procedureNamedIn(s.text);
			if (k) named = { kind: k, evidence: s.text };
		}
	}

	if (best) return result(best.kind, "set_aside_text", best.evidence);
	if (procedure) return procedure;
	if (kind.soleSourceMention) return result("restricted", "sole_source", kind.soleSourceEvidence);
	if (restricted) return result("restricted", restricted.rule, restricted.evidence);
	if (otherThanFullAndOpen && !BRAND_NAME.test(n.all)) return result("restricted", "other_than_full_and_open", otherThanFullAndOpen);
	if (named) return result(competitionOf(named.kind as ProcedureKindName) ?? "unknown", "procedure_named", named.evidence);
	if (open) return result("open", "open_competition", open);
	return result("unknown", "silent", null);
}
