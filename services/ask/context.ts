import { ASK_HISTORY_TURNS_USED, type AskTurn } from "../../shared/contract/opportunities.ts";
import { cpvLabel } from "../../shared/taxonomy/index.ts";
import { declaredUnlessContradicted, sentencesOf, type TextLanguage } from "../../shared/text/index.ts";
import type { Field } from "./concepts.ts";

// The grounding of one question: the normalized notice's structured fields as named facts
// (deadline with its zone, value and currency, procedure, lots and items, place, contacts,
// documents, codes with their labels), its text as sentences in its own language, amendments,
// the signals matching extracted, and the company's side (profile, matched product, eligibility
// verdict). Both answerers read the same grounding: the offline one answers from the facts first
// and quotes sentences; the language model gets it all rendered between delimiters as data.
//
// Notice and catalog text come from outside (feeds, imports) and are untrusted. Sentences that
// address an AI model ("ignore previous instructions ...") are dropped here, before either
// answerer sees them; everything else is data and only ever quoted.

/** The notice as the opportunities service hands it to ask (its NoticeForReading), read defensively. */
export interface AskNotice {
	title: string;
	issuing_body?: string;
	description?: string;
	rfp_id?: string;
	reference_number?: string;
	deadline?: string | null;
	categories?: { scheme: string; code: string; label?: string; as_published?: string }[];
	estimated_value?: number | null;
	currency?: string | null;
	source_url?: string | null;
	source_status?: string;
	details?: Record<string, unknown>;
}

/** The parts of the opportunity detail ask reads (OpportunityDetail, read defensively). */
export interface AskOpportunity {
	title?: string;
	eligible?: boolean;
	product_match?: Record<string, unknown>;
	signals?: Record<string, unknown> | null;
	score?: number | null;
	rationale?: { feature: string; points: number; detail: string }[];
	deadline?: string | null;
	source_status?: string;
}

export type Section =
	| "title"
	| "description"
	| "item"
	| "lot"
	| "criteria"
	| "eligibility"
	| "submission"
	| "amendment"
	| "detail"
	| "signal";

export interface Passage {
	/** Position in reading order (answers quote in this order). */
	id: number;
	section: Section;
	text: string;
	/** The heading a list line sits under, or the item a sentence describes; retrieval context only. */
	lead?: string;
	/** The item (index in `facts` items) a sentence belongs to. */
	item?: number;
}

/** One value of a structured field, rendered, with the field named. */
export interface Fact {
	field: Field;
	/** The field's name as the answer shows it ("deadline", "items[3]"). */
	name: string;
	text: string;
	/** Items: the item's own description (what a "how many X" is matched against). */
	about?: string;
	/** Items: whether the source gives a quantity. */
	quantity?: number | null;
}

export interface Grounding {
	/** The notice's language: the one it declares unless its text clearly says otherwise, else detected (language.ts). */
	lang: TextLanguage;
	/** Structured fields, one fact per value. */
	facts: Fact[];
	/** Notice passages (text, item descriptions, amendments, other details) and the extracted signals. */
	passages: Passage[];
	/** The company's side: profile, matched product, eligibility verdict. */
	company: string[];
	/** The buyer's name and the reference: never the answer to "which manufacturer / model". */
	known: string;
	/** Sentences dropped because they address an AI model rather than bidders. */
	dropped: string[];
}

export interface GroundingInput {
	notice: AskNotice | null;
	opportunity?: AskOpportunity | null;
	/** The company profile (catalog.getProfile), when the catalog answered. */
	profile?: Record<string, unknown> | null;
	/** The matched catalog product in full (catalog.getProduct), when the catalog answered. */
	product?: Record<string, unknown> | null;
}

// Text that speaks to a model instead of to bidders: instructions to ignore instructions, role
// play, prompt talk. Legitimate notices never address "previous instructions" or "the assistant".
const INJECTION = new RegExp(
	[
		"\\b(ignore|disregard|forget|override|bypass)\\b[^.\\n]{0,60}\\b(instructions?|prompts?|rules|guidelines|directions|context)\\b",
		"\\bsystem prompt\\b",
		"\\byou are (now )?(an? |the )?(ai|assistant|chatbot|language model|llm|gpt)\\b",
		"\\b(as an ai|ai (assistant|model)|language model|chatgpt)\\b",
		"\\breveal (your|the) (system )?(prompt|instructions)\\b",
		"^\\s*(system|assistant)\\s*:",
	].join("|"),
	"i",
);

export function looksLikeInjection(sentence: string): boolean {
	return INJECTION.test(sentence);
}

const MAX_PASSAGE = 1_500;
const MAX_DETAIL_LINES = 400;
const clip = (s: string, n = MAX_PASSAGE) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const str = (v: unknown): string | null =>
	typeof v === "string" && v.trim() ? v.replace(/\s+/g, " ").trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : null;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const label = (key: string) =>
	key
		.replace(/[_-]+/g, " ")
		.replace(/([a-z])([A-Z])/g, "$1 $2")
		.toLowerCase();

