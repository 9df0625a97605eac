// Why: "batteries for pick-ups", "Baterías para camionetas", "Ersatzteile für Fahrzeuge": a line
// names what it buys before its purpose preposition and what that is for after it. Readers of a
// line's kind (matching's concepts) trust the part before more. The prepositions are grammar, one
// closed word class per language; languages that put purpose after the noun (Estonian "jaoks",
// Finnish "varten", Hungarian "számára") are not split.
import type { TextLanguage } from "./languages.ts";

const PURPOSE: Partial<Record<TextLanguage, string[]>> = {
	bg: ["за"],
	cs: ["pro"],
	da: ["til"],
	de: ["für"],
	el: ["για"],
	en: ["for"],
	es: ["para"],
	fr: ["pour"],
	hr: ["za"],
	it: ["per"],
	lt: ["skirta", "skirti", "skirtas"],
	mt: ["għal"],
	nl: ["voor"],
	no: ["til"],
	pl: ["dla"],
	pt: ["para"],
	ro: ["pentru"],
	sk: ["pre"],
	sl: ["za"],
	sv: ["för", "till"],
};

const patterns = new Map<TextLanguage, RegExp | null>();

function patternFor(lang: TextLanguage): RegExp | null {
	let re = patterns.get(lang);
	if (re === undefined) {
		const words = PURPOSE[lang];
		re = words ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})(?![\\p{L}\\p{N}])`, "iu") : null;
		patterns.set(lang, re);
	}
	return re;
}

/** A line cut at its first purpose preposition: what it buys, and what that is for (null when there is none, or it opens the line). */
export function purposeSplit(text: string, lang: TextLanguage): { head: string; purpose: string } | null {
	const m = patternFor(lang)?.exec(text);
	if (!m || m.index === 0) return null;
	const head = text.slice(0, m.index).trim();
	return head ? { head, purpose: text.slice(m.index + m[0].length).trim() } : null;
}
