// What kind of value a sentence holds (a date, an amount, a count, a duration, an address, a
// standard...), in any language of the notices. The words these depend on come from the runtime's
// own locale data (Intl: month names in every grammatical form, currency codes, symbols and names,
// the units of time), so nothing here is a list written for some notice's wording.
import { foldOf, isStopword, stemOf, wordsOf, type TextLanguage } from "../../shared/text/index.ts";

/** Case, runs of white space and digit-group separators ("9 920", "9,920", "9.920" before 3 digits) do not matter. */
export function normalizeForMatch(s: string): string {
	return s
		.normalize("NFKC")
		.toLowerCase()
		.replace(/\s+/g, " ")
		.replace(/(?<=\d)[\s,.'’](?=\d{3}(?!\d))/g, "");
}

export const VALUE_KINDS = [
	"date",
	"time",
	"money",
	"count",
	"number",
	"duration",
	"measure",
	"percent",
	"email",
	"phone",
	"url",
	"address",
	"standard",
	"model",
	"name",
	"agent",
] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** Kinds that pin an answer down; the others (a name, a place, a code) are weaker evidence. */
export const STRONG_KINDS: ReadonlySet<ValueKind> = new Set([
	"date",
	"time",
	"money",
	"count",
	"number",
	"duration",
	"measure",
	"percent",
	"email",
	"phone",
	"url",
	"address",
]);

interface LocaleWords {
	months: Set<string>;
	/** Folded stems of the units of time (day, week, month, year, hour). */
	timeUnits: Set<string>;
	/** Currency words: ISO codes (upper case), symbols and lower-cased name words. */
	currencies: Set<string>;
	/** Units of length, area, mass and volume (names and symbols, folded): "225 meter", "5 200 m", "12 kg". */
	measureUnits: Set<string>;
	/** What each of those units measures (a unit word may name more than one: "m" and "pound"). */
	unitDims: Map<string, Set<Dimension>>;
}

/** Units a size or an amount of stuff is given in (the runtime's unit data names them in each language). */
/** Languages whose genitive is a bare s on the noun, units of time included. */
const GENITIVE_S = new Set<TextLanguage>(["no", "da", "sv"]);

const MEASURE_UNITS = [
	"millimeter",
	"centimeter",
	"meter",
	"kilometer",
	"inch",
	"foot",
	"yard",
	"mile",
	"hectare",
	"acre",
	"gram",
	"kilogram",
	"pound",
	"ounce",
	"milliliter",
	"liter",
	"gallon",
];

/**
 * What a unit measures. Length, area and volume are one dimension here: a question "in square metres" names metres, and
 * "12 600 m²" answers it. Mass, energy, power and voltage are each their own: "tonnes per year" is not answered by hectares.
 */
export type Dimension = "space" | "mass" | "energy" | "power" | "voltage";
const UNIT_DIMENSION: Record<string, Dimension> = {
	millimeter: "space",
	centimeter: "space",
	meter: "space",
	kilometer: "space",
	inch: "space",
	foot: "space",
	yard: "space",
	mile: "space",
	hectare: "space",
	acre: "space",
	milliliter: "space",
	liter: "space",
	gallon: "space",
	gram: "mass",
	kilogram: "mass",
	pound: "mass",
	ounce: "mass",
};
/** Symbols and words the runtime does not name, with what they measure. */
const EXTRA_UNITS: Record<string, Dimension> = {
	m2: "space",
	"m²": "space",
	m3: "space",
	"m³": "space",
	km2: "space",
	"km²": "space",
	kwh: "energy",
	mwh: "energy",
	gwh: "energy",
	kw: "power",
	mw: "power",
	kva: "power",
	mva: "power",
	kv: "voltage",
	tonn: "mass",
	tonne: "mass",
	tonnes: "mass",
	ton: "mass",
	tons: "mass",
};

/** Currencies whose symbols and names are looked up (codes of every currency are known anyway). */
const NAMED_CURRENCIES = [
	"EUR",
	"USD",
	"GBP",
	"NOK",
	"SEK",
	"DKK",
	"ISK",
	"CHF",
	"PLN",
	"CZK",
	"HUF",
	"RON",
	"BGN",
	"MDL",
	"UAH",
	"RSD",
	"CAD",
	"AUD",
	"NZD",
	"MXN",
	"PYG",
	"UGX",
	"JPY",
	"CNY",
	"INR",
];
const ALL_CURRENCY_CODES = new Set(Intl.supportedValuesOf("currency"));
const localeCache = new Map<string, LocaleWords>();

function safe<T>(f: () => T, fallback: T): T {
	try {
		return f();
	} catch {
		return fallback;
	}
}

/** The words of the runtime's locale data for a language (English always added: notices mix it in). */
/** Whether a word names a unit of time or a month in a language ("Weeks", "March"): capitalized, it is still no name. */
export function isTimeWord(word: string, lang: TextLanguage): boolean {
	const lw = localeWords(lang);
	const folded = foldOf(word.toLowerCase());
	return lw.months.has(folded) || lw.timeUnits.has(foldOf(stemOf(word.toLowerCase(), lang))) || lw.timeUnits.has(folded);
}

function localeWords(lang: TextLanguage): LocaleWords {
	const hit = localeCache.get(lang);
	if (hit) return hit;
	const months = new Set<string>();
	const timeUnits = new Set<string>();
	const currencies = new Set<string>();
	const measureUnits = new Set<string>();
	const unitDims = new Map<string, Set<Dimension>>();
	const addDim = (w: string, d: Dimension) => unitDims.set(w, new Set([...(unitDims.get(w) ?? []), d]));
	for (const l of new Set([lang, "en"] as const)) {
		const locale = l === "no" ? "nb" : l;
		for (let m = 0; m < 12; m++) {
			const d = new Date(Date.UTC(2021, m, 15));
			for (const opts of [
				{ month: "long" },
				{ month: "short" },
				{ day: "numeric", month: "long" },
				{ day: "numeric", month: "short" },
			] as const) {
				const parts = safe(() => new Intl.DateTimeFormat(locale, { ...opts, timeZone: "UTC" }).formatToParts(d), []);
				for (const p of parts) if (p.type === "month") months.add(foldOf(p.value.toLowerCase().replace(/\.$/, "")));
			}
		}
		for (const unit of ["hour", "day", "week", "month", "year"]) {
			for (const display of ["long", "short"] as const) {
				for (const n of [1, 2, 5, 12, 21]) {
					const parts = safe(() => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: display }).formatToParts(n), []);
					// Romanian writes "21 de zile": the "de" a unit's name carries is no unit of time.
					for (const p of parts)
						if (p.type === "unit") for (const w of wordsOf(p.value)) if (!isStopword(w, l)) timeUnits.add(foldOf(stemOf(w, l)));
				}
			}
		}
		// The Scandinavian genitive glues an s to a unit ("7 års varighet", "2 års garanti", "1 dags kurs"), and Snowball leaves a
		// one-syllable word's s on ("års" stems to itself): that form counts the same time.
		if (l !== "en" && GENITIVE_S.has(l)) for (const u of [...timeUnits]) timeUnits.add(`${u}s`);
		for (const unit of MEASURE_UNITS) {
			for (const display of ["long", "short", "narrow"] as const) {
				for (const n of [1, 2, 5]) {
					const parts = safe(() => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: display }).formatToParts(n), []);
					for (const p of parts)
						if (p.type === "unit")
							for (const w of wordsOf(p.value))
								if (!isStopword(w, l)) {
									measureUnits.add(foldOf(stemOf(w, l)));
									addDim(foldOf(stemOf(w, l)), UNIT_DIMENSION[unit]!);
								}
				}
			}
		}
		for (const code of NAMED_CURRENCIES) {
			for (const display of ["symbol", "narrowSymbol", "name"] as const) {
				for (const n of [1, 2, 5]) {
					const parts = safe(
						() => new Intl.NumberFormat(locale, { style: "currency", currency: code, currencyDisplay: display }).formatToParts(n),
						[],
					);
					for (const p of parts) {
						if (p.type !== "currency") continue;
						if (display === "name") for (const w of wordsOf(p.value)) w.length > 2 && currencies.add(foldOf(w));
						else currencies.add(p.value.trim().toLowerCase());
					}
				}
			}
		}
	}
	// A currency's name that is also a unit of measure ("pounds" of linen) says nothing alone.
	for (const l of new Set([lang, "en"] as const)) {
		const locale = l === "no" ? "nb" : l;
		for (const unit of [
			"pound",
			"ounce",
			"stone",
			"kilogram",
			"gram",
			"liter",
			"gallon",
			"meter",
			"foot",
			"inch",
			"mile",
			"acre",
			"hectare",
		]) {
			for (const display of ["long", "short"] as const) {
				for (const n of [1, 2, 5]) {
					const parts = safe(() => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: display }).formatToParts(n), []);
					for (const p of parts) if (p.type === "unit") for (const w of wordsOf(p.value)) currencies.delete(foldOf(w));
				}
			}
		}
	}
	// Squared and cubed metres and units of energy the runtime does not name.
	for (const [symbol, dim] of Object.entries(EXTRA_UNITS)) {
		measureUnits.add(foldOf(symbol));
		addDim(foldOf(symbol), dim);
	}
	const out = { months, timeUnits, currencies, measureUnits, unitDims };
	localeCache.set(lang, out);
	return out;
}