export function formatNumber(n: number): string {
	return n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** "2038-01-29 13:00 (UTC+02:00; 11:00 UTC)" from the stated local time, else the UTC instant. */
export function formatDeadline(utc: string, local?: string | null): string {
	const d = new Date(utc);
	if (Number.isNaN(d.getTime())) return utc;
	const inUtc = `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
	const m = local ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})([+-]\d{2}:\d{2})$/.exec(local) : null;
	if (!m) return inUtc;
	return m[3] === "+00:00" ? inUtc : `${m[1]} ${m[2]} (UTC${m[3]}; ${inUtc})`;
}

/** Abbreviations the sentence segmenter takes for sentence ends ("approx. NOK 20 million", "kl. 12.00"). */
const ABBREVIATIONS = [
	"approx",
	"appr",
	"incl",
	"excl",
	"inkl",
	"ekskl",
	"bzw",
	"ggf",
	"evtl",
	"usw",
	"etc",
	"vgl",
	"resp",
	"tel",
	"tlf",
	"ref",
	"nr",
	"no",
	"pkt",
	"ust",
	"godz",
	"kl",
	"ca",
	"tj",
	"np",
	"ok",
	"vs",
	"gt",
	"str",
	"ul",
	"al",
	"art",
	"par",
	"inc",
	"ltd",
	"co",
	"st",
	"dr",
	"mr",
	"mrs",
	"ms",
	"jan",
	"feb",
	"mar",
	"apr",
	"jun",
	"jul",
	"aug",
	"sep",
	"sept",
	"oct",
	"nov",
	"dec",
];
const ABBREVIATION = new RegExp(`(?:^|\\s)(?:\\p{Lu}|(?:\\p{L}\\.){1,3}\\p{L}|${ABBREVIATIONS.join("|")})\\.$`, "iu");

/** Rejoins pieces the segmenter split after an abbreviation or before a lower-case or numeric continuation. */
function repairSentences(out: string[], piece: string): string[] {
	const prev = out[out.length - 1];
	if (prev !== undefined && (ABBREVIATION.test(prev) || COUNTED_PIECES.test(prev) || ENUMERATOR.test(prev) || /^[\p{Ll}\d]/u.test(piece)))
		out[out.length - 1] = `${prev} ${piece}`;
	else out.push(piece);
	return out;
}

/**
 * A count of pieces alone ("14 stk.", "3 pcs.", "10 szt.") is the start of a list line, not a sentence: the segmenter reads
 * the abbreviation's period as the end of one and cuts the count from what it counts ("14 stk." / "Co2 incubatorskap").
 */
const COUNTED_PIECES = /^\P{L}{0,3}\d[\d .,]*\s*(?:stk|pcs|pc|szt|ks|kpl|stck|buc|uds|pz|kom|st)\.$/iu;

/** A list's number alone ("1.", "2)", "iv.") opens its line: what follows is the entry, not a new sentence. */
const ENUMERATOR = /^\(?(?:\d{1,3}|[ivx]{1,4})[.)]$/iu;

/** Where links sit in a line: a sentence boundary inside one ("...aspx?ID=147570") is none. */
const LINK = /\b(?:https?:\/\/|www\.)\S+/giu;

/** The line's sentences, with any cut made inside a link undone (the piece after it rejoined as the line wrote it). */
function sentencesKeepingLinks(line: string, lang: TextLanguage): string[] {
	const pieces = sentencesOf(line, lang);
	const links = [...line.matchAll(LINK)].map((m) => [m.index, m.index + m[0].length] as const);
	if (!links.length || pieces.length < 2) return pieces;
	const out: string[] = [];
	let from = 0;
	let prevEnd = -1;
	for (const piece of pieces) {
		const at = line.indexOf(piece, from);
		if (at < 0) return pieces;
		const cut = links.some(([a, b]) => prevEnd > a && at < b && at >= prevEnd);
		if (cut && out.length) out[out.length - 1] += line.slice(prevEnd, at) + piece;
		else out.push(piece);
		prevEnd = at + piece.length;
		from = prevEnd;
	}
	return out;
}

/**
 * Feeds that wrap their text at a fixed width ("... har en estimert verdi på mellom" / "kr. 7.000.000 - 12.000.000 eksklusive
 * mva.") cut sentences at line ends: a line ending without punctuation continues on the next when that one opens in lower
 * case, or with a figure after a line of running text (not a list's line: a list's lines each open with their own count).
 */
function unwrapLines(lines: string[]): string[] {
	const out: string[] = [];
	let inList = false;
	for (const raw of lines) {
		const line = raw.trimEnd();
		const prev = out[out.length - 1];
		const open = prev !== undefined && prev.trim() !== "" && !/[.:;!?)\]»"'”]$/u.test(prev.trim());
		const lower = /^\s*\p{Ll}/u.test(line) && !/^\s*\p{Ll}[).]\s/u.test(line);
		const figure = /^\s*\d/u.test(line) && !inList && (prev ?? "").trim().split(/\s+/).length >= 5 && /\p{Ll}$/u.test((prev ?? "").trim());
		if (open && line.trim() && (lower || figure)) out[out.length - 1] = `${prev!.trimEnd()} ${line.trim()}`;
		else out.push(line);
		if (!line.trim()) inList = false;
		else if (/:\s*$/.test(line)) inList = true;
	}
	return out;
}

class Builder {
	readonly passages: Passage[] = [];
	readonly dropped: string[] = [];

	constructor(private readonly lang: TextLanguage) {}

	add(section: Section, text: string | null, extra: { lead?: string; item?: number } = {}): void {
		if (!text) return;
		const clean = text.replace(/\s+/g, " ").trim();
		if (!clean) return;
		if (looksLikeInjection(clean)) {
			this.dropped.push(clean);
			return;
		}
		// Converted notices repeat the description as the one lot's description: one copy is enough.
		if (section !== "title" && this.passages.some((p) => p.text === clean && p.section !== "title")) return;
		this.passages.push({
			id: this.passages.length,
			section,
			text: clip(clean),
			...(extra.lead ? { lead: extra.lead } : {}),
			...(extra.item !== undefined ? { item: extra.item } : {}),
		});
	}

	/**
	 * Free text: one passage per sentence. Lines under a heading that ends with a colon keep it as
	 * their lead ("Wadium w wysokości:" above "Część 1: 19 000,00 zł;"), until a blank line or a new
	 * heading.
	 */
	addText(section: Section, text: string | null, extra: { lead?: string; item?: number } = {}): void {
		if (!text) return;
		let lead: string | undefined;
		// Paragraphs some feeds run together without a space ("plassering.Konkurransegrunnlaget") are two sentences.
		const spaced = text.replace(/(\p{Ll}{2})\.(\p{Lu}\p{Ll})/gu, "$1. $2");
		for (const line of unwrapLines(spaced.split(/\r?\n/))) {
			if (!line.trim()) {
				lead = undefined;
				continue;
			}
			for (const sentence of sentencesKeepingLinks(line, this.lang).reduce(repairSentences, [])) {
				this.add(section, sentence, { ...extra, lead: lead ?? extra.lead });
			}
			if (/:\s*$/.test(line.trim()) && line.length < 240) lead = line.trim();
			else if (line.length >= 240) lead = undefined;
		}
	}
}

function placeLine(p: unknown): string | null {
	if (!isRecord(p)) return str(p);
	const parts = [p.text, p.streetAddress, p.city, p.locality, p.region, p.postal_code, p.postalCode, p.country, p.countryName]
		.map(str)
		.filter((x): x is string => x !== null);
	return parts.length ? [...new Set(parts)].join(", ") : null;
}

function amendmentLine(a: unknown, n: number): string | null {
	if (!isRecord(a)) return str(a) ? `Amendment ${n}: ${str(a)}` : null;
	if (a.action === "created") return null; // the notice as first stored: no change to report
	const when = str(a.at) ?? str(a.released_at) ?? str(a.date);
	const name = str(a.version) ?? str(a.label) ?? str(a.id);
	const what = [a.summary, a.note, a.rationale, a.description].map(str).filter(Boolean);
	if (!what.length) return null;
	return `Amendment${name ? ` ${name}` : ` ${n}`}${when ? ` (${when.slice(0, 10)})` : ""}: ${[...new Set(what)].join(". ")}`;
}

/** A code with its label: the feed's own, else the CPV label in the notice's language and English; and the code as published when it differs. */
function codeLine(c: { scheme: string; code: string; label?: string; as_published?: string }, lang: TextLanguage): string {
	const labels = [c.as_published, c.label];
	if (/^cpv$/i.test(c.scheme)) labels.push(cpvLabel(c.code, lang), cpvLabel(c.code, "en"));
	const named = [...new Set(labels.filter((l): l is string => !!l && !!l.trim()))];
	return `${c.scheme} ${c.code}${named.length ? ` (${named.join(" / ")})` : ""}`;
}

const KNOWN_DETAIL_KEYS = new Set([
	// The language the notice is written in, not the one tenders must be: read as the notice's language, never quoted.
	"language",
	"items",
	"contacts",
	"documents",
	"place_of_performance",
	"set_aside",
	"eligibility",
	"procedure",
	"procurement_category",
	"notice_type",
	"deadline_local",
	"enquiry_deadline",
	"enquiry_deadline_local",
	"submission",
	"minimum_value",
	"lots",
	"award_criteria",
	"contract_period",
	"milestones",
	"extensions",
	"source_note",
	"description_url",
	"versions",
	"history",
	"amendments",
	"dedupe_keys",
	"version",
	"content_hash",
]);

/** Any other detail, flattened to "key: value" lines: ingestion may add fields ask does not know yet. */
function flatten(value: unknown, path: string, out: string[], depth = 0): void {
	if (out.length >= MAX_DETAIL_LINES || depth > 4) return;
	const s = str(value);
	if (s !== null) {
		out.push(`${path}: ${s}`);
		return;
	}
	if (typeof value === "boolean") {
		out.push(`${path}: ${value ? "yes" : "no"}`);
		return;
	}
	if (Array.isArray(value)) {
		const flat = value.map(str);
		if (flat.every((x) => x !== null)) {
			if (flat.length) out.push(`${path}: ${flat.join(", ")}`);
			return;
		}
		value.slice(0, 50).forEach((v, i) => flatten(v, `${path} ${i + 1}`, out, depth + 1));
		return;
	}
	if (isRecord(value)) for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}, ${label(k)}` : label(k), out, depth + 1);
}

