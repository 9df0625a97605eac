import { ASK_HISTORY_TURNS_USED, type AskTurn } from "../../shared/contract/opportunities.ts";
import { splitSentences } from "./text.ts";

// The grounding of one question: the notice (normalized text, items, structured fields and
// amendments), the signals matching extracted from it, and the company's side (profile, matched
// product, eligibility verdict), as short labelled passages. Both answerers read the same
// passages: the extractive one retrieves and quotes them, the language model gets them rendered
// between delimiters as data.
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
	categories?: { scheme: string; code: string; label?: string }[];
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
	| "reference"
	| "buyer"
	| "description"
	| "item"
	| "deadline"
	| "value"
	| "category"
	| "eligibility"
	| "set_aside"
	| "place"
	| "contact"
	| "document"
	| "amendment"
	| "detail"
	| "signal";

export interface Passage {
	/** Position in reading order (answers quote in this order). */
	id: number;
	section: Section;
	text: string;
	/** The heading a list line sits under ("Minimum requirements (any manufacturer):"); retrieval context only. */
	lead?: string;
}

export interface Grounding {
	/** Notice passages (text, items, fields, amendments) and the extracted signals. */
	passages: Passage[];
	/** The company's side: profile, matched product, eligibility verdict. */
	company: string[];
	/** The buyer's name (its words are never the answer to "which manufacturer"). */
	buyer: string;
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
const INJECTION =
	/\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,60}\b(instructions?|prompts?|rules|guidelines|directions|context)\b|\bsystem prompt\b|\byou are (now )?(an? |the )?(ai|assistant|chatbot|language model|llm|gpt)\b|\b(as an ai|ai (assistant|model)|language model|chatgpt)\b|\breveal (your|the) (system )?(prompt|instructions)\b|^\s*(system|assistant)\s*:/i;

export function looksLikeInjection(sentence: string): boolean {
	return INJECTION.test(sentence);
}

const MAX_PASSAGE = 1_500;
const MAX_DETAIL_LINES = 400;
const clip = (s: string, n = MAX_PASSAGE) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.replace(/\s+/g, " ").trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : null);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const label = (key: string) => key.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

