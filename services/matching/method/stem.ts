import { stemOf } from "../../../shared/text/index.ts";

// Why: every comparison in the method folds words the same way: British spellings to US ones
// (a UK notice and a US catalog agree), then the Snowball English stemmer of shared/text.

// British spellings folded to one form so a UK notice and a US catalog agree.
export const SPELLING: Record<string, string> = {
	centre: "center",
	centres: "centers",
	litre: "liter",
	litres: "liters",
	metre: "meter",
	metres: "meters",
	fibre: "fiber",
	colour: "color",
	analyser: "analyzer",
	analysers: "analyzers",
	programme: "program",
	catalogue: "catalog",
	modernisation: "modernization",
	authorisation: "authorization",
	authorised: "authorized",
	aluminium: "aluminum",
	sterilisation: "sterilization",
	sterilising: "sterilizing",
	organisation: "organization",
	licence: "license",
	licences: "licenses",
	tonne: "ton",
	tonnes: "tons",
};

/** "switches" -> "switch", "batteries" -> "batteri": the Snowball stem of the US spelling; figures and codes stay as they are. */
export function stem(token: string): string {
	const t = SPELLING[token] ?? token;
	if (t.length <= 3 || /\d/.test(t)) return t;
	return stemOf(t, "en");
}

/** A list of words as the stems the method compares ("battery pad" -> {"batteri", "pad"}). */
export function stemSet(words: string): ReadonlySet<string> {
	return new Set(words.split(/\s+/).filter(Boolean).map(stem));
}