/** What services/opportunities/ingest.ts stores as the issuing body when the feed names none. */
const UNKNOWN_BUYER = "Unknown buyer";

/** What the procedure's framework value says, in words. */
const FRAMEWORK_WORDS: Record<string, string> = {
	agreement: "the notice sets up a framework agreement or a dynamic purchasing system",
	call_off: "the purchase is a call-off under a framework agreement",
};

/** A submission method code with its words when they differ ("inPerson (in person)"): the code is what the source states. */
function methodLine(code: string): string {
	const words = label(code);
	return words === code.toLowerCase() ? code : `${code} (${words})`;
}

/** How to submit (details.submission): the methods, the link and the source's own words. */
function submissionLine(s: unknown): string | null {
	if (!isRecord(s)) return str(s);
	const methods = Array.isArray(s.methods) ? s.methods.map(str).filter((m): m is string => m !== null) : [];
	const parts = [
		methods.length ? `method ${methods.map(methodLine).join(", ")}` : null,
		str(s.url) ? `at ${str(s.url)}` : null,
		str(s.text) ? `details: ${str(s.text)}` : null,
	].filter(Boolean);
	return parts.length ? parts.join("; ") : null;
}

/** A lot's title, else the start of its description, with its value: how a lot is named in the lots fact. */
function declaredLots(v: unknown): { id: string; about: string }[] {
	const lots = Array.isArray(v) ? v.filter(isRecord).slice(0, 200) : [];
	return lots.flatMap((l) => {
		const id = str(l.id);
		if (!id) return [];
		const value = isRecord(l.value) && typeof l.value.amount === "number" ? l.value : null;
		const worth = value ? `value ${str(value.currency) ? `${str(value.currency)} ` : ""}${formatNumber(value.amount as number)}` : null;
		const name = str(l.title) ?? (str(l.description) ? clip(str(l.description)!, 80) : null);
		return [{ id, about: [name, worth].filter(Boolean).join(", ") }];
	});
}

