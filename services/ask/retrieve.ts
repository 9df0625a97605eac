import type { TextLanguage } from "../../shared/text/index.ts";
import { conceptsIn, conceptTerm, isConceptTerm, type ConceptName } from "./concepts.ts";
import type { Grounding, Passage } from "./context.ts";
import type { SubjectTerm } from "./question.ts";
import { kindsIn, tokensOf, type Token, type ValueKind } from "./values.ts";

// The notice's sentences indexed for one grounding: Snowball stems in the notice's language (from
// shared/text), the concepts each sentence names (in its language and in English, which notices
// mix in), and, on demand, the kinds of value it holds. Sentences are ranked by BM25 over the
// question's subject terms (a term counts through any of its notice-language counterparts) and
// judged by how much of the subject they cover, IDF-weighted.

const K1 = 1.2;
/** Mild length normalization: long sentences are not worse answers, just longer. */
const B = 0.3;
/** A term that appears only in a sentence's heading (list heading, item name) counts this much. */
const LEAD_WEIGHT = 0.5;
/** The BM25 weight of a general word carried over from the question's language. */
const GENERAL_WEIGHT = 0.3;
/** Compounding languages: a subject word may sit inside a longer word of the notice. */
const COMPOUNDING = new Set<TextLanguage>(["de", "nl", "no", "da", "sv", "fi", "et", "hu"]);

export interface Indexed {
	passage: Passage;
	tokens: Token[];
	tf: Map<string, number>;
	length: number;
	/** The concepts a sentence names, with how many times. */
	concepts: Map<ConceptName, number>;
	kinds?: Set<ValueKind>;
}

export interface Index {
	lang: TextLanguage;
	docs: Indexed[];
	df: Map<string, number>;
	avgLength: number;
	/** Every stem of the notice (text and fields): what a translated question word may become. */
	vocabulary: Set<string>;
	/** Stems of the notice's title and opening sentence: what every sentence is about. */
	title: Map<string, number>;
	/** How many items the notice lists: with several, an item's sentences are about that item, not the whole notice. */
	items: number;
}

const cache = new WeakMap<Grounding, Index>();

/** Capitalized words in a row, spaces only between them ("Flexible Purchasing System"), and letters joined by dots ("U.P.S."). */
const CAPITALIZED_RUN = /\p{Lu}[\p{L}-]*(?:[ \t]+\p{Lu}[\p{L}-]*){2,}/gu;
const DOTTED = /\b(?:\p{L}\.){2,6}/gu;

/**
 * The acronyms a text spells out without writing them: the initials of a run of three to five capitalized words
 * ("Flexible Purchasing System": fps) and letters joined by dots ("U.P.S.": ups), lower-cased like the index's terms.
 */
export function acronymsOf(text: string): string[] {
	const out = new Set<string>();
	for (const m of text.matchAll(DOTTED)) out.add(m[0].replace(/\./g, "").toLowerCase());
	// Text in capitals throughout is a heading, not a run of names.
	if (text === text.toUpperCase()) return [...out];
	for (const m of text.matchAll(CAPITALIZED_RUN)) {
		const words = m[0].split(/[ \t]+/);
		// Every run of three to five of them: "North West SEND Flexible Purchasing System" holds "fps".
		const initials = words.map((w) => w[0]!.toLowerCase());
		for (let i = 0; i < initials.length; i++)
			for (let j = i + 3; j <= Math.min(initials.length, i + 5); j++) out.add(initials.slice(i, j).join(""));
	}
	return [...out];
}

export function indexOf(g: Grounding): Index {
	const hit = cache.get(g);
	if (hit) return hit;
	const df = new Map<string, number>();
	const vocabulary = new Set<string>();
	const langs: TextLanguage[] = g.lang === "en" ? ["en"] : [g.lang, "en"];
	const docs = g.passages.map((passage) => {
		const tokens = tokensOf(passage.text, g.lang);
		const tf = new Map<string, number>();
		for (const t of tokens) {
			tf.set(t.stem, (tf.get(t.stem) ?? 0) + 1);
			if (/\d/.test(t.word)) tf.set(t.word, (tf.get(t.word) ?? 0) + 1);
		}
		for (const t of passage.lead ? tokensOf(passage.lead, g.lang) : []) if (!tf.has(t.stem)) tf.set(t.stem, LEAD_WEIGHT);
		// "UPS" in a question names "Uninterruptible Power Supply (U.P.S.)" in the notice.
		for (const a of acronymsOf(passage.text)) if (!tf.has(a)) tf.set(a, 1);
		for (const t of tf.keys()) {
			df.set(t, (df.get(t) ?? 0) + 1);
			vocabulary.add(t);
		}
		const concepts = new Map<ConceptName, number>();
		for (const h of conceptsIn(`${passage.lead ? `${passage.lead}: ` : ""}${passage.text}`, langs).hits)
			concepts.set(h.concept, (concepts.get(h.concept) ?? 0) + 1);
		// A question word naming a concept finds the sentences naming it in their own words.
		for (const [c, n] of concepts) {
			tf.set(conceptTerm(c), n);
			df.set(conceptTerm(c), (df.get(conceptTerm(c)) ?? 0) + 1);
		}
		return { passage, tokens, tf, length: tokens.length, concepts };
	});
	for (const f of g.facts) for (const t of tokensOf(f.text, g.lang)) vocabulary.add(t.stem);
	// The title and the opening sentence say what the notice is about (who buys what, for whom):
	// every later sentence is read in their light.
	const context = new Map<string, number>();
	for (const d of [docs.find((d) => d.passage.section === "title"), docs.find((d) => d.passage.section === "description")])
		for (const t of d?.tf.keys() ?? []) context.set(t, 1);
	const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
	const items = new Set(g.passages.filter((p) => p.section === "item").map((p) => p.item)).size;
	const index = { lang: g.lang, docs, df, avgLength, vocabulary, title: context, items };
	cache.set(g, index);
	return index;
}

