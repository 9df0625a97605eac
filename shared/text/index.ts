// Why: the one text toolkit every service uses (issue 16): words and sentences from
// Intl.Segmenter, language detection from eld, stemming from Snowball (multilingual-stemmer),
// stopwords from the stopword package. Nothing here is a hand-written list of words but one
// closed grammatical class, the purpose prepositions (purpose.ts).
import { eld } from "eld/small";
import { createStemmer } from "multilingual-stemmer";
import stopwordLists from "stopword";
import { isTextLanguage, LANGUAGE_ALIASES, STOPWORD_LIST, TRUNCATE_AT, TRUNCATED, type TextLanguage } from "./languages.ts";

export { isTextLanguage, TEXT_LANGUAGES, type TextLanguage } from "./languages.ts";
export { purposeSplit } from "./purpose.ts";

/** A language tag from a feed ("EN", "nb", "fra", "en-GB") as a toolkit language, or undefined. */
export function languageOf(tag: string | undefined | null): TextLanguage | undefined {
	if (!tag) return undefined;
	const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
	if (isTextLanguage(base)) return base;
	return LANGUAGE_ALIASES[base];
}

/**
 * The language a text is written in: the declared one when the feed states it, otherwise
 * eld's guess when it is one of ours and the text is long enough to tell; English by default.
 */
export function detectLanguage(text: string, declared?: string | null): TextLanguage {
	const stated = languageOf(declared);
	if (stated) return stated;
	const sample = text.slice(0, 2000);
	if (sample.replace(/[^\p{L}]/gu, "").length < 12) return "en";
	const guess = languageOf(eld.detect(sample).language);
	return guess ?? "en";
}

/** Below this many letters detection's scores are too close to overrule a declaration (titles with a reference). */
const CONTRADICT_MIN_LETTERS = 200;
/** How much better another toolkit language must score than the declared one to overrule it. */
const CONTRADICT_MARGIN = 0.15;

/**
 * The language a text is read in when its declaration may be wrong: the declared one when the
 * toolkit reads it, unless a text of CONTRADICT_MIN_LETTERS or more scores another toolkit language
 * CONTRADICT_MARGIN higher (a Norwegian publisher's notice written in English); without a
 * declaration we read, detectLanguage's guess.
 */
export function declaredUnlessContradicted(text: string, declared: unknown): TextLanguage {
	const sample = text.slice(0, 2000);
	const stated = typeof declared === "string" ? languageOf(declared) : undefined;
	if (!stated) return detectLanguage(sample);
	if (sample.replace(/[^\p{L}]/gu, "").length < CONTRADICT_MIN_LETTERS) return stated;
	const scores = eld.detect(sample).getScores() as Record<string, number>;
	let best: TextLanguage = stated;
	let bestScore = scores[stated] ?? 0;
	for (const [code, score] of Object.entries(scores)) {
		const lang = languageOf(code);
		if (lang && score > bestScore) [best, bestScore] = [lang, score];
	}
	return bestScore - (scores[stated] ?? 0) >= CONTRADICT_MARGIN ? best : stated;
}

const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });

/** Lower-cased words and numbers in reading order (letters of any script, digits, inner dots/dashes kept by the segmenter). */
export function wordsOf(text: string): string[] {
	const out: string[] = [];
	for (const s of wordSegmenter.segment(text.normalize("NFKC").toLowerCase())) {
		if (!s.isWordLike) continue;
		// Elisions ("d'ordinateurs", "dell'ospedale") are two words; the segmenter keeps them as one.
		if (/['’]/.test(s.segment)) for (const part of s.segment.split(/['’]/)) part && out.push(part);
		else out.push(s.segment);
	}
	return out;
}

const sentenceSegmenters = new Map<string, Intl.Segmenter>();

// Tokens that end with a period without ending a sentence (ICU's segmenter, as Node ships it,
// has no abbreviation suppressions: it would end one after "e.g.", "Mr." or "No.").
const ABBREVIATIONS = new Set([
	"no",
	"nos",
	"nr",
	"inc",
	"co",
	"corp",
	"ltd",
	"llc",
	"st",
	"mr",
	"mrs",
	"ms",
	"dr",
	"jr",
	"sr",
	"vs",
	"approx",
	"fig",
	"ref",
	"rev",
	"vol",
	"sec",
	"art",
	"para",
	"dept",
	"govt",
	"est",
	"min",
	"max",
	"tel",
	"ft",
	"lb",
	"oz",
	"cf",
	"al",
	"ca",
	"pt",
	"pp",
	"ext",
	"ave",
	"blvd",
	"rd",
	"bldg",
	"rm",
	"ste",
	"mt",
	"etc",
	"incl",
	"excl",
	"z.b",
	"bzw",
	"ggf",
	"evt",
	"ev",
]);