/** How the winner is chosen (details.award_criteria): the method code in words, the source's own words, each criterion with its weight. */
function awardCriteriaLine(v: unknown): string | null {
	if (!isRecord(v)) return null;
	const criteria = (Array.isArray(v.criteria) ? v.criteria.filter(isRecord) : []).slice(0, 100).map((c) => {
		const what = [str(c.type), str(c.name)].filter(Boolean).join(" ");
		const rest = [str(c.weight) ? `weight ${str(c.weight)}` : null, str(c.lot) ? `lot ${str(c.lot)}` : null].filter(Boolean);
		return `${what || clip(str(c.description) ?? "", 120)}${rest.length ? ` (${rest.join(", ")})` : ""}`;
	});
	const parts = [
		str(v.method) ? `method ${methodLine(str(v.method)!)}` : null,
		str(v.text) ? `details: ${str(v.text)}` : null,
		criteria.length ? `criteria: ${criteria.join("; ")}` : null,
	].filter(Boolean);
	return parts.length ? parts.join("; ") : null;
}

/** A stored instant as the day it names, with its time only when it has one ("2030-03-14", "2030-03-14 12:00 UTC"). */
function dayOf(instant: string, offset?: string | null): string {
	const dayOnly = (t: string) => {
		const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(t);
		return m && (m[2] === "00:00" || m[2] === "23:59") ? m[1]! : null;
	};
	const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(instant);
	if (!m) return instant;
	// A day the source wrote in its own time ("2031-11-09T00:00:00+04:00", stored as 20:00 UTC the day before) is that day.
	const local = offset ? inOffset(instant, offset) : null;
	return dayOnly(instant) ?? (local ? dayOnly(local) : null) ?? `${m[1]} ${m[2]} UTC`;
}

/**
 * The buyer's UTC offset as its own deadline states it ("2031-04-02T15:00:00+04:00"): stored instants are UTC, so a contract
 * ending on the buyer's 9 November would otherwise read "2031-11-08 20:00 UTC".
 */
