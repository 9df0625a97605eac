import type { AskTurn } from "../../shared/contract/opportunities.ts";
import type { TextLanguage } from "../../shared/text/index.ts";
import { CONCEPT_BY_NAME, conceptsIn, isConceptWord, termOf, type Concept, type ConceptName, type Field } from "./concepts.ts";
import { recentTurns, type Fact, type Grounding, type Passage, type Section } from "./context.ts";
import { analyzeQuestion, type QuestionInfo, type SubjectTerm } from "./question.ts";
import { bm25, coverage, indexOf, kindsOf, namesSubject, termFrequency, type Index, type Indexed } from "./retrieve.ts";
import {
	datesIn,
	EMAIL_RE,
	hasCodedMoney,
	hasCountOf,
	isTimeWord,
	kindsIn,
	measuredDimensions,
	namesMeasureUnit,
	STRONG_KINDS,
	tokensOf,
	type Token,
	unitDimensionsNamed,
	type ValueKind,
} from "./values.ts";

// The offline answerer (no model, no download). Structure first: when the question asks about
// something the normalized notice has a field for (deadline with its zone, value, procedure,
// lots and items with quantities, place, contacts, documents, codes, reference), the answer gives
// that field's value and names the field. Then the notice's own sentences: ranked by the subject
// terms they share with the question (stems in the notice's language, translated through the CPV
// labels when the question is in another language), judged by whether they name the topic asked
// about and hold the kind of value it needs (a date, an amount, a count, an address...), and quoted
// verbatim. When neither a field nor a sentence carries the answer, the answer says that the
// notice does not state it, and never fills in a plausible guess.

export const EXTRACTIVE_MODEL = "oms-extractive-2";
/** Every answer that finds nothing starts with this; clients and the eval recognize it. */
export const NOT_STATED = "The notice does not state";

/** Coverage a sentence needs when nothing more specific vouches for it. */
const MIN_COVERAGE = 0.5;
/** Coverage needed when the sentence also holds a strong value of the asked kind (a date for "when"). */
const MIN_COVERAGE_TYPED = 0.3;
/** Coverage needed when the sentence names the asked topic itself ("warranty", "lot"). */
const MIN_COVERAGE_ANCHORED = 0.4;
/** A count question may be answered without a digit ("three times a day") by a sentence this close to it. */
const MIN_COVERAGE_UNTYPED_COUNT = 0.75;
/** A "who" question may be answered without a name by a sentence naming all of its subject. */
const MIN_COVERAGE_UNTYPED_WHO = 0.9;
/** Sentences looked at, best first, for one that passes. */
const CANDIDATES = 12;
/** A further sentence is quoted when it scores at least this share of the best one. */
const EXTRA_SHARE = 0.7;
/** ... or this share when it holds the asked kind of value too (a second address, a second date). */
const EXTRA_SHARE_TYPED = 0.5;
const MAX_EXTRAS = 2;
/** A further sentence this close to the best one is quoted even if it adds no new word (two equally good answers). */
const NEAR_TIE = 0.8;
/** Items listed at most when a question asks about all of them. */
const MAX_ITEMS = 30;

export interface ExtractiveAnswer {
	answer: string;
	model: string;
	/** False when the answer says the notice does not state it. */
	stated: boolean;
	quoted: Passage[];
	/** The structured fields the answer gives. */
	fields: Fact[];
}

const SECTION_SAYS: Partial<Record<Section, string>> = {
	item: "The notice's item list says",
	lot: "The notice's lots say",
	criteria: "The notice's award criteria say",
	amendment: "An amendment to the notice says",
	signal: "Matching extracted from the notice",
	detail: "The notice's record says",
	submission: "The notice's submission details say",
};

interface Candidate {
	doc: Indexed;
	score: number;
	total: number;
}

type Verdict = "answers" | "no_value" | "off_topic";

/** Words that introduce a maker's or firm's name, in the notices' languages. */
const MAKER_CUE = new RegExp(
	`\\b(${[
		"brand",
		"brands",
		"manufacturer",
		"manufactured",
		"make",
		"made",
		"by",
		"from",
		"model",
		"series",
		"oem",
		"supplied",
		"supplier",
		"vendor",
		"contractor",
		"company",
		"firm",
		"incumbent",
		"marke",
		"hersteller",
		"marque",
		"fabricant",
		"marca",
		"fabricante",
		"produttore",
		"producent",
		"merke",
		"produsent",
		"mærke",
		"märke",
		"tillverkare",
		"merk",
		"fabrikant",
		"typ",
		"type",
		"tipo",
		"modell",
		"modèle",
		"modelo",
		"modello",
	].join("|")})\\b`,
	"gi",
);

/**
 * A sentence names the asked topic; for a deadline, a sentence about tenders or their submission
 * does too, and for a contact, an e-mail address or a phone number.
 */
function cued(index: Index, doc: Indexed, c: Concept, q?: QuestionInfo): boolean {
	if (doc.concepts.has(c.name)) return true;
	// The question's own word for the topic ("comply with") names it in the notice too; not for the
	// incumbent, where a notice's "current" (a current licence) is no answer to "the current supplier".
	const own = q?.conceptPhrases.get(c.name);
	if (own && c.name !== "incumbent" && own.some((phrase) => phrase.every((s) => doc.tf.has(s)))) return true;
	// "When must delivery take place?" reads the delivery words as the delivery time's: a sentence using them names it.
	const delivery = c.name === "delivery_time" ? q?.conceptPhrases.get("place") : undefined;
	if (delivery?.some((phrase) => phrase.every((s) => doc.tf.has(s)))) return true;
	if (c.name === "deadline") return doc.concepts.has("offer") || doc.concepts.has("submission");
	if (c.name === "enquiry") return doc.concepts.has("contact");
	if (c.name === "contact") return kindsOf(index, doc).has("email") || kindsOf(index, doc).has("phone");
	// What the buyer has today ("De har i dag 13 biler") is the current arrangement.
	if (c.name === "incumbent") return doc.concepts.has("present");
	return false;
}

/**
 * Text must name the topic for these: a date alone is not a deadline, a question date is not a
 * tender one, and a concept with no kind of value to look for (a procedure, a set-aside, lots) is
 * only recognized by its words.
 */
