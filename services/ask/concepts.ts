// What a question asks about, in any language of the notices: the topics bid managers ask first
// (deadline, value, quantity, lots, place, contact, documents, procedure, duration, warranty...).
// Each concept is named by the ordinary procurement words for it in the EU languages and
// Norwegian (data/ask/glossary.json, matched on Snowball stems from shared/text, so inflections meet), and says
// which structured field answers it, what kind of value an answering sentence holds, and whether
// a notice silent on it simply does not state it. The glossary names the notions, not any notice's
// phrasing; the same words find the topic in a question and in the notice's sentences.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { foldOf, stemOf, TEXT_LANGUAGES, type TextLanguage } from "../../shared/text/index.ts";
import { tokensOf, VALUE_KINDS, type Token, type ValueKind } from "./values.ts";

export const CONCEPT_NAMES = [
	"deadline",
	"enquiry",
	"value",
	"rate",
	"quantity",
	"amount",
	"frequency",
	"procedure",
	"award",
	"evaluation",
	"lots",
	"place",
	"contact",
	"buyer",
	"documents",
	"information",
	"reference",
	"codes",
	"duration",
	"start",
	"option",
	"warranty",
	"security",
	"certification",
	"equivalent",
	"submission",
	"eligibility",
	"incumbent",
	"present",
	"site_visit",
	"delivery_time",
	"model",
	"name",
	"who",
	"when",
	"offer",
	"scope",
	"frame",
	"framework",
	"samples",
	"subcontracting",
	"consortium",
	"auction",
	"validity",
	"payment",
	"price",
	"size",
	"organisation",
	"agreement",
	"polar",
] as const;
export type ConceptName = (typeof CONCEPT_NAMES)[number];
/** Structured fields of the normalized notice a concept is answered from. */
export const FIELDS = [
	"deadline",
	"value",
	"items",
	"procedure",
	"place",
	"contacts",
	"buyer",
	"documents",
	"reference",
	"codes",
	"eligibility",
	"enquiry",
	"submission",
	"lots",
	"framework",
	"auction",
	"award_criteria",
	"period",
] as const;
export type Field = (typeof FIELDS)[number];

export interface Concept {
	name: ConceptName;
	/** How "The notice does not state ..." names the topic. */
	topic: string;
	/** The concept's words by language (phrases; "=word": that form only; a leading "?": in questions only). */
	words: Partial<Record<TextLanguage, string[]>>;
	/** An answering sentence holds one of these. */
	kinds?: ValueKind[];
	/** The structured fields that answer it, in order. */
	fields?: Field[];
	/** No field and no sentence on the topic: the notice does not state it. */
	required?: boolean;
	/** An answering sentence must name the topic itself, not only the question's subject. */
	cueRequired?: boolean;
	/** When a question names several concepts, the highest rank is what it asks; 0 only qualifies others. */
	rank: number;
	/** Its words are not looked for inside compounds ("Preismodell" is no model). */
	noCompounds?: boolean;
}

const GlossaryFile = z.object({
	about: z.string(),
	concepts: z.array(
		z
			.object({
				name: z.enum(CONCEPT_NAMES),
				topic: z.string(),
				rank: z.number().min(0),
				kinds: z.array(z.enum(VALUE_KINDS)).optional(),
				fields: z.array(z.enum(FIELDS)).optional(),
				required: z.boolean().optional(),
				cueRequired: z.boolean().optional(),
				noCompounds: z.boolean().optional(),
				words: z.partialRecord(z.enum(TEXT_LANGUAGES), z.array(z.string().min(1))),
			})
			.strict(),
	),
});

const EformsFile = z.object({
	concepts: z.partialRecord(z.enum(CONCEPT_NAMES), z.object({ words: z.record(z.string(), z.array(z.string().min(1))) })),
});

/**
 * The glossary's words with the eForms SDK's official names of the same notions (data/ask/eforms-terms.json, built by
 * scripts/build-eforms-terms.ts): a name of two words or more ("místo plnění", "tender validity") names the notion
 * unambiguously and is added in every language; a one-word name only where the glossary has no word for the concept in
 * that language, since alone it may be an everyday word ("možnosti" is "options" and "possibilities").
 */