export interface Token {
	/** As written (segmenter word, lower case). */
	word: string;
	folded: string;
	/** Folded stem in the text's language. */
	stem: string;
	/** Offset in the text. */
	at: number;
}

const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });

/** Word tokens with their positions (punctuation dropped), for adjacency checks. */
export function tokensOf(text: string, lang: TextLanguage): Token[] {
	const out: Token[] = [];
	// Text written in capitals throughout is shouting, not acronyms: its words are stemmed as usual.
	const letters = text.replace(/[^\p{L}]/gu, "");
	const shouting = letters.length > 12 && letters.replace(/[^\p{Lu}]/gu, "").length / letters.length > 0.6;
	for (const s of wordSegmenter.segment(text.normalize("NFKC"))) {
		if (!s.isWordLike) continue;
		const word = s.segment.toLowerCase();
		// An acronym is its own stem ("UPS" is not "up").
		const bare = s.segment.replace(/s$/, "");
		const acronym = !shouting && bare.length > 1 && bare.length <= 6 && bare === bare.toUpperCase() && /\p{Lu}/u.test(bare);
		out.push({ word, folded: foldOf(word), stem: acronym ? foldOf(bare.toLowerCase()) : foldOf(stemOf(word, lang)), at: s.index });
	}
	return out;
}

