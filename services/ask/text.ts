// Text primitives of the offline answerer: sentence splitting, tokens, a light stemmer and the
// synonym groups that let a question's wording meet a notice's (offer ~ quote ~ bid ...).
// Deliberately small and dependency-free: it runs on every ask and in the eval script.

/** Abbreviations after which a period does not end a sentence (lower-cased, without the final period). */
const ABBREVIATIONS = new Set([
	"a.m", "p.m", "e.g", "i.e", "etc", "no", "nos", "vs", "approx", "incl", "excl", "min", "max", "mr", "mrs", "ms", "dr", "lt", "col",
	"capt", "sgt", "st", "ave", "rd", "blvd", "ste", "bldg", "dept", "div", "inc", "ltd", "co", "corp", "seq", "al", "fig", "ref", "para",
	"sec", "art", "vol", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "est", "qty", "ea", "attn",
]);

/**
 * Splits text into sentences: line breaks first (notices put list items and headings on their
 * own lines), then sentence ends. A period ends a sentence only before whitespace and a capital,
 * digit or quote, and not after an abbreviation or a single letter (U.S., N.C.G.S.).
 */
export function splitSentences(text: string): string[] {
	const out: string[] = [];
	for (const rawLine of text.split(/\r?\n+/)) {
		const line = rawLine.replace(/\s+/g, " ").trim();
		if (!line) continue;
		let start = 0;
		const re = /[.!?;]["')\]]?\s+(?=["'(\[]?[A-Z0-9])/g;
		for (let m = re.exec(line); m; m = re.exec(line)) {
			const end = m.index + 1;
			const before = line.slice(start, m.index);
			const lastWord = (/([A-Za-z.]+)$/.exec(before)?.[1] ?? "").toLowerCase();
			// A semicolon splits only long clauses: short lists ("Lot 1: ...; Lot 2: ...") stay together.
			if (line[m.index] === ";" && end - start < 160) continue;
			if (line[m.index] === "." && (ABBREVIATIONS.has(lastWord) || /^[a-z]$/.test(lastWord) || /(^|\.)[a-z]\.[a-z]$/.test(lastWord))) continue;
			out.push(line.slice(start, end).trim());
			start = m.index + m[0].length;
		}
		const rest = line.slice(start).trim();
		if (rest) out.push(rest);
	}
	return out.filter((s) => /[A-Za-z0-9]/.test(s));
}

/** Raw word tokens: letters and digits, keeping inner hyphens, dots, slashes and plus signs (PA-3410, 802.3at, ISO/IEC, PoE+). */
export function words(text: string): string[] {
	return text.replace(/\bset\s+aside\b/gi, "set-aside").match(/[A-Za-z0-9]+(?:[-./+][A-Za-z0-9]+)*\+?/g) ?? [];
}

/** Function words: never topics of a question. */
export const STOPWORDS = new Set(
	(
		"a an the of for to in on at by with from into onto about over under per as than then so if or and nor but not no yes " +
		"is are was were be been being am do does did doing done will would shall should must can could may might " +
		"what which who whom whose when where why how there here this that these those it its it's they them their theirs " +
		"we us our ours you your yours i me my he she his her him any all each every some such other also only just " +
		"has have had having up out off via within between during before after while both either neither "
	).split(/\s+/),
);

/**
 * Words that frame a question rather than name its topic ("How many X does the college intend
 * to buy?"): they are not required in the answering passage.
 */
export const FRAME_WORDS = new Set(
	(
		"many much kind type sort exact exactly specific particular approximately roughly around about " +
		"need needs needed require requires required requirement want wants wanted intend intends plan plans planned " +
		"wish hope like tell know say says said state states stated mention mentions mentioned list listed give provide " +
		"please anything something thing things one ones get got make makes there is allowed permitted possible " +
		"notice solicitation rfp rfq opportunity announcement buyer agency government " +
		"buy buys bought buying purchase purchases purchased purchasing procure procured acquire acquired order ordered ordering being " +
		"thanks thank ok okay great cool hello hi sure right " +
		"meet meets satisfy satisfies comply complies have has hold holds carry carries apply applies applied time times"
	).split(/\s+/),
);

/**
 * A light suffix-stripping stemmer (Porter-like, far simpler): enough to meet delivered /
 * delivery / deliver, installation / install, acceptable / accepted, currently / current.
 */
export function stem(word: string): string {
	let w = word.toLowerCase();
	if (w.length <= 3 || /\d/.test(w)) return w;
	const strip = (suffix: string, replacement = "", minStem = 3) => {
		if (suffix === "ly" && /(pp|mp|pl|mb|mi)ly$/.test(w)) return false;
		if (w.endsWith(suffix) && w.length - suffix.length >= minStem) {
			w = w.slice(0, w.length - suffix.length) + replacement;
			return true;
		}
		return false;
	};
	if (!strip("ies", "y")) if (!strip("sses", "ss")) if (!/(ss|us|is)$/.test(w)) strip("s");
	if (/[^aeiou]sed$|^used$/.test(w)) w = w.slice(0, -1); // used -> use, closed -> close (before -ed would cut too much)
	for (const [suffix, replacement] of [
		["ational", "ate"],
		["ization", "ize"],
		["ations", ""],
		["ation", ""],
		["ements", ""],
		["ement", ""],
		["ments", ""],
		["ment", ""],
		["ness", ""],
		["ably", ""],
		["ibly", ""],
		["able", ""],
		["ible", ""],
		["ingly", ""],
		["ing", ""],
		["edly", ""],
		["ed", ""],
		["ally", "al"],
		["ly", ""], // not after app/upp/omp/epl (apply, supply, comply, reply): see the guard below
		["ity", ""],
		["ive", ""],
		["ery", "er"],
	] as const) {
		if (strip(suffix, replacement)) break;
	}
	if (w.length >= 5) strip("ate", "", 4);
	if (w.length >= 6) strip("at", "", 4); // validated -> validat -> valid, like validation
	if (w.length >= 4 && w.endsWith("e")) w = w.slice(0, -1);
	if (w.length >= 4 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ss|ll|ff|zz)$/.test(w)) w = w.slice(0, -1); // fitted -> fit
	return w;
}