export function withEformsTerms(concepts: Concept[], eforms: z.infer<typeof EformsFile>): Concept[] {
	return concepts.map((c) => {
		const extra = eforms.concepts[c.name]?.words;
		if (!extra) return c;
		const words = { ...c.words };
		for (const lang of TEXT_LANGUAGES) {
			const own = words[lang] ?? [];
			const add = (extra[lang] ?? []).filter((w) => (w.split(/\s+/).length > 1 || own.length === 0) && !own.includes(w));
			if (add.length) words[lang] = [...own, ...add];
		}
		return { ...c, words };
	});
}

const dataPath = (name: string) => resolve(import.meta.dirname, "../../data/ask", name);
const dataFile = (name: string): unknown => JSON.parse(readFileSync(dataPath(name), "utf8"));

/**
 * The eForms names where they were built here: they come out of a fetched snapshot of the SDK, and
 * nothing a snapshot brings is committed (data/ask/README.md), so a fresh checkout has none and
 * reads the glossary alone.
 */
export function eformsTerms(path = dataPath("eforms-terms.json")): z.infer<typeof EformsFile> {
	return existsSync(path) ? EformsFile.parse(JSON.parse(readFileSync(path, "utf8"))) : { concepts: {} };
}

/** The glossary (data/ask/glossary.json) with the eForms names where built, read once. */
export const CONCEPTS: Concept[] = withEformsTerms(GlossaryFile.parse(dataFile("glossary.json")).concepts, eformsTerms());

export const CONCEPT_BY_NAME = new Map(CONCEPTS.map((c) => [c.name, c]));

/** Languages whose nouns compound: a concept word may end or begin a longer word ("tilbudsfrist"). */
const COMPOUNDING = new Set<TextLanguage>(["de", "nl", "no", "da", "sv", "fi", "et", "hu"]);
/** A concept word found at the end of a longer word (its head: "enimmäisarvo") needs this many letters; at its start, one more. */
const MIN_COMPOUND_PART = 4;

interface Phrase {
	concept: ConceptName;
	stems: string[];
	/** "?word": read in questions only ("the current supplier" asks for the incumbent; "a current licence" in a notice is no answer). */
	questionOnly: boolean;
}
interface LanguageIndex {
	/** Phrases by their first stem. */
	byFirst: Map<string, Phrase[]>;
	/** One-word phrases long enough to be found inside compounds. */
	parts: Phrase[];
}

const indexes = new Map<TextLanguage, LanguageIndex>();

function indexFor(lang: TextLanguage): LanguageIndex {
	let idx = indexes.get(lang);
	if (idx) return idx;
	idx = { byFirst: new Map(), parts: [] };
	for (const c of CONCEPTS) {
		for (const phrase of c.words[lang] ?? []) {
			// "=word": that word form only ("currently", whose stem "current" also means "valid").
			const questionOnly = phrase.startsWith("?");
			const plain = phrase.replace(/^\?/, "");
			const exact = new Set(
				plain
					.split(/\s+/)
					.filter((w) => w.startsWith("="))
					.map((w) => w.slice(1).toLowerCase()),
			);
			const stems = tokensOf(plain.replace(/=/g, ""), lang).map((t) => (exact.has(t.word) ? `=${t.folded}` : t.stem));
			if (!stems.length) continue;
			const p = { concept: c.name, stems, questionOnly };
			const first = stems[0]!.replace(/^=/, "");
			const at = idx.byFirst.get(first) ?? [];
			at.push(p);
			idx.byFirst.set(first, at);
			if (
				stems.length === 1 &&
				!c.noCompounds &&
				!stems[0]!.startsWith("=") &&
				COMPOUNDING.has(lang) &&
				stems[0]!.length >= MIN_COMPOUND_PART
			)
				idx.parts.push(p);
		}
	}
	for (const list of idx.byFirst.values()) list.sort((a, b) => b.stems.length - a.stems.length);
	indexes.set(lang, idx);
	return idx;
}

const matches = (s: string, t: Token | undefined, inner: boolean) =>
	!!t && (s.startsWith("=") ? t.folded === s.slice(1) : t.stem === s || (inner && t.folded === s));

