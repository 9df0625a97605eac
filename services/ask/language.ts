// The language a notice's text is read in (issue 18, "in their language"): the one the notice declares
// (OCDS `language`, TED LG_ORIG, eForms NoticeLanguageCode, kept by the feeds as `details.language`)
// when the toolkit reads it, since detection alone misreads short titles ("GENERATOR (EP077-141836/A)"
// as Romanian) and languages it does not know (a Catalan text as English, where its declared Spanish is
// the nearest one we read). A declaration the text clearly contradicts loses: a Norwegian publisher's
// notice written in English is read as English. Without a declaration, detection as before. The rule
// itself is the text toolkit's (shared/text declaredUnlessContradicted), where language detection lives.
import { declaredUnlessContradicted, type TextLanguage } from "../../shared/text/index.ts";

/** The language of a notice's `text`: `declared` when the toolkit reads it and the text does not clearly say otherwise, else detected. */
export function noticeLanguage(text: string, declared: unknown): TextLanguage {
	return declaredUnlessContradicted(text, declared);
}