/**
 * Synonym groups: a word of a group stands for the whole group. Procurement English names one
 * thing many ways; these are the common equivalences, not any notice's wording.
 */
const GROUPS: Record<string, string[]> = {
	OFFER: ["offer", "offers", "quote", "quotes", "quotation", "bid", "bids", "proposal", "tender", "response", "application"],
	DUE: ["due", "deadline", "close", "closing", "closes"],
	BUY: ["buy", "buys", "purchase", "procure", "procurement", "acquire", "acquisition", "order", "ordered"],
	DELIVER: ["deliver", "delivery", "delivered", "ship", "shipped", "shipping", "shipment"],
	MAKER: ["manufacturer", "manufacture", "manufactured", "brand", "make", "made", "oem"],
	SUPPLIER: ["supplier", "vendor", "contractor", "bidder", "tenderer", "offeror", "quoter", "seller", "reseller", "provider", "respondent"],
	QUESTION: ["question", "inquiry", "enquiry", "clarification"],
	WARRANTY: ["warranty", "warranted", "guarantee", "guaranteed"],
	ACCEPT: ["accept", "acceptable", "accepted", "allow", "allowed", "permit", "permitted", "considered"],
	CERTIFY: ["certification", "certificate", "certified", "certify", "accredited", "accreditation"],
	PRICE: ["price", "priced", "pricing", "cost", "costs"],
	VALUE: ["value", "valued", "budget", "worth", "amount", "funding"],
	INSTALL: ["install", "installation", "installed", "installing"],
	TRAIN: ["train", "trained", "training", "trainer"],
	EVALUATE: ["evaluate", "evaluated", "evaluation", "assess", "assessed", "score", "scored", "scoring", "weight", "weighting", "weighted", "criteria", "criterion"],
	LOCATION: ["location", "located", "address", "place"],
	SETASIDE: ["set-aside", "setaside", "reserved"],
	LARGE: ["maximum", "max", "exceed", "exceeding", "largest"],
	SMALL: ["minimum", "min", "least"],
	SUBSTITUTE: ["substitute", "substitution", "substitutions", "equivalent", "alternative", "alternate"],
	EMPLOYEE: ["user", "users", "staff", "employee", "personnel", "operator"],
	SEND: ["send", "sent", "submit", "submitted", "email", "emailed", "e-mail", "e-mailed", "forward", "forwarded", "direct", "directed"],
	YEAR: ["year", "years", "annual", "annually", "yearly", "annum"],
	ESTIMATE: ["estimate", "estimated", "expected", "anticipated", "projected", "approximately"],
};
const GROUP_OF = new Map<string, string>();
for (const [group, list] of Object.entries(GROUPS)) for (const w of list) GROUP_OF.set(stem(w), group);

