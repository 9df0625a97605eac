// Why: one place that says which languages the text toolkit knows and how each is handled
// (detection from eld's ISO 639-1 codes, a Snowball stemmer or prefix truncation, a stopword list).

/** The 24 official languages of the EU, in the order the CPV's label arrays are stored. */
export const EU_LANGUAGES = [
	"bg",
	"cs",
	"da",
	"de",
	"el",
	"en",
	"es",
	"et",
	"fi",
	"fr",
	"ga",
	"hr",
	"hu",
	"it",
	"lt",
	"lv",
	"mt",
	"nl",
	"pl",
	"pt",
	"ro",
	"sk",
	"sl",
	"sv",
] as const;

/** Languages of the EU's notices plus Norwegian (Doffin); the toolkit's language codes. */
export const TEXT_LANGUAGES = [...EU_LANGUAGES, "no"] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];

const known = new Set<string>(TEXT_LANGUAGES);
export function isTextLanguage(code: string | undefined | null): code is TextLanguage {
	return typeof code === "string" && known.has(code);
}

/** Snowball has no stemmer for these; their words are cut to a fixed prefix instead (a standard fallback). */
export const TRUNCATED: ReadonlySet<TextLanguage> = new Set(["bg", "hr", "lv", "mt", "sk", "sl"]);
export const TRUNCATE_AT = 6;

/** ISO 639-3 keys of the stopword package's lists. */
export const STOPWORD_LIST: Record<TextLanguage, string> = {
	bg: "bul",
	cs: "ces",
	da: "dan",
	de: "deu",
	el: "ell",
	en: "eng",
	es: "spa",
	et: "est",
	fi: "fin",
	fr: "fra",
	ga: "gle",
	hr: "hrv",
	hu: "hun",
	it: "ita",
	lt: "lit",
	lv: "lav",
	mt: "eng",
	nl: "nld",
	no: "nob",
	pl: "pol",
	pt: "por",
	ro: "ron",
	sk: "slk",
	sl: "slv",
	sv: "swe",
};

/** Tags other feeds use for the same languages (ISO 639-2/B, 639-3, Norwegian variants). */
export const LANGUAGE_ALIASES: Record<string, TextLanguage> = {
	nb: "no",
	nn: "no",
	nob: "no",
	nno: "no",
	nor: "no",
	eng: "en",
	fra: "fr",
	fre: "fr",
	deu: "de",
	ger: "de",
	ita: "it",
	spa: "es",
	pol: "pl",
	ell: "el",
	gre: "el",
	bul: "bg",
	nld: "nl",
	dut: "nl",
	swe: "sv",
	dan: "da",
	fin: "fi",
	por: "pt",
	ron: "ro",
	rum: "ro",
	ces: "cs",
	cze: "cs",
	slk: "sk",
	slo: "sk",
	slv: "sl",
	hrv: "hr",
	hun: "hu",
	est: "et",
	lav: "lv",
	lit: "lt",
	mlt: "mt",
	gle: "ga",
};