export function kindsOf(index: Index, doc: Indexed): Set<ValueKind> {
	doc.kinds ??= kindsIn(doc.passage.text, index.lang);
	return doc.kinds;
}

/** Inverse document frequency; a term absent from the notice gets the highest value (its absence matters most). */
export function idf(index: Index, term: string): number {
	const n = index.docs.length;
	const df = index.df.get(term) ?? 0;
	return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

const MIN_SHARED_PREFIX = 6;
function sharedPrefix(a: string, b: string): number {
	let i = 0;
	while (i < a.length && i < b.length && a[i] === b[i]) i++;
	return i;
}

/** How often a subject term (or one of its counterparts, or a compound holding it) occurs in a sentence. */
export function termFrequency(index: Index, tf: Map<string, number>, s: SubjectTerm): number {
	let best = tf.get(s.term) ?? 0;
	for (const a of s.alts) best = Math.max(best, tf.get(a) ?? 0);
	// A compound ends with its head ("oppvarmingsovner" is a kind of "ovn") and may begin with a longer word; so for a
	// word carried over from another language ("bouw" in "nieuwbouw").
	if (best === 0 && !s.literal && COMPOUNDING.has(index.lang)) {
		for (const term of [s.term, ...s.alts.filter((a) => !isConceptTerm(a))]) {
			if (term.length < 3) continue;
			for (const [t, n] of tf)
				if (t.length > term.length && !isConceptTerm(t) && (t.endsWith(term) || (term.length >= 5 && t.startsWith(term))))
					best = Math.max(best, n * 0.8);
		}
	}
	// Inflections the stemmer leaves apart ("transportida" / "transpordib"): a long shared beginning.
	if (best === 0 && !s.literal && s.term.length >= MIN_SHARED_PREFIX) {
		for (const [t, n] of tf)
			if (!isConceptTerm(t) && sharedPrefix(t, s.term) >= Math.max(MIN_SHARED_PREFIX, 0.75 * Math.min(t.length, s.term.length)))
				best = Math.max(best, n * 0.7);
	}
	return best;
}

/** The rarest form of a subject term in this notice: its IDF. */
function weightOf(index: Index, s: SubjectTerm): number {
	return Math.min(idf(index, s.term), ...s.alts.map((a) => idf(index, a)));
}

/**
 * A term's weight for coverage. In a short notice a word in every sentence has an IDF near zero,
 * which would let the question's other words decide alone: the weight never falls below this.
 */
const MIN_COVERAGE_WEIGHT = 1;

export function bm25(index: Index, doc: Indexed, subject: SubjectTerm[]): number {
	let total = 0;
	for (const s of subject) {
		const tf = termFrequency(index, doc.tf, s);
		if (tf === 0) continue;
		// A general word carried over from another language ("equipment" as "udstyr") ranks little: it says little.
		const w = weightOf(index, s) * s.weight * (s.optional && s.alts.length ? GENERAL_WEIGHT : 1);
		total += (w * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * doc.length) / Math.max(1, index.avgLength)));
	}
	return total;
}

/**
 * The IDF-weighted share of the subject a sentence accounts for: found in it, in its heading, or
 * in the notice's title (what every sentence is about). No subject terms: full coverage.
 */
export function coverage(index: Index, doc: Indexed, subject: SubjectTerm[], ignoreAbsent = false): number {
	let possible = 0;
	let covered = 0;
	for (const s of subject) {
		// A word the notice never uses weighs as a common one: it is as often an inflection or a verb
		// the stemmer could not meet as a subject the notice is silent on (topics are the concepts' job).
		const absent = weightOf(index, s) >= idf(index, "\u0000");
		if (absent && ignoreAbsent) continue;
		const w = (absent ? MIN_COVERAGE_WEIGHT : Math.max(MIN_COVERAGE_WEIGHT, weightOf(index, s))) * s.weight;
		// One item among several is no part of what the title says of the whole ("the framework's duration" is not an event's).
		const inContext = !(doc.passage.section === "item" && index.items > 1) && termFrequency(index, index.title, s) > 0;
		const found = termFrequency(index, doc.tf, s) > 0 || inContext;
		// A word the question's language could not carry over into the notice's counts only when found.
		if (!s.optional || found) possible += w;
		if (found) covered += w;
	}
	return possible > 0 ? covered / possible : 1;
}

/** Whether the sentence itself (not only the title) names some of the subject. */
export function namesSubject(index: Index, doc: Indexed, subject: SubjectTerm[]): boolean {
	return subject.some((s) => termFrequency(index, doc.tf, s) > 0);
}