const needsCue = (c: Concept) =>
	!!c.cueRequired || c.name === "deadline" || c.name === "enquiry" || (!c.kinds?.length && c.name !== "scope");

function counted(index: Index, subject: SubjectTerm[]) {
	return (t: { stem: string; word: string }) => {
		const tf = new Map([
			[t.stem, 1],
			[t.word, 1],
		]);
		return subject.some((s) => termFrequency(index, tf, s) > 0);
	};
}

/**
 * The kinds of value an answer must hold: the asked concept's; else those of another concept the
 * question names ("which make and model ... being replaced" needs a model); else, for "who", a name
 * or an address to write to.
 */
const unitAsked = new WeakMap<QuestionInfo, boolean>();

/**
 * The nouns for a date in a language, taken from the phrases that ask for one ("what date", "hvilken dato", "welches Datum",
 * "qué fecha"): each such phrase's last word, where it is not itself a word for "when".
 */
const dateNounCache = new Map<TextLanguage, Set<string>>();
function dateNouns(lang: TextLanguage): Set<string> {
	let out = dateNounCache.get(lang);
	if (out) return out;
	const phrases = (CONCEPT_BY_NAME.get("when")?.words[lang] ?? []).map((p) => p.split(/\s+/));
	const single = new Set(phrases.filter((p) => p.length === 1).map((p) => termOf(p[0]!, lang)));
	out = new Set(
		phrases
			.filter((p) => p.length > 1)
			.map((p) => termOf(p[p.length - 1]!, lang))
			.filter((t) => !single.has(t)),
	);
	dateNounCache.set(lang, out);
	return out;
}

/** Whether the question names a date ("delivery date", "leveringsdato" aside: a compound is read as its topic). */
function namesDate(q: QuestionInfo): boolean {
	const langs = new Set<TextLanguage>([q.lang, "en"]);
	return [...langs].some((lang) => {
		const nouns = dateNouns(lang);
		return q.text.split(/[^\p{L}]+/u).some((w) => w && nouns.has(termOf(w, lang)));
	});
}

function requiredKinds(q: QuestionInfo): ValueKind[] {
	// "How long is the contract?" asks a time, not a length: "3,9 inches" or "1 MW" in an item measure the goods.
	if (
		q.asked?.name === "duration" &&
		q.subject.every((s) => [s.term, ...s.alts].some((t) => isConceptWord(t, "agreement", [q.lang, "en"])))
	)
		return ["duration"];
	// "What area, in square metres": a question naming a unit is answered by a measure in it, not by any figure.
	if (q.asked?.kinds?.some((k) => k === "measure" || k === "number" || k === "count")) {
		let named = unitAsked.get(q);
		if (named === undefined) unitAsked.set(q, (named = namesMeasureUnit(q.text, q.lang)));
		if (named) return ["measure"];
	}
	// "What is the delivery date?" names a date: a delivery time given as a duration ("leasing på 7 år") is no answer to it.
	if (q.asked?.kinds?.includes("date") && namesDate(q)) return q.asked.kinds.filter((k) => k === "date" || k === "time");
	if (q.asked?.kinds?.length) {
		// "When is the deadline for questions?" asks the date of a topic whose answer may also be an address: the question
		// word keeps the kinds it asks for ("where should questions be sent?" keeps the e-mail and the link).
		for (const word of ["when", "place"] as const) {
			const kinds = CONCEPT_BY_NAME.get(word)?.kinds ?? [];
			const narrowed = q.asked.kinds.filter((k) => kinds.includes(k));
			if (q.asked.name !== word && q.concepts.includes(word) && narrowed.length) return narrowed;
		}
		return q.asked.kinds;
	}
	// "Where to submit" is answered by the channel the notice names, whatever it is (a website, an envelope).
	if (q.asked?.name === "submission") return [];
	for (const n of q.concepts) {
		const c = CONCEPT_BY_NAME.get(n);
		if (!c?.kinds?.length || c.rank === 0 || c.name === "scope") continue;
		// "Who" asks for a person or firm only where nothing else says what is asked ("who is eligible" asks who may bid).
		if (c.name === "who" && q.asked && !["incumbent", "submission", "name"].includes(q.asked.name)) continue;
		return c.kinds;
	}
	return [];
}