function offsetOf(d: Record<string, unknown>): string | null {
	for (const local of [str(d.deadline_local), str(d.enquiry_deadline_local)]) {
		const m = local ? /([+-]\d{2}:\d{2})$/.exec(local) : null;
		if (m && m[1] !== "+00:00") return m[1]!;
	}
	return null;
}

/** A UTC instant written in the local time of a UTC offset ("+04:00"), as "YYYY-MM-DDTHH:MM". */
function inOffset(instant: string, offset: string): string | null {
	const t = new Date(instant).getTime();
	const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
	if (Number.isNaN(t) || !m) return null;
	const shift = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
	return new Date(t + shift).toISOString().slice(0, 16);
}

/** When the contract runs (details.contract_period): start, end, duration in days. */
function periodLine(v: unknown, offset: string | null): string | null {
	if (!isRecord(v)) return null;
	const parts = [
		str(v.start) ? `start ${dayOf(str(v.start)!, offset)}` : null,
		str(v.end) ? `end ${dayOf(str(v.end)!, offset)}` : null,
		str(v.duration) ? `duration ${str(v.duration)}` : typeof v.duration_days === "number" ? `duration ${v.duration_days} days` : null,
	].filter(Boolean);
	return parts.length ? parts.join("; ") : null;
}

/** A planned date (details.milestones) as a sentence in the source's words: "Contract start: Anticipated contract start date: 2030-03-14". */
function milestoneLine(m: Record<string, unknown>, offset: string | null): string | null {
	const words = [str(m.title), str(m.description)].filter((w): w is string => !!w);
	if (!words.length) return null;
	return `${words.join(": ")}${str(m.due) ? `: ${dayOf(str(m.due)!, offset)}` : ""}`;
}

/** The structured fields as facts, each naming its field. */
function factsOf(n: AskNotice, lang: TextLanguage): Fact[] {
	const facts: Fact[] = [];
	const d = n.details ?? {};
	const push = (field: Field, name: string, text: string | null, extra: Partial<Fact> = {}) => {
		if (text && !looksLikeInjection(text)) facts.push({ field, name, text: clip(text.replace(/\s+/g, " ").trim(), 600), ...extra });
	};
	if (n.deadline) push("deadline", "deadline", formatDeadline(n.deadline, str(d.deadline_local)));
	const enquiry = str(d.enquiry_deadline);
	if (enquiry) push("enquiry", "enquiry_deadline", formatDeadline(enquiry, str(d.enquiry_deadline_local)));
	push("submission", "submission", submissionLine(d.submission));
	// An electronic auction is one of the submission methods the feeds name.
	const methods = isRecord(d.submission) && Array.isArray(d.submission.methods) ? d.submission.methods.map(str) : [];
	if (methods.includes("electronicAuction")) push("auction", "submission.methods", methodLine("electronicAuction"));
	if (typeof n.estimated_value === "number")
		push("value", "estimated_value", `${n.currency ? `${n.currency} ` : ""}${formatNumber(n.estimated_value)}`);
	const minimum = isRecord(d.minimum_value) ? d.minimum_value : null;
	if (minimum && typeof minimum.amount === "number")
		push("value", "minimum_value", `${str(minimum.currency) ? `${str(minimum.currency)} ` : ""}${formatNumber(minimum.amount)}`);
	const procedure = isRecord(d.procedure) ? d.procedure : null;
	if (procedure) {
		const competition = str(procedure.competition) ? `competition ${str(procedure.competition)}` : null;
		const kind = [str(procedure.kind)?.replace(/_/g, " "), competition, str(procedure.framework)?.replace(/_/g, "-")].filter(Boolean);
		push(
			"procedure",
			"procedure",
			[str(procedure.text) ?? str(procedure.code), kind.length ? `(${kind.join("; ")})` : null].filter(Boolean).join(" "),
		);
		const framework = str(procedure.framework);
		push(
			"framework",
			"procedure.framework",
			framework ? `${framework.replace(/_/g, "-")} (${FRAMEWORK_WORDS[framework] ?? framework})` : null,
		);
	}
	const items = Array.isArray(d.items) ? d.items.filter(isRecord).slice(0, 200) : [];
	items.forEach((item, i) => {
		const description = str(item.description) ?? str(item.name) ?? str(item.title);
		if (!description) return;
		const quantity = typeof item.quantity === "number" ? item.quantity : null;
		const unit = isRecord(item.unit) ? str(item.unit.name) : str(item.unit);
		const lot = str(item.lot);
		const c = isRecord(item.classification) ? item.classification : null;
		const code =
			c && str(c.code)
				? codeLine(
						{
							scheme: str(c.scheme) ?? "",
							code: str(c.code)!,
							label: str(c.label) ?? str(c.description) ?? undefined,
							as_published: str(c.as_published) ?? undefined,
						},
						lang,
					)
				: null;
		const text = [
			clip(description, 400),
			quantity !== null ? `quantity ${formatNumber(quantity)}${unit ? ` ${unit}` : ""}` : null,
			lot ? `lot ${lot}` : null,
			code ? `classification ${code}` : null,
		]
			.filter(Boolean)
			.join("; ");
		push("items", `items[${i + 1}]`, text, { about: description, quantity });
	});
	// How the purchase is split: the lots the source declares, else the lots its items belong to (two or more; one splits nothing).
	const declared = declaredLots(d.lots);
	const lots = new Map<string, string>(declared.map((l) => [l.id, l.about]));
	if (!lots.size)
		for (const item of items) {
			const lot = str(item.lot);
			if (lot && !lots.has(lot)) lots.set(lot, clip(str(item.description) ?? str(item.name) ?? str(item.title) ?? "", 80));
		}
	if (lots.size >= 2)
		push("lots", "lots", `${lots.size} lots: ${[...lots].map(([id, about]) => (about ? `${id} (${about})` : id)).join("; ")}`);
	push("award_criteria", "award_criteria", awardCriteriaLine(d.award_criteria));
	push("period", "contract_period", periodLine(d.contract_period, offsetOf(d)));
	const place = placeLine(d.place_of_performance);
	push("place", "place_of_performance", place);
	for (const c of Array.isArray(d.contacts) ? d.contacts.filter(isRecord).slice(0, 20) : []) {
		push("contacts", "contacts", [c.name, c.role, c.email, c.phone, c.telephone].map(str).filter(Boolean).join(", ") || null);
	}
	// Ingestion stores a placeholder when the feed names no buyer: that states nothing.
	const buyer = str(n.issuing_body);
	push("buyer", "issuing_body", buyer === UNKNOWN_BUYER ? null : buyer);
	for (const doc of Array.isArray(d.documents) ? d.documents.filter(isRecord).slice(0, 100) : []) {
		push("documents", "documents", [str(doc.title), str(doc.url)].filter(Boolean).join(" — ") || null);
	}
	push("documents", "source_url", str(n.source_url));
	const ref = str(n.reference_number) ?? str(n.rfp_id);
	push("reference", "reference_number", ref);
	// The stored categories keep scheme, code and label; an item's classification also keeps the code as published.
	const published = new Map<string, string>();
	for (const item of items) {
		const c = isRecord(item.classification) ? item.classification : null;
		if (c && str(c.as_published)) published.set(`${str(c.scheme)} ${str(c.code)}`, str(c.as_published)!);
	}
	for (const c of n.categories ?? [])
		if (str(c.code))
			push("codes", "categories", codeLine({ ...c, as_published: c.as_published ?? published.get(`${c.scheme} ${c.code}`) }, lang));
	const setAside = d.set_aside;
	if (isRecord(setAside))
		push(
			"eligibility",
			"set_aside",
			[str(setAside.text), str(setAside.code) ? `(code ${str(setAside.code)})` : null].filter(Boolean).join(" ") || null,
		);
	else push("eligibility", "set_aside", str(setAside));
	push("eligibility", "eligibility", str(d.eligibility));
	return facts;
}