/** How many tokens a phrase covers at position i (one other word may sit inside it: "związany złożoną ofertą"), or 0. */
function phraseAt(stems: string[], toks: Token[], i: number, allowGap: boolean): number {
	let k = i;
	let gaps = 0;
	for (let j = 0; j < stems.length; j++, k++) {
		if (matches(stems[j]!, toks[k], j > 0)) continue;
		if (allowGap && j > 0 && gaps === 0 && matches(stems[j]!, toks[k + 1], true)) {
			gaps++;
			k++;
			continue;
		}
		return 0;
	}
	return k - i;
}

export interface ConceptHit {
	concept: ConceptName;
	/** The stems of the words that named it. */
	stems: string[];
	/** Found inside a longer word ("behandlingssted"): that word still names the subject too. */
	compound: boolean;
	/** Token positions the concept's words cover. */
	from: number;
	to: number;
}

/**
 * The concepts named in a text, read with the glossary of each given language (the text's stems
 * in that language against its words). Longer phrases win over shorter ones at the same place
 * ("how many" is a quantity, not a place: "hvor mange" is not "hvor").
 */
export function conceptsIn(text: string, langs: readonly TextLanguage[], question = false): { hits: ConceptHit[]; tokens: Token[] } {
	let tokens: Token[] = [];
	const hits: ConceptHit[] = [];
	for (const lang of new Set(langs)) {
		const idx = indexFor(lang);
		const toks = tokensOf(text, lang);
		if (!tokens.length) tokens = toks;
		for (let i = 0; i < toks.length; i++) {
			const stem = toks[i]!.stem;
			let found: Phrase | undefined;
			let compound = false;
			let span = 0;
			for (const p of [...(idx.byFirst.get(stem) ?? []), ...(toks[i]!.folded !== stem ? (idx.byFirst.get(toks[i]!.folded) ?? []) : [])]) {
				if (p.questionOnly && !question) continue;
				// Questions are short and exact; notices may put a word inside a phrase.
				span = phraseAt(p.stems, toks, i, !question);
				if (span) {
					found = p;
					break;
				}
			}
			if (!found && stem.length > MIN_COMPOUND_PART) {
				compound = true;
				found = idx.parts.find(
					(p) =>
						(question || !p.questionOnly) &&
						stem !== p.stems[0] &&
						(stem.endsWith(p.stems[0]!) || (p.stems[0]!.length > MIN_COMPOUND_PART && stem.startsWith(p.stems[0]!))),
				);
			}
			if (found)
				hits.push({
					concept: found.concept,
					from: i,
					to: i + Math.max(span, 1) - 1,
					stems: toks.slice(i, i + Math.max(span, 1)).map((t) => t.stem),
					compound,
				});
		}
	}
	// Overlaps: the longer phrase keeps its words.
	hits.sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
	const taken = new Set<number>();
	const kept: ConceptHit[] = [];
	for (const h of hits) {
		const span = Array.from({ length: h.to - h.from + 1 }, (_, k) => h.from + k);
		if (span.some((k) => taken.has(k)) && h.to > h.from) continue;
		if (span.every((k) => taken.has(k))) continue;
		span.forEach((k) => taken.add(k));
		kept.push(h);
	}
	return { hits: kept.sort((a, b) => a.from - b.from), tokens };
}

/** Whether a word (folded stem) is one of a concept's one-word names in these languages. */
export function isConceptWord(stem: string, concept: ConceptName, langs: readonly TextLanguage[]): boolean {
	return langs.some((l) => (indexFor(l).byFirst.get(stem) ?? []).some((p) => p.concept === concept && p.stems.length === 1));
}

/** The folded stem of a word in a language (the glossary's and retrieval's unit). */
export const termOf = (word: string, lang: TextLanguage) => foldOf(stemOf(word.toLowerCase(), lang));

/** The index term that stands for a concept named in a sentence, in whatever language (no word stems to it). */
export const conceptTerm = (concept: ConceptName) => `#${concept}`;
export const isConceptTerm = (term: string) => term.startsWith("#");