/** The term a word counts as: its synonym group, else its stem. */
export function term(word: string): string {
	const s = stem(word);
	return GROUP_OF.get(s) ?? s;
}

/** Content terms of a text: lower-cased, stop words dropped, stemmed and grouped; hyphenated words also give their parts. */
export function terms(text: string): string[] {
	const out: string[] = [];
	for (const w of words(text)) {
		const lower = w.toLowerCase().replace(/\+$/, "");
		if (STOPWORDS.has(lower)) continue;
		out.push(term(lower));
		if (/[-/]/.test(lower) && !/\d/.test(lower)) {
			for (const part of lower.split(/[-/]/)) if (part.length > 1 && !STOPWORDS.has(part)) out.push(term(part));
		}
	}
	return out;
}

const NUMBER_WORDS =
	"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen";
/** One number token: digits or a number word. */
export const NUMBER_TOKEN = `\\d[\\d,.]*|${NUMBER_WORDS}`;
/** A count: digits or a number word. */
export const NUMBER_RE = new RegExp(`\\b(${NUMBER_TOKEN})\\b`, "i");
const MONTHS = "jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?";
/** A calendar date in the usual English and numeric forms. */
export const DATE_RE = new RegExp(
	`\\b((${MONTHS})\\.?\\s+\\d{1,2}(st|nd|rd|th)?,?\\s+\\d{4}\\b|\\d{1,2}(st|nd|rd|th)?\\s+(${MONTHS})\\.?,?\\s+\\d{4}\\b|\\d{4}-\\d{2}-\\d{2}(?=T\\d|\\b)|\\d{1,2}/\\d{1,2}/\\d{2,4}\\b)`,
	"i",
);
/** A time of day. */
export const TIME_RE = /\b(\d{1,2}(:\d{2})?\s*(a\.?m\.?|p\.?m\.?)|\d{1,2}:\d{2}|noon|midnight|\d{4}\s*hours)(?![\w])/i;
/** An amount of money: a currency symbol or code next to a number. */
export const MONEY_RE = /([$£€]\s?\d[\d,.]*(\s?(million|billion|thousand|[mk]\b))?|\b(USD|GBP|EUR|CAD|AUD|NZD|CHF|SEK|NOK|DKK|PLN)\s?\d[\d,.]*(\s?(million|billion|thousand))?|\d[\d,.]*\s?(USD|GBP|EUR|dollars|euros)\b)/i;
/** A duration ("30 days", "ninety (90) days", "2-year"). */
export const DURATION_RE = new RegExp(`\\b(\\d+|${NUMBER_WORDS})(\\s*\\(\\d+\\))?[\\s-]*(business |calendar |working )?(days?|weeks?|months?|years?|hours?)\\b`, "i");
/** A time relative to an event ("within 21 days of award", "30 days after receipt of order", "10 days before bid opening"). */
export const RELATIVE_RE = new RegExp(
	`\\b(within|no later than|not later than|not more than|no more than)\\s+(${NUMBER_TOKEN})(\\s*\\(\\d+\\))?\\s*(business |calendar |working )?(days?|weeks?|months?|hours?)\\b|\\b(${NUMBER_TOKEN})(\\s*\\(\\d+\\))?\\s*(business |calendar |working )?(days?|weeks?|months?|hours?)\\s+(after|before|of|from|following|prior to)\\b|\\bARO\\b`,
	"i",
);
export const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
export const PERCENT_RE = /\b\d+(\.\d+)?\s?(%|percent\b)/i;
