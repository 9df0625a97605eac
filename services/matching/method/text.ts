import { sentencesOf, stopwordsOf } from "../../../shared/text/index.ts";
import { stem, stemSet } from "./stem.ts";
import { expandVocabulary } from "./vocabulary.ts";

export { stem, stemSet };

// Text normalization and tokenization shared by indexing and scoring. Both sides of every
// comparison go through the same functions, so stemming mistakes cancel out instead of
// making two spellings of one word disagree.

/**
 * Procurement boilerplate that says nothing about what is bought, as written and as stems (lists
 * are checked against both); function words come from the stopword package (isStopword).
 */
const BOILERPLATE = (
	"etc ie eg i ii iii iv " +
	"offeror offerors quote quotes quotation quotations bid bids bidder bidders tender tenders tenderer tenderers vendor vendors " +
	"contractor contractors government agency authority department office proposal proposals solicitation notice clin clins " +
	"lot lots line lines item items qty quantity quantities ea each unit units required requirement requirements include included " +
	"including provide provided provides furnish furnished deliver delivered delivery shall must minimum maximum least approximately " +
	"approx following follows per new applicable accordance award awarded awards contract contracts"
).split(/\s+/);

// Lists are checked against words as written and against their stems.
function wordsAndStems(words: readonly string[]): ReadonlySet<string> {
	return new Set([...words, ...words.map(stem)]);
}

/** Function words (the stopword package's English list) and procurement boilerplate, as written and as stems. */
export const STOPWORDS: ReadonlySet<string> = wordsAndStems([...stopwordsOf("en"), ...BOILERPLATE]);

/** Words that occur in descriptions of nearly anything; they neither identify a product type nor a requirement. */
export const GENERIC: ReadonlySet<string> = wordsAndStems(
	(
		"system equipment product item unit model series type kit set accessory various complete standard option optional base " +
		"year month day week warranty support replacement refresh purchase procurement acquisition supply brand name equal equivalent " +
		"approved manufacturer oem spare additional existing current compatible configured configuration capability capable " +
		"general professional site government subject facility building program quality performance solution device " +
		"hardware use user management technical specification spec feature capacity range rate level grade class category " +
		"group part component module new like plus pro"
	).split(/\s+/),
);

/** NFKC, lower case, one kind of dash, micro sign as "u", degree signs dropped, "4x1G" split as "4 x 1g". */
export function normalizeText(s: string): string {
	return (
		s
			.normalize("NFKC")
			.toLowerCase()
			.replace(/[\u2010-\u2015\u2212]/g, "-")
			.replace(/[µμ]/g, "u")
			.replace(/[°º˚]/g, " ")
			// "4x1G", "384x288" are dimensions; "ZR-4410X7" (digits glued to a part number) is not.
			.replace(/(?<![\w.-])(\d+)\s*x\s*(?=\d)/g, "$1 x ")
	);
}

// A number with thousands separators ("1,000") is one token; decimals stay ("2.5").
const TOKEN_RE = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|[a-z0-9]+(?:\.\d+)?/g;

export interface RawToken {
	text: string;
	start: number;
	end: number;
}

/** Tokens of already-normalized text, with offsets (so hyphenated compounds can be recognized). */
export function rawTokens(normalized: string): RawToken[] {
	const out: RawToken[] = [];
	for (const m of normalized.matchAll(TOKEN_RE)) {
		const start = m.index ?? 0;
		out.push({ text: m[0].replace(/,/g, ""), start, end: start + m[0].length });
	}
	return out;
}

/** Plain token list of a text (normalized, not stemmed). */
export function tokenize(s: string): string[] {
	return rawTokens(normalizeText(s)).map((t) => t.text);
}

export const isNumeric = (t: string): boolean => /^\d+(\.\d+)?$/.test(t);
export const hasDigit = (t: string): boolean => /\d/.test(t);

/**
 * A token that can carry meaning in a comparison: not a stop word, not a lone digit or letter,
 * not a bare one-digit number.
 */
export function isContent(t: string): boolean {
	if (STOPWORDS.has(t)) return false;
	if (isNumeric(t)) return t.replace(".", "").length >= 2;
	return t.length >= 2;
}

export interface Analysis {
	/** Stemmed tokens in order (stop words kept, so phrases can be found). */
	seq: string[];
	/** Content tokens plus hyphen compounds ("bench-top" -> "benchtop") and vocabulary expansions. */
	bag: Set<string>;
}

/** Everything the comparisons need from one piece of text. */
export function analyze(text: string): Analysis {
	const norm = normalizeText(text);
	const raw = rawTokens(norm);
	const seq = raw.map((t) => stem(t.text));
	const bag = new Set<string>();
	for (const t of seq) if (isContent(t)) bag.add(t);
	for (let i = 0; i + 1 < raw.length; i++) {
		const a = raw[i];
		const b = raw[i + 1];
		if (!a || !b) continue;
		// "bench-top", "wi-fi", "rack-mount": also as one word, the other common spelling.
		if (b.start === a.end + 1 && norm[a.end] === "-" && /^[a-z]+$/.test(a.text) && /^[a-z]+$/.test(b.text)) bag.add(stem(a.text + b.text));
	}
	for (const extra of expandVocabulary(seq, bag)) bag.add(extra);
	return { seq, bag };
}

/** Sentences and list lines of a longer text (shared/text's segmenter; list bullets dropped). */
export function sentences(text: string): string[] {
	return text
		.split(/\r?\n+/)
		.flatMap((line) => sentencesOf(line.replace(/^\s*(?:[-*•]\s+|\d{1,2}[.)]\s+)/, "")))
		.filter((s) => s.length > 0);
}