function addDetails(b: Builder, details: Record<string, unknown>, facts: Fact[]): void {
	// Item descriptions are text too: their sentences can answer what the item facts do not.
	const items = Array.isArray(details.items) ? details.items.filter(isRecord) : [];
	items.slice(0, 200).forEach((item, i) => {
		const description = str(item.description) ?? str(item.name) ?? str(item.title);
		if (description)
			b.addText("item", String(item.description ?? description), {
				lead: clip(description, 120),
				item: facts.findIndex((f) => f.name === `items[${i + 1}]`),
			});
	});
	// Declared lots' own descriptions and the award criteria's words are text too ("Lot 2 covers ...", "quality 60 %").
	for (const lot of Array.isArray(details.lots) ? details.lots.filter(isRecord).slice(0, 200) : []) {
		const lead = [str(lot.id) ? `lot ${str(lot.id)}` : null, str(lot.title)].filter(Boolean).join(": ");
		if (str(lot.title)) b.add("lot", `${str(lot.id) ? `Lot ${str(lot.id)}: ` : ""}${str(lot.title)}`, { lead });
		if (str(lot.description)) b.addText("lot", String(lot.description), { lead });
	}
	const award = isRecord(details.award_criteria) ? details.award_criteria : null;
	if (award && str(award.text)) b.addText("criteria", String(award.text));
	for (const c of award && Array.isArray(award.criteria) ? award.criteria.filter(isRecord).slice(0, 100) : []) {
		const lead = [str(c.type), str(c.name)].filter(Boolean).join(" ");
		if (str(c.description)) b.addText("criteria", String(c.description), lead ? { lead } : {});
	}
	if (str(details.eligibility)) b.addText("eligibility", String(details.eligibility));
	// The source's own words on submitting often say more than how (a briefing, whom to ask): they are text too.
	const submission = isRecord(details.submission) ? details.submission : null;
	if (submission && str(submission.text)) b.addText("submission", String(submission.text));
	// A publisher's own fields are text under their own name ("Timeframe delivery: 20 Weeks").
	for (const e of Array.isArray(details.extensions) ? details.extensions.filter(isRecord).slice(0, 20) : [])
		if (str(e.name) && str(e.text)) b.addText("detail", `${str(e.name)}: ${str(e.text)}`);
	// Planned dates are sentences: a question on one ("when does the contract end") finds it by its own words.
	for (const m of Array.isArray(details.milestones) ? details.milestones.filter(isRecord).slice(0, 50) : [])
		b.add("detail", milestoneLine(m, offsetOf(details)));
	// So are the contract period's two ends, in the same words: "when does the contract end?" names them.
	const period = isRecord(details.contract_period) ? details.contract_period : null;
	for (const [end, words] of [
		["start", "Contract start"],
		["end", "Contract end"],
	] as const)
		if (period && str(period[end])) b.add("detail", `${words}: ${dayOf(str(period[end])!, offsetOf(details))}`);
	for (const key of ["amendments", "versions", "history"]) {
		const list = Array.isArray(details[key]) ? (details[key] as unknown[]) : [];
		list.slice(-50).forEach((a, i) => b.add("amendment", amendmentLine(a, i + 1)));
	}
	// The source's own note on its latest version (an amendment published with the first version the service saw).
	const note = str(details.source_note);
	if (note && !b.passages.some((p) => p.section === "amendment" && p.text.includes(note)))
		b.add("amendment", `Amendment (as published): ${note}`);
	const rest: string[] = [];
	for (const [k, v] of Object.entries(details)) if (!KNOWN_DETAIL_KEYS.has(k)) flatten(v, label(k), rest);
	for (const line of rest) b.add("detail", line);
}

