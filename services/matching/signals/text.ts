import { sentencesOf } from "../../../shared/text/index.ts";
import { LIMITS, type SignalsInput } from "./input.ts";

// Normalization and sentence splitting for notice text. Untrusted input: every field is cut to a
// fixed length before any other work, the splitter is a single linear scan, and the patterns used
// by the rule modules have no nested unbounded quantifiers (gaps are bounded, e.g. [^.;]{0,60}).

export type Part = "title" | "set_aside" | "description" | "item";

export interface Sentence {
	/** The sentence as written (whitespace and punctuation normalized). */
	text: string;
	/** Lower-cased text, the form the rules match against. */
	lower: string;
	part: Part;
	/** Order of the sentence in the notice (title first). */
	index: number;
}

export interface PreparedItem {
	text: string;
	lower: string;
	quantity: number | null;
	unit: string | null;
}

export interface PreparedProcedure {
	kind: string | null;
	competition: "open" | "restricted" | null;
	/** The source's words, else its code: the evidence an explanation shows. */
	evidence: string | null;
	framework: "agreement" | "call_off" | null;
}

export interface PreparedNotice {
	title: string;
	titleLower: string;
	description: string;
	setAsideText: string;
	setAsideCode: string | null;
	issuingBody: string;
	items: PreparedItem[];
	categories: { scheme: string; code: string }[];
	/** The structured procedure, when the feed states one. */
	procedure: PreparedProcedure | null;
	/** The structured contract nature: goods, services, works, or null. */
	procurementCategory: "goods" | "services" | "works" | null;
	/** Title, set-aside text, description and item lines, split into sentences. */
	sentences: Sentence[];
	/** Lower-cased title + set-aside + description + items, for whole-notice cues. */
	all: string;
}

const MAX_SENTENCE_CHARS = 1_500;
const MAX_SENTENCES = 4_000;

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;

