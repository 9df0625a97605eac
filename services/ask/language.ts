// The language a notice's text is read in (issue 18, "in their language"): the one the notice declares
// (OCDS `language`, TED LG_ORIG, eForms NoticeLanguageCode, kept by the feeds as `details.language`)
// when the toolkit reads it, since detection alone misreads short titles ("GENERATOR (EP077-141836/A)"
// as Romanian) and languages it does not know (a Catalan text as English, where its declared Spanish is
// the nearest one we read). A declaration the text clearly contradicts loses: a Norwegian publisher's
// notice written in English is read as English. Without a declaration, detection as before.
import { eld } from "eld/small";
import { detectLanguage, languageOf, type TextLanguage } from "../../shared/text/index.ts";

/** Below this many letters detection's scores are too close to overrule a declaration (titles with a reference). */
const CONTRADICT_MIN_LETTERS = 200;
/** How much better another language the toolkit reads must score than the declared one to overrule it. */
const CONTRADICT_MARGIN = 0.15;

/** The language of `text`: `declared` when the toolkit reads it and the text does not clearly say otherwise, else detected. */
export function noticeLanguage(text: string, declared: unknown): TextLanguage {
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