function addSignals(b: Builder, s: Record<string, unknown>): void {
	const say = (what: string, v: unknown) => {
		const text = Array.isArray(v) ? (v.length ? v.map(String).join(", ") : "none") : typeof v === "boolean" ? (v ? "yes" : "no") : str(v);
		if (text) b.add("signal", `Extracted from the notice, ${what}: ${text}`);
	};
	say("who may bid (bid eligibility)", typeof s.bid_eligibility === "string" ? s.bid_eligibility.replace(/_/g, " ") : s.bid_eligibility);
	say("mandatory certifications", s.mandatory_certifications);
	say("buys from the manufacturer or an authorized reseller only", s.requires_manufacturer);
	say("requires proof of OEM authorization", s.requires_oem_documentation);
	say("what is really being bought", s.actual_product_category);
	say("procurement nature", s.procurement_nature);
}

function productLine(p: Record<string, unknown>): string | null {
	const spec = (k: string, v: unknown) => `${k} ${str(v) ?? (typeof v === "boolean" ? (v ? "yes" : "no") : "")}`.trim();
	const listed = (x: unknown) => (isRecord(x) ? `${str(x.key) ?? ""} ${str(x.value) ?? ""}`.trim() : str(x));
	const specs = isRecord(p.specs)
		? Object.entries(p.specs).map(([k, v]) => spec(k, v))
		: Array.isArray(p.specs)
			? p.specs.map(listed).filter(Boolean)
			: [];
	const codes = Array.isArray(p.commodity_codes) ? p.commodity_codes.map(str).filter(Boolean) : [];
	const parts = [
		str(p.oem_name) ? `manufacturer ${str(p.oem_name)}` : null,
		str(p.name) ? `name ${str(p.name)}` : null,
		str(p.model) ? `model ${str(p.model)}` : null,
		str(p.description) ? `description ${clip(str(p.description)!, 400)}` : null,
		specs.length ? `specs ${specs.slice(0, 30).join("; ")}` : null,
		codes.length ? `codes ${codes.join(", ")}` : null,
		str(p.status) ? `status ${str(p.status)}` : null,
	].filter(Boolean);
	return parts.length ? `Matched product in the catalog: ${parts.join("; ")}` : null;
}

