// Words of a question asked in one language looked for in a notice written in another, through the
// CPV labels (the same 9,454 codes named in the 24 EU languages, shared/taxonomy): a question word
// stands for the notice words that name the same codes ("battery" -> "bateria", "ovens" -> "ovner").
// Only words that occur in the notice are kept, so the bridge never invents a subject.
import { cpvEntries, CPV_LANGUAGES, type Language } from "../../shared/taxonomy/index.ts";
import { isStopword, type TextLanguage } from "../../shared/text/index.ts";
import { tokensOf } from "./values.ts";

/** A notice word must name at least this share of the codes the question word names. */
const MIN_SHARE = 0.3;
/** Question words naming more codes than this are general ("services"): only a word naming most of them translates one. */
const MAX_CODES = 400;
const MIN_SHARE_GENERAL = 0.6;
const MAX_ALTERNATIVES = 3;

type Index = { byTerm: Map<string, number[]>; termsOf: string[][] };
const indexes = new Map<string, Index>();

const isCpvLanguage = (l: string): l is Language => (CPV_LANGUAGES as readonly string[]).includes(l);
/** CPV has no Norwegian labels; Danish is the nearest written language (Bokmål grew out of it). */
const cpvLanguageOf = (l: TextLanguage): Language | null => (l === "no" ? "da" : isCpvLanguage(l) ? l : null);

function indexFor(lang: Language): Index {
	let idx = indexes.get(lang);
	if (idx) return idx;
	idx = { byTerm: new Map(), termsOf: [] };
	for (const { labels } of cpvEntries()) {
		// Function words ("or", "for", "of") name no code: carried over, they would match every sentence.
		const terms = [
			...new Set(
				tokensOf(labels[lang] ?? "", lang as TextLanguage)
					.filter((t) => !isStopword(t.word, lang as TextLanguage))
					.map((t) => t.stem),
			),
		].filter((t) => t.length > 2 && !/^\d+$/.test(t));
		idx.termsOf.push(terms);
	}
	idx.termsOf.forEach((terms, code) => {
		for (const t of terms) {
			const list = idx!.byTerm.get(t) ?? [];
			list.push(code);
			idx!.byTerm.set(t, list);
		}
	});
	indexes.set(lang, idx);
	return idx;
}

/**
 * A Danish word as Norwegian Bokmål spells it where the two differ by rule: æ is e, and the stops
 * Danish softens after a vowel are written hard ("sygehus" / "sykehus", "udstyr" / "utstyr").
 */
function norwegianSpellings(danish: string): string[] {
	const e = danish.replace(/æ/g, "e");
	const hard = (w: string) =>
		w.replace(/([aeiouyøå])([dgb])/g, (_, v: string, c: string) => v + ({ d: "t", g: "k", b: "p" } as Record<string, string>)[c]);
	return [...new Set([danish, e, hard(danish), hard(e)])];
}

/**
 * The notice-language words (folded stems) a question word may stand for, best first, among those
 * `present` accepts (the notice's words). Empty when the languages are the same, not CPV languages, or nothing fits.
 */
export function bridge(
	term: string,
	from: TextLanguage,
	to: TextLanguage,
	present: ReadonlySet<string> | ((t: string) => boolean),
): string[] {
	const has = typeof present === "function" ? present : (t: string) => present.has(t);
	const source = cpvLanguageOf(from);
	const goal = cpvLanguageOf(to);
	if (from === to || !source || !goal || source === goal) return [];
	const codes = indexFor(source).byTerm.get(term);
	if (!codes) return [];
	// A general word ("services", "equipment") is carried over only by the word that names most of its codes.
	const general = codes.length > MAX_CODES;
	const target = indexFor(goal);
	const counts = new Map<string, number>();
	for (const c of codes)
		for (const label of target.termsOf[c] ?? []) {
			const t = (to === "no" ? norwegianSpellings(label) : [label]).find(has);
			if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
		}
	// So is a general word of the notice's language ("servicios" for "computer", whose codes are often computer services):
	// it stands for a question word only where it names most of that word's codes.
	const generalThere = (t: string) => (target.byTerm.get(t)?.length ?? 0) > MAX_CODES;
	return [...counts.entries()]
		.filter(([t, n]) => n / codes.length >= (general || generalThere(t) ? MIN_SHARE_GENERAL : MIN_SHARE) || (codes.length <= 2 && n >= 1))
		.sort((a, b) => b[1] - a[1])
		.slice(0, MAX_ALTERNATIVES)
		.map(([t]) => t);
}

/** A question word naming so many codes ("equipment", "services") that its counterpart says little: it counts where found. */
export function isGeneralWord(term: string, from: TextLanguage): boolean {
	const source = cpvLanguageOf(from);
	return !!source && (indexFor(source).byTerm.get(term)?.length ?? 0) > MAX_CODES;
}
