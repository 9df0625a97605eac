import { stem } from "./stem.ts";
import { expandVocabulary } from "./vocabulary.ts";

export { stem };

// Text normalization and tokenization shared by indexing and scoring. Both sides of every
// comparison go through the same functions, so stemming mistakes cancel out instead of
// making two spellings of one word disagree.

/** Function words and procurement boilerplate that say nothing about what is bought. */
export const STOPWORDS: ReadonlySet<string> = new Set(
	(
		"a an and or of the to in on at by for from with without within into onto per via as is are was were be been being " +
		"this that these those it its their there here which who whom whose what when where how all any each every both either " +
		"neither no not nor only own same so than too very can will shall should would could may might must do does did done " +
		"has have had having up down out over under again further then once about above below between through during before after " +
		"such other some most more less least few many much also etc ie eg i ii iii iv we our you your they them he she his her " +
		"offeror offerors quote quotes quotation quotations bid bids bidder bidders tender tenders tenderer tenderers vendor vendors " +
		"contractor contractors government agency authority department office proposal proposals solicitation notice clin clins " +
		"lot lots line lines item items qty quantity quantities ea each unit units required requirement requirements include included " +
		"including provide provided provides furnish furnished deliver delivered delivery shall must minimum maximum least approximately " +
		"approx following follows per new applicable accordance award awarded awards contract contracts"
	).split(/\s+/),
);

/** Words that occur in descriptions of nearly anything; they neither identify a product type nor a requirement. */
export const GENERIC: ReadonlySet<string> = new Set(
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
	return s
		.normalize("NFKC")
		.toLowerCase()
		.replace(/[\u2010-\u2015\u2212]/g, "-")
		.replace(/[µμ]/g, "u")
		.replace(/[°º˚]/g, " ")
		// "4x1G", "384x288" are dimensions; "ZR-4410X7" (digits glued to a part number) is not.
		.replace(/(?<![\w.-])(\d+)\s*x\s*(?=\d)/g, "$1 x ");
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

/** Sentences and list lines of a longer text (newlines, bullets and sentence ends split). */
export function sentences(text: string): string[] {
	const out: string[] = [];
	for (const line of text.split(/\r?\n+/)) {
		const body = line.replace(/^\s*(?:[-*•]\s+|\d{1,2}[.)]\s+)/, "");
		for (const s of body.split(/(?<=[.!?;])\s+(?=[A-Z0-9"(])/)) {
			const t = s.trim();
			if (t.length > 0) out.push(t);
		}
	}
	return out;
}