export function formatNumber(n: number): string {
	return n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** "February 9, 2027, 16:00 UTC" from an ISO instant (UTC: the notice's own wording gives local time). */
export function formatInstant(iso: string): string {
	const d = new Date(iso);
	if (Number.isNaN(d.getTime())) return iso;
	const date = d.toLocaleDateString("en-US", { timeZone: "UTC", month: "long", day: "numeric", year: "numeric" });
	const time = d.toLocaleTimeString("en-GB", { timeZone: "UTC", hour: "2-digit", minute: "2-digit" });
	return `${date}, ${time} UTC`;
}

class Builder {
	readonly passages: Passage[] = [];
	readonly dropped: string[] = [];

	add(section: Section, text: string | null, lead?: string): void {
		if (!text) return;
		const clean = text.replace(/\s+/g, " ").trim();
		if (!clean) return;
		if (looksLikeInjection(clean)) {
			this.dropped.push(clean);
			return;
		}
		this.passages.push({ id: this.passages.length, section, text: clip(clean), ...(lead ? { lead } : {}) });
	}

	/** Free text: one passage per sentence; list lines keep the heading they sit under as their lead. */
	addText(section: Section, text: string | null): void {
		if (!text) return;
		let lead: string | undefined;
		for (const sentence of splitSentences(text)) {
			const listLine = /^([-•*▪·]|\(?\d{1,2}[.)]\s|\(?[a-z][.)]\s|CLIN\b|Lot\s+\d)/i.test(sentence);
			if (!listLine) lead = undefined;
			this.add(section, sentence, listLine ? lead : undefined);
			if (/:\s*$/.test(sentence) && sentence.length < 160) lead = sentence;
		}
	}
}

function itemLine(item: Record<string, unknown>, n: number): string | null {
	const description = str(item.description) ?? str(item.name) ?? str(item.title);
	if (!description) return null;
	const quantity = typeof item.quantity === "number" ? formatNumber(item.quantity) : str(item.quantity);
	const unit = isRecord(item.unit) ? str(item.unit.name) : str(item.unit);
	const lot = str(item.lot);
	const c = isRecord(item.classification) ? item.classification : null;
	const code = c ? [str(c.scheme), str(c.code) ?? str(c.id), str(c.label) ?? str(c.description)].filter(Boolean).join(" ") : null;
	return [`Item ${n}: ${description}`, quantity ? `quantity ${quantity}${unit ? ` ${unit}` : ""}` : null, lot ? `lot ${lot}` : null, code ? `classification ${code}` : null]
		.filter(Boolean)
		.join("; ");
}

function placeLine(p: unknown): string | null {
	if (!isRecord(p)) return str(p);
	const parts = [p.text, p.streetAddress, p.city, p.locality, p.region, p.postal_code, p.postalCode, p.country, p.countryName].map(str).filter((x): x is string => x !== null);
	return parts.length ? [...new Set(parts)].join(", ") : null;
}

function contactLine(c: unknown): string | null {
	if (!isRecord(c)) return str(c);
	const parts = [c.name, c.role, c.email, c.phone, c.telephone].map(str).filter(Boolean);
	return parts.length ? `Contact: ${parts.join(", ")}` : null;
}

function amendmentLine(a: unknown, n: number): string | null {
	if (!isRecord(a)) return str(a) ? `Amendment ${n}: ${str(a)}` : null;
	const when = str(a.at) ?? str(a.released_at) ?? str(a.date);
	const name = str(a.version) ?? str(a.label) ?? str(a.id);
	const what = [a.summary, a.note, a.rationale, a.description].map(str).filter(Boolean);
	if (!what.length) return null;
	return `Amendment${name ? ` ${name}` : ` ${n}`}${when ? ` (${when.slice(0, 10)})` : ""}: ${[...new Set(what)].join(". ")}`;
}

const KNOWN_DETAIL_KEYS = new Set([
	"items",
	"contacts",
	"documents",
	"place_of_performance",
	"set_aside",
	"eligibility",
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

function addDetails(b: Builder, details: Record<string, unknown>): void {
	const items = Array.isArray(details.items) ? details.items.filter(isRecord) : [];
	items.slice(0, 200).forEach((item, i) => b.add("item", itemLine(item, i + 1)));
	b.add("place", placeLine(details.place_of_performance) ? `Place of performance: ${placeLine(details.place_of_performance)}` : null);
	const setAside = details.set_aside;
	if (isRecord(setAside)) {
		const text = [str(setAside.text), str(setAside.code) ? `(code ${str(setAside.code)})` : null].filter(Boolean).join(" ");
		b.add("set_aside", text ? `Set-aside: ${text}` : null);
	} else b.add("set_aside", str(setAside) ? `Set-aside: ${str(setAside)}` : null);
	if (str(details.eligibility)) b.addText("eligibility", `Eligibility: ${str(details.eligibility)}`);
	for (const c of Array.isArray(details.contacts) ? details.contacts.slice(0, 20) : []) b.add("contact", contactLine(c));
	for (const d of Array.isArray(details.documents) ? details.documents.slice(0, 100) : []) {
		if (isRecord(d)) b.add("document", `Document: ${[str(d.title), str(d.url)].filter(Boolean).join(", ")}`);
	}
	for (const key of ["amendments", "versions", "history"]) {
		const list = Array.isArray(details[key]) ? (details[key] as unknown[]) : [];
		list.slice(-50).forEach((a, i) => b.add("amendment", amendmentLine(a, i + 1)));
	}
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
	const specs = isRecord(p.specs) ? Object.entries(p.specs).map(([k, v]) => `${k} ${str(v) ?? (typeof v === "boolean" ? (v ? "yes" : "no") : "")}`.trim()) : Array.isArray(p.specs) ? p.specs.map((x) => (isRecord(x) ? `${str(x.key) ?? ""} ${str(x.value) ?? ""}`.trim() : str(x))).filter(Boolean) : [];
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

function companyLines(opportunity: AskOpportunity | null | undefined, profile: Record<string, unknown> | null | undefined, product: Record<string, unknown> | null | undefined): string[] {
	const lines: string[] = [];
	const keep = (line: string | null) => {
		if (line && !looksLikeInjection(line)) lines.push(clip(line.replace(/\s+/g, " ").trim(), 600));
	};
	if (profile) {
		keep(str(profile.company_name) ? `Company: ${str(profile.company_name)}` : null);
		const certs = Array.isArray(profile.certifications) ? profile.certifications : [];
		const certText = certs
			.map((c) => (isRecord(c) ? [str(c.name), str(c.expires_at) ? `expires ${str(c.expires_at)!.slice(0, 10)}` : null].filter(Boolean).join(", ") : str(c)))
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
		keep(parts.length ? `Best-matching product in the company's catalog: ${parts.join("; ")}` : "Best-matching product in the company's catalog: none");
		if (product) keep(productLine(product));
		if (typeof opportunity.eligible === "boolean") keep(`Matching judged the company ${opportunity.eligible ? "eligible" : "not eligible"} to bid (set-asides, certifications and partner authorization against the notice)`);
		if (typeof opportunity.score === "number") {
			const why = (opportunity.rationale ?? []).slice(0, 6).map((r) => `${r.feature} ${r.points > 0 ? "+" : ""}${r.points} (${r.detail})`);
			keep(`Match score: ${opportunity.score} of 100${why.length ? `; because: ${why.join("; ")}` : ""}`);
		}
	}
	return lines;
}

export function buildGrounding({ notice, opportunity, profile, product }: GroundingInput): Grounding {
	const b = new Builder();
	const n: AskNotice = notice ?? { title: opportunity?.title ?? "", deadline: opportunity?.deadline ?? null };
	b.add("title", str(n.title) ? `Title: ${str(n.title)}` : null);
	const ref = str(n.reference_number) ?? str(n.rfp_id);
	b.add("reference", ref ? `Solicitation number: ${ref}` : null);
	b.add("buyer", str(n.issuing_body) ? `Issued by: ${str(n.issuing_body)}` : null);
	b.addText("description", n.description ?? null);
	if (n.deadline) b.add("deadline", `Response deadline on record: ${formatInstant(n.deadline)}`);
	if (typeof n.estimated_value === "number") b.add("value", `Estimated value on record: ${n.currency ? `${n.currency} ` : ""}${formatNumber(n.estimated_value)}`);
	const codes = (n.categories ?? []).map((c) => [c.scheme, c.code, c.label ? `(${c.label})` : ""].filter(Boolean).join(" "));
	b.add("category", codes.length ? `Classification codes: ${codes.join(", ")}` : null);
	if (str(n.source_status) && n.source_status !== "open") b.add("detail", `Status at the source: ${n.source_status}`);
	b.add("document", str(n.source_url) ? `Notice page: ${str(n.source_url)}` : null);
	if (n.details) addDetails(b, n.details);
	if (opportunity?.signals) addSignals(b, opportunity.signals);
	return { passages: b.passages, company: companyLines(opportunity, profile, product), buyer: str(n.issuing_body) ?? "", dropped: b.dropped };
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

/** The grounding as the delimited data blocks of a language model's system prompt. */
export function renderContext(g: Grounding, maxChars = 24_000): { notice: string; company: string } {
	const lines: string[] = [];
	let used = 0;
	for (const p of g.passages) {
		const line = `[${p.section}] ${defang(p.text)}`;
		if (used + line.length > maxChars) break;
		lines.push(line);
		used += line.length + 1;
	}
	return { notice: lines.join("\n"), company: g.company.map(defang).join("\n") };
}