/** Cut, NFKC-normalize, straighten quotes and dashes, drop control and bidi characters, collapse blanks. */
export function normalizeText(value: unknown, maxChars: number): string {
	if (typeof value !== "string" || value.length === 0) return "";
	let s = value.length > maxChars ? value.slice(0, maxChars) : value;
	s = s.normalize("NFKC");
	if (s.length > maxChars) s = s.slice(0, maxChars);
	s = s
		.replace(/\r\n?|[\u2028\u2029\u0085]/g, "\n")
		.replace(CONTROL, "")
		.replace(/[\u2018\u2019\u201A\u201B\u2032`]/g, "'")
		.replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
		.replace(/[\u2010-\u2015\u2212]/g, "-")
		.replace(/\u2026/g, "...")
		.replace(/[\t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, " ")
		.replace(/ {2,}/g, " ")
		.replace(/ *\n */g, "\n")
		.replace(/\n{3,}/g, "\n\n");
	return s.trim();
}

/** Collapse all whitespace (including line breaks) to single spaces. */
export function oneLine(s: string): string {
	return s.replace(/\s+/g, " ").trim();
}

/** Split normalized text into sentences (shared/text's splitter), each cut to a bounded length. */
export function splitSentences(text: string): string[] {
	const raw = sentencesOf(text).slice(0, MAX_SENTENCES);
	const out: string[] = [];
	for (const r of raw) {
		let s = r.trim();
		while (s.length > MAX_SENTENCE_CHARS) {
			const cut = s.lastIndexOf(" ", MAX_SENTENCE_CHARS);
			const at = cut > MAX_SENTENCE_CHARS / 2 ? cut : MAX_SENTENCE_CHARS;
			out.push(s.slice(0, at).trim());
			s = s.slice(at).trim();
		}
		if (/[A-Za-z]{2}/.test(s)) out.push(s);
	}
	return out.slice(0, MAX_SENTENCES);
}

/** Clauses of a sentence: the parts between semicolons. */
export function clauses(sentence: string): string[] {
	return sentence.split(/; ?/).filter((c) => c.length > 0);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | null {
	const v = typeof value === "string" ? value.trim().toLowerCase() : "";
	return (allowed as readonly string[]).includes(v) ? (v as T) : null;
}

function prepareProcedure(p: unknown): PreparedProcedure | null {
	if (p === null || typeof p !== "object") return null;
	const src = p as Record<string, unknown>;
	const kind = oneLine(normalizeText(src.kind, 60)).toLowerCase() || null;
	const competition = oneOf(src.competition, ["open", "restricted"] as const);
	const evidence = oneLine(normalizeText(src.text, 500)) || oneLine(normalizeText(src.code, 100)) || null;
	const framework = oneOf(src.framework, ["agreement", "call_off"] as const);
	return kind === null && competition === null && framework === null ? null : { kind, competition, evidence, framework };
}

function finiteOrNull(n: unknown): number | null {
	return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/** Bound, normalize and split a notice once; every rule module reads this. */
export function prepare(input: SignalsInput): PreparedNotice {
	const src = (input ?? {}) as Partial<SignalsInput>;
	const title = oneLine(normalizeText(src.title, LIMITS.titleChars));
	const description = normalizeText(src.description, LIMITS.descriptionChars);
	const setAsideText = oneLine(normalizeText(src.set_aside_text, LIMITS.setAsideChars));
	const rawCode = normalizeText(src.set_aside_code, LIMITS.codeChars);
	const issuingBody = oneLine(normalizeText(src.issuing_body, LIMITS.issuingBodyChars));
	const items: PreparedItem[] = [];
	for (const it of Array.isArray(src.items) ? src.items.slice(0, LIMITS.itemCount) : []) {
		if (it === null || typeof it !== "object") continue;
		const text = oneLine(normalizeText(it.description, LIMITS.itemChars));
		if (text.length === 0) continue;
		const unit = oneLine(normalizeText(it.unit, 60));
		items.push({ text, lower: text.toLowerCase(), quantity: finiteOrNull(it.quantity), unit: unit || null });
	}
	const categories: { scheme: string; code: string }[] = [];
	for (const c of Array.isArray(src.categories) ? src.categories.slice(0, LIMITS.categoryCount) : []) {
		if (c === null || typeof c !== "object") continue;
		const scheme = normalizeText(c.scheme, 20).toUpperCase();
		const code = normalizeText(c.code, 40).toUpperCase();
		if (scheme && code) categories.push({ scheme, code });
	}

	const sentences: Sentence[] = [];
	const push = (part: Part, texts: string[]) => {
		for (const text of texts) {
			if (sentences.length >= MAX_SENTENCES) return;
			sentences.push({ text, lower: text.toLowerCase(), part, index: sentences.length });
		}
	};
	if (title) push("title", [title]);
	if (setAsideText) push("set_aside", splitSentences(setAsideText));
	push("description", splitSentences(description));
	push(
		"item",
		items.map((i) => i.text),
	);

	const all = [title, setAsideText, description, ...items.map((i) => i.text)].join("\n").toLowerCase();
	return {
		title,
		titleLower: title.toLowerCase(),
		description,
		setAsideText,
		setAsideCode: rawCode ? rawCode.toUpperCase().replace(/[^A-Z0-9]/g, "") : null,
		issuingBody,
		items,
		categories,
		procedure: prepareProcedure(src.procedure),
		procurementCategory: oneOf(src.procurement_category, ["goods", "services", "works"] as const),
		sentences,
		all,
	};
}

/** The first match of any pattern in the text, or null. */
export function firstMatch(text: string, patterns: readonly RegExp[]): RegExpExecArray | null {
	for (const p of patterns) {
		p.lastIndex = 0;
		const m = p.exec(text);
		if (m) return m;
	}
	return null;
}

/** A short excerpt around a match, for explanations. */
export function excerpt(text: string, at = 0, len = 160): string {
	const start = Math.max(0, at - 40);
	const s = text.slice(start, start + len).trim();
	return (start > 0 ? "…" : "") + s + (start + len < text.length ? "…" : "");
}