const NUMBER = /^\d+(?:[.,]\d+)*$/;
const ORDINAL = /^\d{1,2}(?:st|nd|rd|th|er|e|º|ª)?$/;
const YEAR = /^(?:19|20)\d\d(?:r)?$/;
/** Signs that the number after them numbers something ("Załącznik nr 1", "Anexo núm. 2"): a label, not an amount (folded). */
const NUMERO = new Set(["nr", "no", "n", "no.", "nº", "n°", "nro", "num", "num.", "c", "st", "br", "numer", "number", "nummer", "numero"]);
const isDay = (w: string) => ORDINAL.test(w) && Number.parseInt(w, 10) >= 1 && Number.parseInt(w, 10) <= 31;

export const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const URL_RE = /\bhttps?:\/\/\S+|\bwww\.[a-z0-9-]+\.[a-z]{2,}\S*/i;
/** A site written without its scheme ("trv.no/offentlige-anskaffelser/"): a lower-case domain with a path. */
const BARE_SITE_RE = /(?<![\w@.])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,6}\/[\w./%#?=&-]*/;
/** A phone number: an international prefix, or a telephone word before the digits. */
const PHONE_WORDS = "tel|tlf|phone|telephone|telefon|téléphone|teléfono|telefono|telefone|puh|τηλ";
const PHONE_RE = new RegExp(
	`\\+\\d{1,3}[\\s().-]{0,2}\\d[\\d\\s().-]{6,}\\d|\\b(?:${PHONE_WORDS})\\.?(?:\\s*(?:no|nr|number))?\\.?\\s*:?\\s*\\(?\\d[\\d\\s().-]{5,}\\d`,
	"i",
);
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
const NUMERIC_DATE = /\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b|\b\d{1,2}\/\d{4}\b/;
const TIME_RE = new RegExp(
	[
		"\\b(?:[01]?\\d|2[0-3])[:h][0-5]\\d\\b",
		"\\b(?:kl|klo|kello|godz|ore|ora|um|at|à|a las|o)\\.?\\s*(?:[01]?\\d|2[0-3])(?:[.:][0-5]\\d)?\\b",
		"\\b\\d{1,2}(?::\\d{2})?\\s*(?:a\\.?m\\.?|p\\.?m\\.?)(?!\\w)",
		"\\bnoon\\b|\\bmidnight\\b",
	].join("|"),
	"i",
);
const PERCENT_RE = /\d\s?%/;
const STANDARD_RE =
	/\b(?:ISO|EN|IEC|DIN|NF|BS|ASTM|ANSI|IEEE|UL|FIPS|NFPA|MIL|CE|ETSI|CEN|TL|EAL|HACCP|TUPE|GMP|CPV)(?:[\s/-]+[A-Z]{1,4})*[\s-]*\d[\d.:-]*\w*|\b[A-Z]{2,}-[A-Z]{2,}-\d/;
const MODEL_RE = /\b(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*[0-9])[A-Z0-9]+(?:-[A-Z0-9]+)+\b|\b[A-Z]{1,4}\d{2,}[A-Z0-9]*\b|\b\d{2,}[A-Z]{1,4}\d*\b/;
/** Street and number either way round, a postcode before a town, a UK or US postcode. */
const STREET_RE = new RegExp(
	[
		"\\b\\d{1,5}[a-z]?\\s+(\\p{Lu}\\p{Ll}[\\p{L}'-]*)\\s+\\p{Lu}\\p{Ll}",
		"(\\p{Lu}[\\p{L}'-]+)\\.?\\s+#?\\d{1,4}[a-z]?(?=\\s*[,;]|\\s*$)",
		"\\b\\d{4,5}\\s+(\\p{Lu}\\p{Ll}+)",
		"\\b[A-Z]{1,2}\\d{1,2}[A-Z]?\\s?\\d[A-Z]{2}\\b|\\b[A-Z]{2}\\s+\\d{5}\\b",
	].join("|"),
	"gu",
);
/** Words after a number that say it counts things (pieces, units, sets) in the notices' languages. */
const COUNT_UNITS = new Set(
	(
		"units unit each ea pcs pc pieces piece sets set nos no qty stk stykk stück szt sztuk ks kpl kom kos tk pz pezzi " +
		"unidad unidades unid pieza piezas bucată bucăți bucati τεμάχια τεμ db st"
	).split(" "),
);

/**
 * Small cardinals written as words ("five stages", "kolm korda päevas"), and the words saying there is only one ("un unico
 * lotto", "a single lot"); "one" itself is left out: it is also "a".
 */
const CARDINALS: Partial<Record<TextLanguage, string>> = {
	en: "two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred dozen single",
	no: "to tre fire fem seks sju syv åtte ni ti elleve tolv eneste",
	da: "to tre fire fem seks syv otte ni ti elleve tolv",
	sv: "två tre fyra fem sex sju åtta nio tio elva tolv",
	de: "zwei drei vier fünf sechs sieben acht neun zehn elf zwölf einzigen einziges einzige",
	nl: "twee drie vier vijf zes zeven acht negen tien elf twaalf",
	fr: "deux trois quatre cinq six sept huit neuf dix onze douze unique",
	es: "dos tres cuatro cinco seis siete ocho nueve diez once doce único única",
	it: "due tre quattro cinque sei sette otto nove dieci undici dodici unico unica",
	pt: "dois duas três quatro cinco seis sete oito nove dez onze doze único única",
	pl: "dwa dwie trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedyny jedyna",
	cs: "dva dvě tři čtyři pět šest sedm osm devět deset",
	ro: "doi două trei patru cinci șase şase șapte şapte opt nouă zece",
	el: "δύο τρία τρεις τέσσερα τέσσερις πέντε έξι επτά οκτώ εννέα δέκα",
	fi: "kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän kymmenen",
	et: "kaks kolm neli viis kuus seitse kaheksa üheksa kümme",
};
/**
 * "One" in the languages above: no count on its own (it is also "a"), but inside a list of counts ("two flexible, one
 * business and one economy class return air tickets") it carries the noun phrase on to what the list counts.
 */
const ONES: Partial<Record<TextLanguage, string>> = {
	en: "one",
	no: "en ett ei",
	da: "en et",
	sv: "en ett",
	de: "ein eine einen",
	nl: "een",
	fr: "un une",
	es: "un uno una",
	it: "un uno una",
	pt: "um uma",
	pl: "jeden jedna jedno",
	cs: "jeden jedna jedno",
	ro: "un una o",
	el: "ένα ένας μία μια",
	fi: "yksi",
	et: "üks",
};
const oneSets = new Map<TextLanguage, Set<string>>();
function ones(lang: TextLanguage): Set<string> {
	let set = oneSets.get(lang);
	if (!set) {
		set = new Set(`${ONES[lang] ?? ""} ${ONES.en}`.split(" ").filter(Boolean).map(foldOf));
		oneSets.set(lang, set);
	}
	return set;
}
/** The notice language's own words for "one" (in most of them also the indefinite article), without English's. */
const articleOneSets = new Map<TextLanguage, Set<string>>();
function articleOnes(lang: TextLanguage): Set<string> {
	let set = articleOneSets.get(lang);
	if (!set) articleOneSets.set(lang, (set = new Set((ONES[lang] ?? "").split(" ").filter(Boolean).map(foldOf))));
	return set;
}
const cardinalSets = new Map<TextLanguage, Set<string>>();
function cardinals(lang: TextLanguage): Set<string> {
	let set = cardinalSets.get(lang);
	if (!set) {
		set = new Set(
			`${CARDINALS[lang] ?? ""} ${CARDINALS.en}`
				.split(" ")
				.filter(Boolean)
				.map((w) => foldOf(w)),
		);
		cardinalSets.set(lang, set);
	}
	return set;
}

/** A count unit after a number ("40 EA", "32 stk"), not the first half of a compound ("100% set-aside"). */
function isCountUnit(text: string, t: Token | undefined): boolean {
	return !!t && COUNT_UNITS.has(t.folded) && text[t.at + t.word.length] !== "-";
}

/** Whether a token is a plain number that may count or measure something (not a year, a date part). */
/** A unit of length, area, mass or volume ("meter", "m", "m²", "kg", "MWh"). */
function isMeasureUnit(t: Token | undefined, lw: LocaleWords): boolean {
	return !!t && (lw.measureUnits.has(t.folded) || lw.measureUnits.has(t.stem));
}

/** A number with its unit written onto it ("10KVA", "18mm", "40m2"). */
function gluedMeasure(t: Token, lw: LocaleWords): boolean {
	const m = /^\d+(?:[.,]\d+)?(\p{L}+[23²³]?)$/u.exec(t.word);
	return !!m && lw.measureUnits.has(foldOf(m[1]!));
}

function plainNumber(t: Token | undefined): boolean {
	return !!t && NUMBER.test(t.word) && !YEAR.test(t.word);
}

function hasDateWords(tokens: Token[], lw: LocaleWords): boolean {
	for (let i = 0; i < tokens.length; i++) {
		if (!lw.months.has(tokens[i]!.folded)) continue;
		const near = [tokens[i - 2], tokens[i - 1], tokens[i + 1], tokens[i + 2]];
		if (near.some((t) => t && (isDay(t.word) || YEAR.test(t.word) || /^\d{2}$/.test(t.word)))) return true;
	}
	return false;
}

/** How many dates a text writes: ISO or numeric ones, and month names beside a day or a year ("august-24", "1 May 2027"). */
export function datesIn(text: string, lang: TextLanguage): number {
	const lw = localeWords(lang);
	const tokens = tokensOf(text, lang);
	// A numeric date needs a real day and month: "kl. 10.00-12.00" is a time span, not a date.
	const numeric = [...text.matchAll(/\b(\d{1,2})[./-](\d{1,2})[./-](?:\d{4}|\d{2})\b/g)].filter(
		(m) => Number(m[1]) >= 1 && Number(m[1]) <= 31 && Number(m[2]) >= 1 && Number(m[2]) <= 12,
	);
	let n = (text.match(new RegExp(ISO_DATE.source, "g")) ?? []).length + numeric.length;
	for (let i = 0; i < tokens.length; i++) {
		if (!lw.months.has(tokens[i]!.folded)) continue;
		const near = [tokens[i - 1], tokens[i + 1], tokens[i + 2]];
		if (near.some((t) => t && (isDay(t.word) || YEAR.test(t.word) || /^\d{2}$/.test(t.word)))) n++;
	}
	return n;
}

function hasMoney(text: string, tokens: Token[], lw: LocaleWords): boolean {
	if (/[$£€¥₹]\s?\d|\d\s?[$£€]/.test(text)) return true;
	for (let i = 0; i < tokens.length; i++) {
		const t = tokens[i]!;
		const code = t.word.length === 3 && ALL_CURRENCY_CODES.has(t.word.toUpperCase()) && /\b[A-Z]{3}\b/.test(text.slice(t.at, t.at + 3));
		const isCurrency =
			lw.currencies.has(t.word) || lw.currencies.has(t.folded) || code || scaledCode(text.slice(t.at, t.at + t.word.length));
		if (!isCurrency) continue;
		for (const k of [i - 3, i - 2, i - 1, i + 1, i + 2])
			if (plainNumber(tokens[k]) || (tokens[k] && YEAR.test(tokens[k]!.word) && k === i + 1)) return true;
	}
	return false;
}

/** An address-like street and number whose word is not a month, a unit of time or a currency. */
function hasAddress(text: string, lang: TextLanguage, lw: LocaleWords): boolean {
	for (const m of text.matchAll(STREET_RE)) {
		const word = (m[1] ?? m[2] ?? m[3] ?? "").toLowerCase();
		if (!word) return true;
		const f = foldOf(word);
		if (
			word.length < 3 ||
			lw.months.has(f) ||
			lw.timeUnits.has(foldOf(stemOf(word, lang))) ||
			lw.currencies.has(word) ||
			ALL_CURRENCY_CODES.has(word.toUpperCase())
		)
			continue;
		return true;
	}
	return false;
}

function hasDuration(tokens: Token[], lw: LocaleWords): boolean {
	for (let i = 0; i < tokens.length; i++) {
		if (!lw.timeUnits.has(tokens[i]!.stem) && !lw.timeUnits.has(tokens[i]!.folded)) continue;
		if ([tokens[i - 1], tokens[i - 2]].some((t) => t && NUMBER.test(t.word))) return true;
	}
	return false;
}

/** A sum written with a currency sign or an ISO currency code beside its number ("EUR 6 000 433", "$5,000"), not a currency's name. */
export function hasCodedMoney(text: string): boolean {
	if (/[$£€¥₹]\s?\d|\d\s?[$£€]/.test(text)) return true;
	for (const m of text.matchAll(/\b([A-Z]{3})\s?\d|\d\s?([A-Z]{3})\b/g)) if (ALL_CURRENCY_CODES.has(m[1] ?? m[2] ?? "")) return true;
	for (const m of text.matchAll(/\d\s?(\p{L}{4,7})\b/gu)) if (scaledCode(m[1]!)) return true;
	return false;
}

/**
 * A currency code with a scale glued before it, as Nordic and business texts write millions and thousands ("22 MNOK",
 * "1,7 MSEK", "3 MEUR", "500 kNOK", "2 MrdEUR"): a sum in that currency.
 */
export function scaledCode(word: string): boolean {
	const m = /^(?:M|MM|Mn|Mio|Mill|Mrd|Bn|k|K|T)([A-Z]{3})$/u.exec(word);
	return !!m && ALL_CURRENCY_CODES.has(m[1]!);
}

/** Every kind of value a text holds. */
function dimsOf(t: Token | undefined, lw: LocaleWords): Set<Dimension> {
	if (!t) return new Set();
	return new Set([...(lw.unitDims.get(t.folded) ?? []), ...(lw.unitDims.get(t.stem) ?? [])]);
}

/**
 * What the units a text names measure (a question's "in tonnes per year": mass). Only units with a dimension count; a
 * function word that spells a unit ("in", Norwegian "ha") is none.
 */
export function unitDimensionsNamed(text: string, lang: TextLanguage): Set<Dimension> {
	const lw = localeWords(lang);
	const out = new Set<Dimension>();
	for (const t of tokensOf(text, lang))
		if (t.word.length > 1 && !/^\d/.test(t.word) && !isStopword(t.word, lang) && !isStopword(t.word, "en"))
			for (const d of dimsOf(t, lw)) out.add(d);
	return out;
}

/** What the measures a text gives measure: a number with its unit after it or glued to it ("151 hectare", "18mm"). */
export function measuredDimensions(text: string, lang: TextLanguage): Set<Dimension> {
	const lw = localeWords(lang);
	const tokens = tokensOf(text, lang);
	const out = new Set<Dimension>();
	tokens.forEach((t, i) => {
		const next = tokens[i + 1];
		if (plainNumber(t) && isMeasureUnit(next, lw) && !isStopword(next!.word, lang) && !isStopword(next!.word, "en"))
			for (const d of dimsOf(next, lw)) out.add(d);
		const glued = /^\d+(?:[.,]\d+)?(\p{L}+[23²³]?)$/u.exec(t.word);
		if (glued) for (const d of lw.unitDims.get(foldOf(glued[1]!)) ?? []) out.add(d);
	});
	return out;
}

/** Whether a text (a question) names a unit of measure ("in square metres", "wie viele kWh"): its answer is a measure. */
export function namesMeasureUnit(text: string, lang: TextLanguage): boolean {
	const lw = localeWords(lang);
	// Function words that spell a unit ("in" for inches, Norwegian "ha" for hectares) name none.
	return tokensOf(text, lang).some(
		(t) => t.word.length > 1 && !/^\d/.test(t.word) && !isStopword(t.word, lang) && !isStopword(t.word, "en") && isMeasureUnit(t, lw),
	);
}

/** Whether the year at `i` belongs to the capitalized word before it, inside the text (not its first word, not a month). */
function namesYear(text: string, tokens: Token[], i: number, lw: LocaleWords): boolean {
	const prev = tokens[i - 1];
	if (!prev || i - 1 === 0 || lw.months.has(prev.folded)) return false;
	return /^\p{Lu}\p{L}+$/u.test(text.slice(prev.at, prev.at + prev.word.length));
}

export function kindsIn(text: string, lang: TextLanguage): Set<ValueKind> {
	const lw = localeWords(lang);
	const tokens = tokensOf(text, lang);
	const kinds = new Set<ValueKind>();
	// A year alone dates something too ("settes i drift i 2031"), but not one that ends a name ("Nomil 2020", "Word 2007").
	// German capitalizes every noun ("ab den Sommerferien 2020"): there a capital marks no name.
	const datingYear = tokens.some((t, i) => /^(19|20)\d\d$/.test(t.word) && (lang === "de" || !namesYear(text, tokens, i, lw)));
	if (ISO_DATE.test(text) || NUMERIC_DATE.test(text) || hasDateWords(tokens, lw) || datingYear) kinds.add("date");
	if (TIME_RE.test(text)) kinds.add("time");
	if (hasMoney(text, tokens, lw)) kinds.add("money");
	if (hasDuration(tokens, lw)) kinds.add("duration");
	if (PERCENT_RE.test(text)) kinds.add("percent");
	if (EMAIL_RE.test(text)) kinds.add("email");
	if (URL_RE.test(text) || BARE_SITE_RE.test(text)) kinds.add("url");
	if (PHONE_RE.test(text)) kinds.add("phone");
	if (STANDARD_RE.test(text)) kinds.add("standard");
	if (MODEL_RE.test(text)) kinds.add("model");
	if (hasAddress(text, lang, lw)) kinds.add("address");
	if (tokens.some((t, i) => plainNumber(t) && isCountUnit(text, tokens[i + 1]))) kinds.add("count");
	// A unit after a number ("25 in", "10 ha") is none where it is also a function word of the text's language: "aged up to
	// 25 in independent schools" measures nothing. Glued to its number ("10KVA", "18mm") it is a unit whatever it spells.
	if (
		tokens.some(
			(t, i) =>
				(plainNumber(t) &&
					isMeasureUnit(tokens[i + 1], lw) &&
					!isStopword(tokens[i + 1]!.word, lang) &&
					!isStopword(tokens[i + 1]!.word, "en")) ||
				gluedMeasure(t, lw),
		)
	)
		kinds.add("measure");
	if (
		tokens.some(
			(t, i) =>
				plainNumber(t) &&
				!NUMERO.has(tokens[i - 1]?.folded ?? "") &&
				!(text[t.at - 1] === "/" && NUMERO.has(tokens[i - 2]?.folded ?? "")) &&
				!lw.months.has(tokens[i + 1]?.folded ?? "") &&
				!lw.months.has(tokens[i - 1]?.folded ?? ""),
		)
	)
		kinds.add("number");
	// Capitalized words name someone, except in German, where every noun is capitalized.
	if (lang !== "de" && /(?:^|[^.!?:]\s)\p{Lu}\p{Ll}+/u.test(text.slice(1))) kinds.add("name");
	return kinds;
}

/**
 * A count of what is asked about: a number within three words of a counted term (either side),
 * or right before a count unit ("40 EA", "32 stk"). A year, a date part or a number the question
 * itself carries is not a count.
 */
export function hasCountOf(
	text: string,
	lang: TextLanguage,
	counted: (t: Token) => boolean,
	questionNumbers: ReadonlySet<string>,
	label: (t: Token) => boolean = () => false,
): boolean {
	const tokens = tokensOf(text, lang);
	const isDate = (i: number) =>
		localeWords(lang).months.has(tokens[i + 1]?.folded ?? "") || localeWords(lang).months.has(tokens[i - 1]?.folded ?? "");
	const words = cardinals(lang);
	// A house number is no count: a number between commas before capitalized words ("..., 120 Aspen Street, Elk Ridge");
	// words in capitals throughout ("AUTOBUS, 20 PASSAGERS, ADAPTÉ") are a heading's, not a street's name.
	const houses = [...text.matchAll(/,\s*(\d{1,5})[a-z]?\s+\p{Lu}\p{Ll}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*\s*,/gu)].map(
		(m) => m.index + m[0].indexOf(m[1]!),
	);
	for (let i = 0; i < tokens.length; i++) {
		if (houses.includes(tokens[i]!.at)) continue;
		const t = tokens[i]!;
		// The article that is also "one", right before what is counted, counts one ("rammeavtale med en leverandør"); English
		// keeps "a" apart and writes "one" as a number word.
		if (lang !== "en" && articleOnes(lang).has(t.folded) && tokens[i + 1] && counted(tokens[i + 1]!)) return true;
		if (!(plainNumber(t) || words.has(t.folded)) || questionNumbers.has(t.word) || isDate(i)) continue;
		if (/^\s?%/.test(text.slice(t.at + t.word.length))) continue; // a share, not a count
		if (/[\p{L}\d]-$/u.test(text.slice(Math.max(0, t.at - 2), t.at))) continue; // part of a code ("CF-31")
		// A label, not a count: "Część 1", "Lot 2", "pakiet nr 8", a list's "1)".
		if ((tokens[i - 1] && label(tokens[i - 1]!)) || (/^\s*\)/.test(text.slice(t.at + t.word.length)) && i === 0)) continue;
		if (tokens[i - 1] && /^(nr|no|n)$/.test(tokens[i - 1]!.word) && tokens[i - 2] && label(tokens[i - 2]!)) continue;
		if (isCountUnit(text, tokens[i + 1])) return true;
		for (let k = Math.max(0, i - 2); k <= Math.min(tokens.length - 1, i + 4); k++) if (k !== i && counted(tokens[k]!)) return true;
		// Forward through the noun phrase the number counts ("twelve (12) refurbished ... laptops"), to a clause break;
		// a list of counts goes on past its commas and "and" ("two flexible, one business and one economy class ... tickets").
		// "One" (also "a") joins the list after its comma, or after "and" once the list is under way: "85 kits til en kommune"
		// does not go on to "kommune".
		const count = (t: Token | undefined) => !!t && (plainNumber(t) || words.has(t.folded));
		const one = (t: Token | undefined) => !!t && ones(lang).has(t.folded);
		let reach = i + 10;
		let listing = false;
		for (let k = i + 1; k < Math.min(tokens.length, reach); k++) {
			const gap = text.slice(tokens[k - 1]!.at + tokens[k - 1]!.word.length, tokens[k]!.at);
			if (/[;:.!?]/.test(gap)) break;
			if (gap.includes(",")) {
				if (!count(tokens[k]) && !one(tokens[k])) break;
				listing = true;
			}
			if (count(tokens[k])) listing = true;
			if (count(tokens[k]) || one(tokens[k])) reach = Math.max(reach, k + 8); // each count of the list brings its own few words
			if (counted(tokens[k]!)) return true;
			// "85 mounting kits for its crews" counts kits; "... and one economy class" goes on.
			const next = tokens[k + 1];
			if (isStopword(tokens[k]!.word, lang) && !count(tokens[k]) && !one(tokens[k]) && !count(next) && !(listing && one(next))) break;
		}
	}
	return false;
}