function endsWithAbbreviation(sentence: string): boolean {
	const token = sentence
		.slice(sentence.lastIndexOf(" ") + 1)
		.replace(/^["'(\[]+/, "")
		.replace(/\.$/, "");
	if (token.length === 0 || !sentence.endsWith(".")) return false;
	if (/^\p{Lu}$/u.test(token)) return true; // an initial
	if (/^(?:\p{L}\.){1,5}\p{L}?$/u.test(token)) return true; // U.S, e.g, p.m
	return ABBREVIATIONS.has(token.toLowerCase());
}

/** Sentences of a text; a line break also ends one (notices list requirements line by line). */
export function sentencesOf(text: string, lang: TextLanguage = "en"): string[] {
	let seg = sentenceSegmenters.get(lang);
	if (!seg) {
		seg = new Intl.Segmenter(lang, { granularity: "sentence" });
		sentenceSegmenters.set(lang, seg);
	}
	const out: string[] = [];
	for (const line of text.split(/\r?\n|\u2028|\u2029/)) {
		let pending = "";
		for (const s of seg.segment(line)) {
			const t = s.segment.trim();
			if (!t) continue;
			pending = pending ? `${pending} ${t}` : t;
			if (!endsWithAbbreviation(pending)) {
				out.push(pending);
				pending = "";
			}
		}
		if (pending) out.push(pending);
	}
	return out;
}

type Stemmer = (word: string) => string;
const stemmers = new Map<TextLanguage, Stemmer>();
const stemCache = new Map<string, string>();
const STEM_CACHE_MAX = 200_000;

function stemmerFor(lang: TextLanguage): Stemmer {
	let s = stemmers.get(lang);
	if (!s) {
		s = TRUNCATED.has(lang)
			? (w) => (w.length > TRUNCATE_AT ? w.slice(0, TRUNCATE_AT) : w)
			: createStemmer(lang as Parameters<typeof createStemmer>[0]);
		stemmers.set(lang, s);
	}
	return s;
}

/** The stem of a lower-case word in a language; numbers and codes are their own stem. */
export function stemOf(word: string, lang: TextLanguage = "en"): string {
	if (word.length <= 2 || /\d/.test(word)) return word;
	const key = `${lang}:${word}`;
	const hit = stemCache.get(key);
	if (hit !== undefined) return hit;
	// Folded before stemming: a title in capitals without accents ("ADQUISICION DE BATERIA") and an
	// accented label ("Baterías") must meet, and a stemmer cuts "ía" and "ia" differently.
	const stem = stemmerFor(lang)(foldOf(word));
	if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
	stemCache.set(key, stem);
	return stem;
}

const stopSets = new Map<TextLanguage, ReadonlySet<string>>();

/** The function words of a language (the stopword package's list), for callers that fold them further. */
export function stopwordsOf(lang: TextLanguage = "en"): readonly string[] {
	return stopwordLists[STOPWORD_LIST[lang]] ?? [];
}

/** Whether a lower-case word is a function word of the language (the stopword package's list). */
export function isStopword(word: string, lang: TextLanguage = "en"): boolean {
	let set = stopSets.get(lang);
	if (!set) {
		set = new Set(stopwordLists[STOPWORD_LIST[lang]] ?? []);
		stopSets.set(lang, set);
	}
	return set.has(word);
}

/** A stem without diacritics, so that an upper-case Greek title and an accented label agree. */
export function foldOf(stem: string): string {
	return /[^\x00-\x7f]/.test(stem)
		? stem
				.normalize("NFD")
				.replace(/\p{M}+/gu, "")
				.replace(/ς/g, "σ")
		: stem;
}

/** The content words of a text as folded stems: words, minus stopwords and one-letter tokens. */
export function termsOf(text: string, lang: TextLanguage = "en"): string[] {
	const out: string[] = [];
	for (const w of wordsOf(text)) {
		if (w.length < 2 || isStopword(w, lang)) continue;
		out.push(foldOf(stemOf(w, lang)));
	}
	return out;
}