/** Whether every word longer than three letters is capitalized (two or more of them): a heading or a title, not prose. */
export function titleCased(text: string, headingOnly = false): boolean {
	const words = (text.match(/\p{L}[\p{L}'’-]*/gu) ?? []).filter((w) => w.length > 3);
	// In capitals throughout ("NO BID BOND REQUIRED") a line may still state something; in Title Case it is a heading.
	return words.length >= 2 && words.every((w) => (headingOnly ? /^\p{Lu}\p{Ll}/u : /^\p{Lu}/u).test(w));
}

/** Capitalized words a sentence adds to the question (not sentence-initial, not the buyer, not the question's own). */
function novelNames(index: Index, text: string, q: QuestionInfo, g: Grounding): { name: string; at: number }[] {
	// A passage in title case ("Emergency Power Generator Maintenance") capitalizes every word: its capitals name nothing.
	if (titleCased(text)) return [];
	const exclude = new Set(tokensOf(`${g.known} ${q.text}`, index.lang).map((t) => t.word));
	const names = [...text.matchAll(/(?<=[^.!?:]\s+["'(]?)\p{Lu}[\p{L}\d&'-]+/gu)]
		.map((m) => ({ name: m[0].toLowerCase().replace(/['’]s$/, ""), at: m.index }))
		.filter((n) => !exclude.has(n.name) && !isTimeWord(n.name, index.lang));
	if (index.lang !== "de") return names;
	// Every German noun is capitalized: a name is one the asked topic's word introduces ("am Standort Walsrode").
	const tokens = tokensOf(text, index.lang);
	const cue = (t: Token | undefined) => !!t && !!q.asked && isConceptWord(t.stem, q.asked.name, ["de"]);
	return names.filter((n) => {
		const i = tokens.findIndex((t) => t.at === n.at);
		return i > 0 && (cue(tokens[i - 1]) || cue(tokens[i - 2]));
	});
}

/** The kinds of value the question needs that a sentence holds (a count must count the subject). */
function kindsFound(index: Index, doc: Indexed, q: QuestionInfo, g: Grounding, kindsWanted: ValueKind[] = requiredKinds(q)): ValueKind[] {
	const kinds = kindsOf(index, doc);
	const found: ValueKind[] = [];
	const text = doc.passage.text;
	for (const k of kindsWanted) {
		if (k === "count") {
			const countedTerms = q.subject.filter((s) => !s.literal && (!q.counted.length || q.counted.includes(s.term)));
			const subject = countedTerms.length ? countedTerms : q.subject.filter((s) => !s.literal);
			const langs = index.lang === "en" ? (["en"] as const) : ([index.lang, "en"] as const);
			const label = (t: { stem: string }) => isConceptWord(t.stem, "lots", langs);
			// Lots are counted in the notice's own word for them ("zwei Lose", "to delkontrakter").
			const isCounted = countsLots(q) ? (t: Token) => label(t) || counted(index, subject)(t) : counted(index, subject);
			const attached = subject.length
				? hasCountOf(doc.passage.text, index.lang, isCounted, q.numbers, label)
				: tokensOf(doc.passage.text, index.lang).some(
						(t) => /^\d+([.,]\d+)*$/.test(t.word) && !q.numbers.has(t.word) && !/^(19|20)\d\d$/.test(t.word),
					);
			if (attached || kinds.has("count")) found.push(k);
		} else if (k === "name") {
			const names = novelNames(index, text, q, g);
			// A maker's or firm's name stands next to what introduces one ("brand name: X", "made by X").
			const needsCue = q.concepts.includes("name") || q.concepts.includes("model") || q.concepts.includes("who");
			const cues = needsCue ? [...text.matchAll(MAKER_CUE)].map((m) => m.index) : [];
			if (names.some((n) => !needsCue || cues.some((c) => Math.abs(c - n.at) < 40))) found.push(k);
		} else if (k === "duration") {
			// "How long does it last?" is answered by the period's two ends as well ("fra august-24 til ... mars-29").
			if (kinds.has("duration") || datesIn(text, index.lang) >= 2) found.push(k);
		} else if (k === "measure") {
			// "What capacity in tonnes per year?" names what it measures: a site's hectares are a measure of something else.
			const asked = unitDimensionsNamed(q.text, q.lang);
			if (!kinds.has(k)) continue;
			const given = measuredDimensions(text, index.lang);
			if (!asked.size || !given.size || [...given].some((d) => asked.has(d))) found.push(k);
		} else if (k === "agent") {
			if (/\bby (the|a|an|its)\b/i.test(text)) found.push(k);
		} else if (k === "model") {
			const known = `${g.known} ${q.text}`.toLowerCase();
			const codes =
				doc.passage.text.match(/\b(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)+\b|\b[A-Z]{1,4}\d{2,}[A-Z0-9]*\b/g) ?? [];
			if (codes.some((m) => !known.includes(m.toLowerCase()))) found.push(k);
		} else if (kinds.has(k)) found.push(k);
	}
	return found;
}

/** Whether the notice's title itself names some of the question's subject. */
function titleNames(index: Index, q: QuestionInfo): boolean {
	const title = index.docs.find((d) => d.passage.section === "title");
	return !!title && namesSubject(index, title, q.subject);
}

/**
 * What an amount or a count question counts ("kui palju lapsi", how much or how many children; "mitu portsjonit", how many
 * portions), when the notice never names it in any form. An amount's figure is not tied to what it counts, and a count may be
 * of something else the question names ("kolm korda päevas", three times a day, for portions a day): a figure would pass.
 */
const countedAbsent = new WeakMap<QuestionInfo, boolean>();
function countsWhatNoticeLacks(index: Index, q: QuestionInfo): boolean {
	let absent = countedAbsent.get(q);
	if (absent === undefined) {
		const head = q.subject.find((s) => s.term === q.counted[0]);
		absent =
			COUNTS.has(q.asked?.name ?? "frame") &&
			!!head &&
			!head.optional &&
			!head.literal &&
			!head.concept &&
			!index.docs.some((d) => termFrequency(index, d.tf, head) > 0);
		countedAbsent.set(q, absent);
	}
	return absent;
}

/**
 * How firmly a sentence names a topic: by a phrase of several words ("full and open competition") or by different words of
 * it ("option ... to extend"), rather than by one word alone, however often ("Option ... Option ...", "extension").
 */
function namesTopicFirmly(index: Index, doc: Indexed, concept: ConceptName): boolean {
	const langs = index.lang === "en" ? (["en"] as const) : ([index.lang, "en"] as const);
	const text = `${doc.passage.lead ? `${doc.passage.lead}: ` : ""}${doc.passage.text}`;
	const hits = conceptsIn(text, langs).hits.filter((h) => h.concept === concept);
	return hits.some((h) => h.stems.length > 1) || new Set(hits.map((h) => h.stems.join(" "))).size >= 2;
}

/** Time kinds: a date or a duration is tied to nothing in a sentence (a count is tied to what it counts), so it is easily another topic's. */
const TIME_KINDS = new Set<ValueKind>(["date", "time", "duration"]);
/** Concepts named by a question word: "when" or "når" in a sentence is a conjunction, no topic. */
const QUESTION_WORD_CONCEPTS = new Set<ConceptName>(["when", "place", "who"]);

/** Whether the question asks a topic of its own (a delivery time, a contract's end) for a time, which another topic's date could fake. */
function borrowsTime(q: QuestionInfo, wanted: ValueKind[]): boolean {
	return !!q.asked && !QUESTION_WORD_CONCEPTS.has(q.asked.name) && wanted.length > 0 && wanted.every((k) => TIME_KINDS.has(k));
}

/**
 * How much of the question's subject the sentences naming the asked topic cover, where none of them holds a value of the asked
 * kind (0 where one does, or none names the topic): the notice speaks of the topic without stating the asked fact.
 */
const topicSilent = new WeakMap<QuestionInfo, number>();
function topicWithoutValue(index: Index, q: QuestionInfo, g: Grounding): number {
	let silent = topicSilent.get(q);
	if (silent === undefined) {
		const c = q.asked!;
		const wanted = requiredKinds(q);
		const topical = index.docs.filter((d) => d.passage.section !== "title" && cued(index, d, c, q));
		silent =
			!q.subject.some((s) => !s.optional) || topical.some((d) => kindsFound(index, d, q, g, wanted).length > 0)
				? 0
				: Math.max(0, ...topical.filter((d) => namesSubject(index, d, q.subject)).map((d) => coverage(index, d, q.subject)));
		topicSilent.set(q, silent);
	}
	return silent;
}

/** Kinds of value that say where to go by themselves. */
const REACHABLE_KINDS = new Set<ValueKind>(["url", "email", "phone"]);

/** Topics answered by how many or how much of what the notice buys. */
const COUNTS = new Set<ConceptName>(["quantity", "amount"]);

function judge(index: Index, doc: Indexed, q: QuestionInfo, g: Grounding, minCoverage?: number): Verdict {
	const c = q.asked;
	// "How many children are catered for?" where the notice never names children: a figure of something else is a guess.
	// A figure with a unit glued on ("5stp" for "studiepoeng") may abbreviate what is counted: that is no figure of something else.
	if (countsWhatNoticeLacks(index, q) && !(q.asked?.name === "quantity" && /\b\d+(?:[.,]\d+)?\p{L}{2,}/u.test(doc.passage.text)))
		return "off_topic";
	// A sentence about what the buyer has now ("De har i dag 13 biler", "at present the fleet comprises 6 boats") counts
	// no part of what is to be bought ("how many will be bought?"), unless the question asks about the present itself.
	if (
		COUNTS.has(q.asked?.name ?? "frame") &&
		q.concepts.includes("scope") &&
		doc.concepts.has("present") &&
		!q.concepts.includes("present") &&
		!q.concepts.includes("incumbent")
	)
		return "off_topic";
	const cov = coverage(index, doc, q.subject);
	let strong = false;
	let anchored = false;
	// The topic named and a value of the asked kind, even a weak one (a place name after "Standort").
	let typedWeak = false;
	if (c) {
		const topical = cued(index, doc, c, q);
		// An amount of money on everything the question names ("have been awarded EUR 6 000 433" for "what funding has been
		// awarded?") states a value the sentence need not call one.
		// Every word of the question must be in the sentence itself (the title does not count), and the sum written as one.
		const priced =
			!!c.kinds?.includes("money") &&
			q.subject.some((s) => !s.optional) &&
			q.subject.every((s) => s.optional || termFrequency(index, doc.tf, s) > 0) &&
			hasCodedMoney(doc.passage.text);
		if (needsCue(c) && !topical && !priced) return "off_topic";
		// A yes/no question naming its topic twice over, in two words ("is there an option to extend?"), is not answered by a
		// sentence using one of those words for something else ("options on home-working", "extension of the tunnel").
		// Only in the notice's own language: another one may name the topic in one word ("Sicherheitsleistung" for "bid bond").
		const own = q.conceptPhrases.get(c.name);
		if (q.polar && topical && q.lang === index.lang && own && own.length >= 2 && !namesTopicFirmly(index, doc, c.name)) return "off_topic";
		anchored = topical;
	}
	const langs = index.lang === "en" ? (["en"] as const) : ([index.lang, "en"] as const);
	const contractWord = (s: SubjectTerm) => [s.term, ...s.alts].some((t) => isConceptWord(t, "agreement", langs));
	// What the question asks about besides the contract itself, whose words are in nearly every sentence.
	const own = q.subject.filter((s) => !contractWord(s));
	const ownSubject = own.length ? own : q.subject;
	// A heading ("Electronic Tender Box Security") names a topic and says nothing about it: no yes or no. A heading naming
	// what the question asks is included ("Supply, Delivery and Fitting of Wigs." for "does it include fitting the wigs?")
	// does say what the notice covers.
	const coversAsked = c?.name === "scope" && own.length > 0 && ownCoverage(index, doc.tf, own) >= MIN_COVERAGE_QUESTION_WORD;
	if (q.polar && titleCased(doc.passage.text, true) && !coversAsked) return "off_topic";
	const wanted = requiredKinds(q);
	// A yes/no question is answered by a sentence naming its topic ("no bid bond is required"): no value is needed.
	if (wanted.length && !(q.polar && anchored && c?.name !== "deadline")) {
		const found = kindsFound(index, doc, q, g, wanted);
		if (!found.length) {
			const untypedCount = c?.name === "frequency" && cov >= MIN_COVERAGE_UNTYPED_COUNT && namesSubject(index, doc, q.subject);
			// "Who is it for?" may be answered by a description ("a male user in his fifties"), not a name.
			const untypedWho = c?.name === "who" && cov >= MIN_COVERAGE_UNTYPED_WHO && namesSubject(index, doc, q.subject);
			// "Where is it specified?": in a document the sentence names ("in annex 1 of the specifications").
			const inDocument = c?.name === "place" && cov >= MIN_COVERAGE_UNTYPED_COUNT && doc.concepts.has("documents");
			if (!untypedCount && !untypedWho && !inDocument) return cov >= 0.9 ? "no_value" : "off_topic";
		}
		// A bare number pins an answer down only where the sentence or the notice's title names what is asked about: an
		// opening sentence naming a prize does not make every figure of a long item description ("12 845 m2") its amount.
		strong = found.some((k) => STRONG_KINDS.has(k) && (k !== "number" || namesSubject(index, doc, q.subject) || titleNames(index, q)));
		typedWeak = found.length > 0;
	}
	// A sentence naming neither the topic nor any word of the subject itself is read in the title's light only: a strong value
	// in it is another topic's ("Learners 16 – 25 years" is no duration of the purchasing system the title names).
	// The contract's own words do not count as naming the subject then ("Contract start: ..." names no fitting of wigs).
	if (!anchored && ownSubject.some((s) => !s.optional) && !namesSubject(index, doc, ownSubject)) return "off_topic";
	// A question naming nothing but its topic ("where will the goods be delivered?") is not answered by any capitalized word
	// of a sentence that does not name the topic either: that would be a guess.
	// So for a question whose words could not be carried into the notice's language and that the sentence does not name:
	// "where will the goods be delivered?" on a Norwegian notice is not answered by a sentence's capitalized words.
	const namesNothing = !q.subject.length || (q.subject.every((s) => s.optional) && !namesSubject(index, doc, q.subject));
	if (!strong && !anchored && namesNothing && typedWeak) return "off_topic";
	// Nor by a date or a figure of a sentence that does not name the topic: "what is the delivery timeframe?" is not answered
	// by a meeting's date or a software version's year. Where the topic is given first of all as a link, an e-mail or a phone
	// number, one is the answer whatever the sentence calls it ("Click here: https://..." for "where can I find more
	// information?"); a portal's link is no place of delivery.
	const reachable = !!c?.kinds?.[0] && REACHABLE_KINDS.has(c.kinds[0]);
	// Words naming the contract itself ("when does the contract start?") are in nearly every sentence: beside a topic given by
	// a kind of value they name no subject, unless the value is a duration ("both contracts are to be for 3 years").
	const topicOnly =
		!q.subject.length || (!!c?.kinds?.length && q.subject.every(contractWord) && !kindsFound(index, doc, q, g, ["duration"]).length);
	if (!anchored && topicOnly && c && !q.polar && !(reachable && wanted.some((k) => REACHABLE_KINDS.has(k) && kindsOf(index, doc).has(k))))
		return "off_topic";
	// What a notice covers is named in every other sentence: a question whose words could not be carried into the
	// notice's language ("is a parking garage included?") is not answered by that alone.
	if (c?.name === "scope" && q.subject.length && q.subject.every((s) => s.optional) && !namesSubject(index, doc, q.subject))
		return "off_topic";
	// Where the notice speaks of the asked topic for what the question names and gives no value of the asked kind ("six
	// gyrotrons ... to be delivered at ITER site", no date), a value in a sentence not naming the topic is another topic's
	// ("expected Q4 2022" is a task order's): the notice leaves the asked fact open.
	if (c && !anchored && !q.polar && cov > 0 && borrowsTime(q, wanted) && topicWithoutValue(index, q, g) >= cov) return "off_topic";
	const needed = minCoverage ?? (strong || (anchored && typedWeak) ? MIN_COVERAGE_TYPED : anchored ? MIN_COVERAGE_ANCHORED : MIN_COVERAGE);
	if (cov >= needed) return "answers";
	// The topic named and a strong value of the asked kind: words the notice never uses at all
	// ("where can I find ...") cannot make it answer less.
	if (anchored && strong && coverage(index, doc, q.subject, true) >= needed) return "answers";
	// Likewise a yes/no question on a topic the sentence names: "is compliance with a particular standard required?" is
	// answered by "ensuring compliance with SHQS", whose notice never says "particular".
	// Only for a topic of its own (a certification, a security), not for what the notice covers ("is installation included?").
	if (q.polar && anchored && (c?.required || c?.cueRequired) && coverage(index, doc, q.subject, true) >= needed) return "answers";
	return "off_topic";
}

const SECTION_WEIGHT: Partial<Record<Section, number>> = { title: 0.5, signal: 0.8, detail: 0.8, amendment: 1.1 };

function rank(index: Index, q: QuestionInfo, g: Grounding): Candidate[] {
	const weights = q.subject.map((s) => s.weight);
	const unit = weights.length ? weights.reduce((a, b) => a + b, 0) / weights.length : 1;
	return index.docs
		.map((doc) => {
			const score = bm25(index, doc, q.subject);
			let total = score;
			if (q.asked) {
				if (cued(index, doc, q.asked, q)) total += 0.8 * unit * Math.min(3, doc.concepts.get(q.asked.name) ?? 1);
			}
			// The first kind a question needs is its best evidence (an address for a place, a name after it).
			const wanted = requiredKinds(q);
			const found = wanted.length ? kindsFound(index, doc, q, g, wanted) : [];
			if (found.length) total += (found.includes(wanted[0]!) ? 1.2 : 0.8) * unit;
			for (const n of q.concepts) if (n !== q.asked?.name && doc.concepts.has(n)) total += 0.2 * unit;
			// With no subject to rank by, a sentence using the question's own words for its topics ("lodged", "responses") is closer.
			if (!q.subject.length) for (const stem of echoStems(q)) if (doc.tf.has(stem)) total += ECHO_WEIGHT * unit;
			total *= SECTION_WEIGHT[doc.passage.section] ?? 1;
			return { doc, score, total };
		})
		.filter((c) => c.total > 0)
		.sort((a, b) => b.total - a.total || a.doc.passage.id - b.doc.passage.id);
}

/** A question's own words for the topics it names (not the question words): a sentence repeating them is closer. */
const ECHO_WEIGHT = 0.3;
const NOT_ECHOED = new Set<ConceptName>(["frame", "polar", "when", "who", "quantity", "amount", "duration", "frequency", "place"]);
function echoStems(q: QuestionInfo): string[] {
	return [...q.conceptStems].filter(([n]) => !NOT_ECHOED.has(n)).flatMap(([, stems]) => [...stems]);
}

/** How much of the subject an item's own description names (numbers as written: "lot 2", "3 ml"). */
function itemCoverage(index: Index, fact: Fact, q: QuestionInfo): number {
	const tokens = tokensOf(`${fact.name.replace(/\D/g, " ")} ${fact.about ?? fact.text}`, index.lang);
	const tf = new Map<string, number>();
	for (const t of tokens) {
		tf.set(t.stem, 1);
		tf.set(t.word, 1);
	}
	let possible = 0;
	let covered = 0;
	for (const s of q.subject) {
		possible += s.weight;
		if (termFrequency(index, tf, s) > 0) covered += s.weight;
	}
	return possible ? covered / possible : 1;
}

/** The items a question is about: those naming most of its subject; all of them when it names none. */
function selectItems(index: Index, facts: Fact[], q: QuestionInfo, quantityOnly: boolean): Fact[] {
	const items = facts.filter((f) => !quantityOnly || typeof f.quantity === "number");
	if (!items.length) return [];
	if (!q.subject.length) return items.length > 1 || quantityOnly ? items.slice(0, MAX_ITEMS) : [];
	const scored = items.map((f) => ({ f, cov: itemCoverage(index, f, q) }));
	const best = Math.max(...scored.map((s) => s.cov));
	if (best < 0.5) return [];
	return scored
		.filter((s) => s.cov >= best - 1e-9)
		.map((s) => s.f)
		.slice(0, MAX_ITEMS);
}

/** "How many lots": what the question counts is named by the lots concept's own words. */
function countsLots(q: QuestionInfo): boolean {
	if (!q.counted.length) return false;
	if (q.counted.every((stem) => isConceptWord(stem, "lots", [q.lang]))) return true;
	// "How many sub-contracts": the lots' word may be one of several stems of a hyphenated word.
	const counted = q.subject.filter((s) => q.counted.includes(s.term));
	if (counted.length && counted.every((s) => s.concept === "lots")) return true;
	// "Into how many parts is the contract split?": one plain word counted while another word of the question names the
	// lots (split, divided) counts the parts the purchase is split into.
	return (
		q.counted.length === 1 &&
		!isConceptWord(q.counted[0]!, "scope", [q.lang]) &&
		[...(q.conceptStems.get("lots") ?? [])].some((stem) => !q.counted.includes(stem))
	);
}

/** The structured fields that answer the question, if it asks about one the notice has. */
function fromFields(index: Index, q: QuestionInfo, g: Grounding): Fact[] {
	const c = q.asked;
	if (c?.name === "quantity" && countsLots(q)) {
		const lots = g.facts.filter((f) => f.field === "lots");
		if (lots.length) return lots;
	}
	if (!c?.fields) return [];
	// "Who may bid?" with no eligibility field: the procedure says whether any supplier may ("open", "all interested suppliers").
	if (c.name === "eligibility" && !q.polar && !g.facts.some((f) => f.field === "eligibility")) {
		const procedure = g.facts.filter((f) => f.field === "procedure" && /\bcompetition (open|restricted)\b/.test(f.text));
		if (procedure.length) return procedure;
	}
	for (const field of c.fields) {
		const facts = g.facts.filter((f) => f.field === field);
		if (!facts.length) continue;
		// The enquiry field is a date: it answers until when questions may be asked, not how or to whom.
		if (field === "enquiry" && !q.concepts.some((n) => n === "when" || n === "deadline")) continue;
		if (field === "items") {
			const chosen = selectItems(index, facts, q, c.name === "quantity");
			if (chosen.length) return chosen;
			continue;
		}
		return facts;
	}
	return [];
}

const quote = (p: Passage) => `${SECTION_SAYS[p.section] ?? "The notice says"}: "${p.text}"`;

function fieldLines(facts: Fact[]): string[] {
	const byName = new Map<string, string[]>();
	for (const f of facts)
		byName.set(f.name.replace(/\[\d+\]$/, ""), [
			...(byName.get(f.name.replace(/\[\d+\]$/, "")) ?? []),
			`${/\[\d+\]$/.test(f.name) ? `${f.name}: ` : ""}${f.text}`,
		]);
	return [...byName].map(([name, values]) => `The notice's data, field ${name}: ${values.join(" | ")}`);
}

function notStated(topic: string, g: Grounding): ExtractiveAnswer {
	const contactFact = g.facts.find((f) => f.field === "contacts" && EMAIL_RE.test(f.text));
	const withEmail = g.passages.filter((p) => EMAIL_RE.test(p.text));
	const contact = contactFact?.text ?? (withEmail.find((p) => /question|inquir|enquir|contact|clarif/i.test(p.text)) ?? withEmail[0])?.text;
	const email = contact ? EMAIL_RE.exec(contact)?.[0] : undefined;
	const ask = email ? ` The notice names ${email} as a contact for questions.` : "";
	return { answer: `${NOT_STATED} ${topic}.${ask}`, model: EXTRACTIVE_MODEL, stated: false, quoted: [], fields: [] };
}

/** Company lines that speak to the question (profile, matched product, eligibility verdict). */
function companyLinesFor(q: QuestionInfo, g: Grounding): string[] {
	const wanted = new Set(q.subject.map((s) => s.term));
	return g.company.filter(
		(line) =>
			tokensOf(line, "en").some((t) => wanted.has(t.stem)) ||
			(/eligible/i.test(line) && (q.concepts.includes("eligibility") || /\b(bid|qualif\w*|can we|may we)\b/i.test(q.text))) ||
			(/product/i.test(line) && /\b(products?|catalog\w*|offer|sell|match\w*)\b/i.test(q.text)),
	);
}

/**
 * Questions about the asking company ("we", "our") get its side too. When the notice has
 * nothing on a question only the company's data answers ("which of our products matches?"),
 * the company's data is the answer.
 */
function withCompany(a: ExtractiveAnswer, q: QuestionInfo, g: Grounding): ExtractiveAnswer {
	if (!q.aboutCompany) return a;
	if (!g.company.length) return { ...a, answer: `${a.answer}\nThe company's profile was not available to check this against.` };
	const relevant = companyLinesFor(q, g);
	const part = `From the company's data: ${(relevant.length ? relevant : g.company).join(". ")}.`;
	if (!a.stated && relevant.length) return { ...a, answer: part, stated: true };
	return { ...a, answer: `${a.answer}\n${part}` };
}

/** The notice's index and the question read against it (earlier user turns for follow-ups). */
function read(g: Grounding, question: string, history: AskTurn[]): { index: Index; q: QuestionInfo } {
	const index = indexOf(g);
	const earlier = recentTurns(history)
		.filter((t) => t.role === "user")
		.map((t) => t.text);
	return { index, q: analyzeQuestion(question, g.lang, index.vocabulary, earlier) };
}

export function answerExtractive(g: Grounding, question: string, history: AskTurn[] = []): ExtractiveAnswer {
	const { index, q } = read(g, question, history);
	const fields = fromFields(index, q, g);
	const ranked = rank(index, q, g);
	const passing = ranked.slice(0, CANDIDATES).filter((c) => judge(index, c.doc, q, g) === "answers");
	// The best evidence of the asked kind (an address for "where") wins over a better-worded sentence without it.
	const wanted = requiredKinds(q);
	const typed = wanted.length
		? passing.find((c) => (!q.asked || cued(index, c.doc, q.asked, q)) && kindsFound(index, c.doc, q, g, wanted.slice(0, 1)).length > 0)
		: undefined;
	// A topic without a kind of value (what a framework includes, how it is split) is best answered by a sentence naming it.
	const named = !wanted.length && q.asked ? passing.find((c) => cued(index, c.doc, q.asked!, q)) : undefined;
	let best = typed ?? named ?? passing[0];
	// With the answer in a field, a sentence is only added when it names the asked topic itself; its
	// coverage of the question's other words matters less then ("do we pay for the documents?").
	// A count question keeps the sentence that counts its subject (the item list may count the whole item).
	if (fields.length && q.asked && q.asked.name !== "quantity") {
		const c = q.asked;
		best =
			passing.find((x) => cued(index, x.doc, c, q)) ??
			ranked
				.slice(0, CANDIDATES)
				.find((x) => cued(index, x.doc, c, q) && (judge(index, x.doc, q, g, 0) === "answers" || coverage(index, x.doc, q.subject) >= 0.8));
		// A field without the kind of value the topic is mostly given in (a place that is only a country code)
		// leaves the sentence holding one (a street address) worth quoting beside it.
		const lead = c.kinds?.[0];
		if (!best && lead && !fields.some((f) => kindsIn(f.text, index.lang).has(lead)))
			best = passing.find((x) => kindsFound(index, x.doc, q, g, [lead]).length > 0);
	}
	// An item sentence repeating a listed item adds nothing.
	if (best && best.doc.passage.item !== undefined && fields.includes(g.facts[best.doc.passage.item]!)) best = undefined;

	if (!fields.length && !best) {
		// The topic asked found nothing, but the question word still types the answer: "when does the current framework
		// expire?" is answered by the sentence naming all of it with a date, whatever the topic's own words were.
		const typedBy = questionWordAnswer(index, q, g);
		if (typedBy) best = typedBy;
	}
	if (!fields.length && !best) {
		// A field in the source's own words that names nearly all of what is asked ("If 3+ bids offer Canadian goods/services
		// other bids will not be considered", kept as the procedure) answers whatever topic the question was read as.
		const fact = factNamingSubject(index, q, g);
		if (fact) fields.push(fact);
	}
	if (!fields.length && !best) {
		// "What does it cover?": the notice's own description. A question naming nothing at all
		// ("and what about that?" after unrelated turns) is not answered by guessing a topic.
		if (q.asked?.name === "scope" && !q.subject.some((s) => !s.optional) && !q.aboutCompany) return describe(g);
		return withCompany(notStated(q.asked?.topic || "an answer to this question", g), q, g);
	}

	const quoted: Passage[] = [];
	if (best) {
		quoted.push(best.doc.passage);
		{
			// Further sentences that pass on their own and bring subject terms the first one lacks.
			const seen = new Set(q.subject.filter((s) => termFrequency(index, best!.doc.tf, s) > 0).map((s) => s.term));
			for (const c of passing) {
				if (quoted.length > MAX_EXTRAS || c.total < EXTRA_SHARE_TYPED * best.total) break;
				if (c === best) continue;
				// Below the usual share, only a sentence holding the asked kind of value is worth adding.
				const typedExtra = wanted.length > 0 && kindsFound(index, c.doc, q, g, wanted).length > 0;
				const adds = q.subject.filter((s) => !seen.has(s.term) && termFrequency(index, c.doc.tf, s) > 0);
				// A sentence covering as much of the question as the first and bringing a word it lacks ("non-mandatory" beside
				// "attend ... attend") is evidence of its own, whatever a repeated word did to its score.
				const complements = adds.length > 0 && coverage(index, c.doc, q.subject) >= coverage(index, best.doc, q.subject);
				if (c.total < EXTRA_SHARE * best.total && !typedExtra && !complements) continue;
				if (!adds.length && !typedExtra && c.total < NEAR_TIE * best.total) continue;
				quoted.push(c.doc.passage);
				for (const s of adds) seen.add(s.term);
			}
		}
	}
	// A topic without a kind of value is also answered by a passing heading that names it and lists it ("Anskaffelsen er delt
	// opp i følgende delkontrakter:" above the lots), even where a sentence only mentioning the topic ranked first.
	if (best && !wanted.length && q.asked && !q.polar) {
		const list = passing.find(
			(c) => /:\s*$/.test(c.doc.passage.text) && cued(index, c.doc, q.asked!, q) && g.passages.some((x) => x.lead === c.doc.passage.text),
		);
		if (list && !quoted.includes(list.doc.passage)) quoted.push(list.doc.passage);
	}
	// A heading ending with a colon is answered by the lines under it ("... the following contracts:").
	const heading = quoted.find((p) => /:\s*$/.test(p.text));
	if (heading) for (const p of g.passages.filter((x) => x.lead === heading.text).slice(0, 8)) if (!quoted.includes(p)) quoted.push(p);
	// An amendment on the same topic may change the answer: show it whatever its rank.
	for (const doc of index.docs) {
		const p = doc.passage;
		if (p.section !== "amendment" || quoted.includes(p)) continue;
		if ((q.asked && cued(index, doc, q.asked, q)) || (q.subject.length && judge(index, doc, q, g, 0.3) === "answers")) quoted.push(p);
	}
	// Notices often carry their number in the title too, in the form bidders quote ("(K8C13-132317/A)").
	const title = g.passages.find((p) => p.section === "title");
	if (
		q.asked?.name === "reference" &&
		title &&
		!quoted.includes(title) &&
		/\b(?=[\w$-]*\d)[A-Za-z0-9$]+(?:[-/][A-Za-z0-9$]+)+\b/.test(title.text)
	)
		quoted.push(title);
	const lines = [...fieldLines(fields), ...quoted.sort((a, b) => a.id - b.id).map(quote)];
	return withCompany({ answer: lines.join("\n"), model: EXTRACTIVE_MODEL, stated: true, quoted, fields }, q, g);
}

/**
 * Question words that say what kind of value answers, and the strong kinds they ask for: "when" a date or a time, "where" an
 * address. ("How long" is asked as the contract period itself; "who" is answered by any capitalized word, too weak alone.)
 */
const QUESTION_WORDS: [ConceptName, ValueKind[]][] = [
	["when", ["date", "time"]],
	["place", ["address"]],
];
/** Coverage a sentence needs to answer by the question word's kind of value alone, its topic unnamed. */
const MIN_COVERAGE_QUESTION_WORD = 0.75;

/**
 * When the asked topic finds no field and no sentence, the question word read as the topic: the best sentence naming the
 * subject itself, nearly all of it, with a strong value of the kind the question word asks for. A question naming no
 * subject of its own ("when is the site visit?") is not answered this way: any dated sentence would do.
 */
function questionWordAnswer(index: Index, q: QuestionInfo, g: Grounding): Candidate | undefined {
	if (q.polar || !q.asked || !q.subject.some((s) => !s.optional && !s.literal)) return undefined;
	// Only a question word asks this way: "the fish deliveries" names a place of delivery but asks no "where".
	const [word, kinds] =
		QUESTION_WORDS.find(([n]) => n !== q.asked!.name && q.concepts.includes(n) && (!q.opening || q.opening.has(n))) ?? [];
	if (!word || !kinds) return undefined;
	// The notice speaks of the asked topic for this subject and gives no such value: the question word finds another topic's.
	if (borrowsTime(q, requiredKinds(q)) && topicWithoutValue(index, q, g) >= MIN_COVERAGE_QUESTION_WORD) return undefined;
	const asked = { ...CONCEPT_BY_NAME.get(word)!, kinds };
	const typedQ: QuestionInfo = { ...q, asked, concepts: q.concepts.filter((n) => n !== q.asked!.name) };
	return rank(index, typedQ, g)
		.slice(0, CANDIDATES)
		.find(
			(c) =>
				ownCoverage(index, c.doc.tf, q.subject) >= MIN_COVERAGE_QUESTION_WORD &&
				kindsFound(index, c.doc, typedQ, g, kinds).length > 0 &&
				judge(index, c.doc, typedQ, g) === "answers",
		);
}

/** Fields holding the source's own words, which a question may name without naming the field's topic. */
const WORDED_FIELDS = new Set<Field>(["procedure", "eligibility", "submission", "award_criteria", "items", "lots", "place"]);
/** Subject words a field must name for that: no single word ("ambulances" is in the item's name, not its number). */
const MIN_FACT_TERMS = 2;

/**
 * A field naming nearly all of the subject (three quarters of its weight, two words or more), for a question the topic
 * reading found nothing for: one asking about no topic with a kind of value (a yes/no question, "which", "what") only, since
 * "how many ambulances" is not answered by the item that names the ambulances without a number.
 */
function factNamingSubject(index: Index, q: QuestionInfo, g: Grounding): Fact | undefined {
	if (q.asked?.kinds?.length && !q.polar) return undefined;
	let best: { fact: Fact; cov: number } | undefined;
	for (const fact of g.facts) {
		if (!WORDED_FIELDS.has(fact.field)) continue;
		const tf = new Map<string, number>();
		for (const t of tokensOf(fact.about ?? fact.text, index.lang)) tf.set(t.stem, 1).set(t.word, 1);
		const named = q.subject.filter((s) => !s.optional && termFrequency(index, tf, s) > 0);
		if (named.length < MIN_FACT_TERMS) continue;
		const cov = ownCoverage(index, tf, q.subject);
		if (cov >= MIN_COVERAGE_QUESTION_WORD && (!best || cov > best.cov)) best = { fact, cov };
	}
	return best?.fact;
}

/** The share of the subject's weight the sentence itself names (the title's words do not count here). */
function ownCoverage(index: Index, tf: Map<string, number>, subject: SubjectTerm[]): number {
	const wanted = subject.filter((s) => !s.optional);
	const total = wanted.reduce((a, s) => a + s.weight, 0);
	const found = wanted.filter((s) => termFrequency(index, tf, s) > 0).reduce((a, s) => a + s.weight, 0);
	return total ? found / total : 0;
}

/** Sentences a language model gets for a question: the best-ranked ones, and always the title. */
const RETRIEVED = 14;

/**
 * The grounding narrowed to one question: every structured field, the title and the sentences the
 * offline answerer ranks best for it (amendments on the topic included). What a language model is
 * given, and what its answer is checked against.
 */
export function groundingFor(g: Grounding, question: string, history: AskTurn[] = []): Grounding {
	const { index, q } = read(g, question, history);
	const chosen = new Set(
		rank(index, q, g)
			.slice(0, RETRIEVED)
			.map((c) => c.doc.passage),
	);
	for (const p of g.passages)
		if (p.section === "title" || (p.section === "amendment" && q.asked && cued(index, index.docs[p.id]!, q.asked, q))) chosen.add(p);
	return { ...g, passages: g.passages.filter((p) => chosen.has(p)) };
}

/** "What does it cover?": the title and the sentences saying what the notice is about, else its opening ones. */
function describe(g: Grounding): ExtractiveAnswer {
	const index = indexOf(g);
	const text = index.docs.filter((d) => d.passage.section === "description" || d.passage.section === "item");
	const about = text.filter((d) => d.concepts.has("scope")).slice(0, 3);
	const chosen = (about.length ? about : text.slice(0, 3)).map((d) => d.passage);
	const quoted = [...g.passages.filter((p) => p.section === "title"), ...chosen].sort((a, b) => a.id - b.id);
	if (!quoted.length) return notStated("an answer to this question", g);
	return { answer: quoted.map(quote).join("\n"), model: EXTRACTIVE_MODEL, stated: true, quoted, fields: [] };
}

/** The ranked sentences with their verdicts, for diagnostics and tests (not used to answer). */
export function explain(
	g: Grounding,
	question: string,
): { text: string; total: number; coverage: number; verdict: Verdict; asked: ConceptName | null }[] {
	const { index, q } = read(g, question, []);
	return rank(index, q, g)
		.slice(0, 14)
		.map((c) => ({
			text: c.doc.passage.text.slice(0, 120),
			total: Number(c.total.toFixed(2)),
			coverage: Number(coverage(index, c.doc, q.subject).toFixed(2)),
			verdict: judge(index, c.doc, q, g),
			asked: q.asked?.name ?? null,
		}));
}