function companyLines(
	opportunity: AskOpportunity | null | undefined,
	profile: Record<string, unknown> | null | undefined,
	product: Record<string, unknown> | null | undefined,
): string[] {
	const lines: string[] = [];
	const keep = (line: string | null) => {
		if (line && !looksLikeInjection(line)) lines.push(clip(line.replace(/\s+/g, " ").trim(), 600));
	};
	if (profile) {
		keep(str(profile.company_name) ? `Company: ${str(profile.company_name)}` : null);
		const certs = Array.isArray(profile.certifications) ? profile.certifications : [];
		const certText = certs
			.map((c) =>
				isRecord(c)
					? [str(c.name), str(c.expires_at) ? `expires ${str(c.expires_at)!.slice(0, 10)}` : null].filter(Boolean).join(", ")
					: str(c),
			)
			.filter(Boolean);
		keep(`Certifications the company holds: ${certText.length ? certText.join("; ") : "none on file"}`);
		for (const [key, what] of [
			["set_asides", "Set-aside statuses the company holds"],
			["naics_codes", "NAICS codes of the company"],
			["places_served", "Places the company serves"],
			["manufacturer_partners", "Manufacturers the company is authorized to resell"],
		] as const) {
			const list = Array.isArray(profile[key]) ? (profile[key] as unknown[]).map(str).filter(Boolean) : [];
			keep(`${what}: ${list.length ? list.join(", ") : "none on file"}`);
		}
	}
	if (opportunity) {
		const pm = opportunity.product_match ?? {};
		const parts = Object.entries(pm)
			.filter(([k]) => k !== "product_id")
			.map(([k, v]) => {
				const text = Array.isArray(v) ? v.map(str).filter(Boolean).join(", ") : str(v);
				return text ? `${label(k)} ${text}` : null;
			})
			.filter(Boolean);
		keep(
			parts.length
				? `Best-matching product in the company's catalog: ${parts.join("; ")}`
				: "Best-matching product in the company's catalog: none",
		);
		if (product) keep(productLine(product));
		const verdict = opportunity.eligible ? "eligible" : "not eligible";
		if (typeof opportunity.eligible === "boolean")
			keep(`Matching judged the company ${verdict} to bid (set-asides, certifications and partner authorization against the notice)`);
		if (typeof opportunity.score === "number") {
			const why = (opportunity.rationale ?? []).slice(0, 6).map((r) => `${r.feature} ${r.points > 0 ? "+" : ""}${r.points} (${r.detail})`);
			keep(`Match score: ${opportunity.score} of 100${why.length ? `; because: ${why.join("; ")}` : ""}`);
		}
	}
	return lines;
}

export function buildGrounding({ notice, opportunity, profile, product }: GroundingInput): Grounding {
	const n: AskNotice = notice ?? { title: opportunity?.title ?? "", deadline: opportunity?.deadline ?? null };
	// The items' descriptions count too: some feeds put all the text there ("Tender Ref 17/01725" and a list of goods).
	const itemText = (Array.isArray(n.details?.items) ? n.details.items : [])
		.map((i) => (isRecord(i) ? str(i.description) : null))
		.filter(Boolean)
		.join("\n");
	// The language the notice declares (details.language), since detection alone misreads short titles and languages the
	// toolkit does not know (Catalan declared Spanish); unless the text clearly says otherwise (English from a Norwegian publisher).
	const lang = declaredUnlessContradicted(`${n.title}\n${n.description ?? ""}\n${itemText}`, n.details?.language);
	const b = new Builder(lang);
	const facts = factsOf(n, lang);
	b.add("title", str(n.title));
	b.addText("description", n.description ?? null);
	if (str(n.source_status) && n.source_status !== "open") b.add("detail", `Status at the source: ${n.source_status}`);
	if (n.details) addDetails(b, n.details, facts);
	// A classification's label as the source published it says what is bought in its own words ("Truck, Light, Utility,
	// 4 X 4"): text too, once per label the passages do not already hold. Labels looked up in a taxonomy are not the notice's.
	for (const c of (n.categories ?? []).slice(0, 100)) {
		const label = str(c.label);
		if (label && !b.passages.some((p) => p.text.includes(label))) b.add("detail", `Classification: ${label}`);
	}
	if (opportunity?.signals) addSignals(b, opportunity.signals);
	const known = [str(n.issuing_body), str(n.reference_number), str(n.rfp_id)].filter(Boolean).join(" ");
	return { lang, facts, passages: b.passages, company: companyLines(opportunity, profile, product), known, dropped: b.dropped };
}

/** The history turns answerers use: the most recent ASK_HISTORY_TURNS_USED, oldest first. */
export function recentTurns(history: AskTurn[] | undefined): AskTurn[] {
	return (history ?? []).slice(-ASK_HISTORY_TURNS_USED);
}

export const DATA_OPEN = "<notice_data>";
export const DATA_CLOSE = "</notice_data>";
export const COMPANY_OPEN = "<company_data>";
export const COMPANY_CLOSE = "</company_data>";

/** Data never contains our delimiters: a notice cannot close the data block and speak as us. */
const defang = (s: string) => s.replace(/<\/?\s*(notice_data|company_data)\s*>/gi, "[tag removed]");

/** The grounding as the delimited data blocks of a language model's system prompt: fields first, then the text. */
export function renderContext(g: Grounding, maxChars = 24_000): { notice: string; company: string } {
	const lines: string[] = [];
	let used = 0;
	const all = [...g.facts.map((f) => `[field ${f.name}] ${defang(f.text)}`), ...g.passages.map((p) => `[${p.section}] ${defang(p.text)}`)];
	for (const line of all) {
		if (used + line.length > maxChars) break;
		lines.push(line);
		used += line.length + 1;
	}
	return { notice: lines.join("\n"), company: g.company.map(defang).join("\n") };
}
