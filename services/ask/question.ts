// What a question asks, in whatever language it is written: its language (the notice's or English,
// as its function words show), the concepts it names (concepts.ts) and the one it asks about, and
// its subject terms (the Snowball stems of its other content words, with their counterparts in the
// notice's language when it is another one: bridge.ts). A follow-up with nothing of its own
// ("and what about that?") borrows the latest earlier question's topic at half weight.
import { detectLanguage, isStopword, TEXT_LANGUAGES, wordsOf, type TextLanguage } from "../../shared/text/index.ts";
import { bridge, isGeneralWord } from "./bridge.ts";
import { CONCEPT_BY_NAME, type ConceptHit, conceptsIn, conceptTerm, isConceptWord, type Concept, type ConceptName } from "./concepts.ts";

export interface SubjectTerm {
	/** Folded stem in the question's language. */
	term: string;
	/** The same word in the notice's language (folded stems), when the languages differ. */
	alts: string[];
	weight: number;
	/** A number or code: matched as written. */
	literal: boolean;
	/** Asked in another language and not carried over into the notice's: counts only where found. */
	optional?: boolean;
	/** The glossary concept the word names ("framework", "samples"): a sentence naming it in any language has the word. */
	concept?: ConceptName;
}

export interface QuestionInfo {
	text: string;
	lang: TextLanguage;
	/** Every concept named, highest rank first (frame words left out). */
	concepts: ConceptName[];
	/** What the question asks about, after combining concepts ("when" + "offer" is the deadline). */
	asked: Concept | null;
	subject: SubjectTerm[];
	/** Numbers the question carries ("lot 2", "3 ml"): never the answer to "how many". */
	numbers: Set<string>;
	/** The question's own words for each concept it names (a notice using the same word names it too). */
	conceptStems: Map<ConceptName, Set<string>>;
	/** The same words by phrase ("compliance" and "standard" are two names of one topic, either found names it). */
	conceptPhrases: Map<ConceptName, string[][]>;
	/** Concepts named by the question's opening words ("When ...", "Bis wann ...", "Where ..."): what the question word asks. */
	opening?: Set<ConceptName>;
	/** What "how many" counts: the words right after it ("how many crew members" counts crew members, not tablets). */
	counted: string[];
	aboutCompany: boolean;
	/** A yes/no question ("Are variants accepted?", "Czy ...", "Onko ..."): a sentence naming the topic answers it, whatever value it holds. */
	polar: boolean;
}

const LITERAL_WEIGHT = 2;

/** Words of a concept the question names besides the one it asks about describe its topic: they count half. */
const SECONDARY_WEIGHT = 0.5;

/** Pronouns by which a company asks about itself ("are we eligible", "our products"). */
const SELF_WORDS = new Set(
	"we our us ours vi vår våre oss vores wir unser unsere uns nous notre nos nosotros nuestro nuestra nuestros noi nostro nostra my nasz nasze".split(
		" ",
	),
);

/** How much better a language neither the notice's, English nor the detected one must fit the question. */
const THIRD_LANGUAGE_MARGIN = 1;

/** The question's language: the notice's or English, whichever its function words and concept words fit better. */
function questionLanguage(question: string, noticeLang: TextLanguage): TextLanguage {
	const words = wordsOf(question);
	const detected = detectLanguage(question);
	const likely = new Set<TextLanguage>([noticeLang, "en", detected]);
	// A short question in a third language ("Vem driver ...?" on a Norwegian or English notice) may be
	// detected as another one: every language is tried, but one neither likely must fit clearly better.
	// Only a language with a function word of its own in the question is worth reading the glossary in.
	const own = (l: TextLanguage) => words.some((w) => isStopword(w, l) && ![...likely].some((k) => isStopword(w, k)));
	const candidates = [...likely, ...TEXT_LANGUAGES.filter((l) => !likely.has(l) && own(l))];
	let best = noticeLang;
	let bestScore = -1;
	for (const lang of candidates) {
		const stop = words.filter((w) => isStopword(w, lang)).length;
		const named = conceptsIn(question, [lang], true).hits.length;
		const score =
			stop + named + (lang === noticeLang ? 0.5 : 0) + (lang === detected ? 0.25 : 0) - (likely.has(lang) ? 0 : THIRD_LANGUAGE_MARGIN);
		if (score > bestScore) {
			best = lang;
			bestScore = score;
		}
	}
	return best;
}

/** The concept a question asks about, from the concepts it names (and whether it is a yes/no question). */
function askedConcept(names: Set<ConceptName>, polar = false): Concept | null {
	const has = (n: ConceptName) => names.has(n);
	// "Can tenders be submitted for several lots?" asks about the lots, not how to submit.
	if (polar && has("lots") && has("submission")) return CONCEPT_BY_NAME.get("lots")!;
	// "When are offers due", "bis wann ... Angebote eingehen": the date asked is the tender deadline,
	// unless the question is about when questions may be asked.
	if (has("when") && (has("offer") || has("submission")) && !has("enquiry") && !has("start") && !has("duration"))
		return CONCEPT_BY_NAME.get("deadline")!;
	// "Who should questions (or quotes) be sent to": the contact.
	if (has("enquiry") && !has("when") && !has("deadline") && (has("who") || has("submission") || has("contact")))
		return CONCEPT_BY_NAME.get("contact")!;
	if (has("who") && has("submission") && !has("when") && !has("deadline")) return CONCEPT_BY_NAME.get("contact")!;
	if (has("deadline") && has("enquiry")) return CONCEPT_BY_NAME.get("enquiry")!;
	if (has("enquiry") && has("when")) return CONCEPT_BY_NAME.get("enquiry")!;
	let best: Concept | null = null;
	for (const n of names) {
		const c = CONCEPT_BY_NAME.get(n)!;
		if (c.rank > 0 && (!best || c.rank > best.rank)) best = c;
	}
	// "When must delivery take place?", "when will the goods be delivered?": when, not where, the goods arrive.
	if (best?.name === "place" && has("when")) return CONCEPT_BY_NAME.get("delivery_time")!;
	return best;
}

/** What is asked, once the question's own reading has said whether a quantity word asks a count. */
function askedOf(concepts: Set<ConceptName>, quantityNoun: boolean, valueAsked: boolean, polar: boolean): Concept | null {
	if (valueAsked) return CONCEPT_BY_NAME.get("value")!;
	// "Which hospital ...?" asks for an organisation; "Is the hospital new?" does not.
	const asking = [...concepts].filter((n) => !(quantityNoun && n === "quantity") && !(polar && n === "organisation"));
	return askedConcept(new Set(asking), polar);
}

interface Analysis {
	lang: TextLanguage;
	polar: boolean;
	/** A quantity named by a noun after a leading question word ("where are the quantities ..."): not what is asked. */
	quantityNoun: boolean;
	/** "How much" right before a value's name ("mennyi a becsült érték"): the value is asked, not a count. */
	valueAsked: boolean;
	concepts: Set<ConceptName>;
	conceptStems: Map<ConceptName, Set<string>>;
	conceptPhrases: Map<ConceptName, string[][]>;
	opening: Set<ConceptName>;
	counted: string[];
	subject: { term: string; literal: boolean; weight: number; concept?: ConceptName }[];
	numbers: Set<string>;
}

function analyze(question: string, noticeLang: TextLanguage): Analysis {
	const lang = questionLanguage(question, noticeLang);
	const read = conceptsIn(question, [lang, "en", noticeLang], true);
	const tokens = read.tokens;
	// A deadline word qualified by the contract ("plazo del arrendamiento", "termin realizacji umowy",
	// "délai d'exécution") names the contract's term, not the date tenders are due.
	const nextContent = (k: number) => {
		while (k < tokens.length && isStopword(tokens[k]!.word, lang)) k++;
		return k;
	};
	const termOfContract = (h: ConceptHit) =>
		h.concept === "deadline" && read.hits.some((a) => a.concept === "agreement" && a.from === nextContent(h.to + 1));
	// "Which hospital", "Hvilket sykehus", "Welche Schule": a kind of organisation asked for opens the question after
	// function words only ("how far from Lake City" asks a distance).
	const asksOrganisation = (h: ConceptHit) =>
		h.from <= 2 && tokens.slice(0, h.from).every((t) => isStopword(t.word, lang) || isConceptWord(t.stem, "frame", [lang]));
	// Words naming the contract itself only qualify another word: they stay ordinary subject words.
	const hits = read.hits
		.filter((h) => h.concept !== "agreement" && (h.concept !== "organisation" || asksOrganisation(h)))
		.map((h): ConceptHit => (termOfContract(h) ? { ...h, concept: "duration" } : h));
	const concepts = new Set<ConceptName>();
	const conceptStems = new Map<ConceptName, Set<string>>();
	const conceptPhrases = new Map<ConceptName, string[][]>();
	const opening = new Set<ConceptName>();
	for (const h of hits) {
		if (h.concept === "frame" || h.concept === "polar") continue;
		if (h.from <= 2 && tokens.slice(0, h.from).every((t) => isStopword(t.word, lang) || isConceptWord(t.stem, "frame", [lang])))
			opening.add(h.concept);
		concepts.add(h.concept);
		conceptStems.set(h.concept, new Set([...(conceptStems.get(h.concept) ?? []), ...h.stems]));
		conceptPhrases.set(h.concept, [...(conceptPhrases.get(h.concept) ?? []), h.stems]);
	}
	// The words of the asked concept, of the frame and of what only qualifies the question ("when",
	// "who", and tenders when the question is about their deadline or submission) name no subject;
	// the words of any other concept do ("service response time": the response is the subject).
	// Yes/no questions open with an auxiliary or a question particle (the glossary's "polar" words), not a question word.
	const polar = !!tokens[0] && isConceptWord(tokens[0].stem, "polar", [lang]);
	// "Where are the quantities specified?": a question word leading the question asks; the quantity named later is its subject.
	const leading = hits.find((h) => h.from === 0)?.concept;
	const quantityNoun = (leading === "place" || leading === "when") && !hits.some((h) => h.concept === "quantity" && h.from <= 1);
	const howMuch = hits.find((h) => h.concept === "quantity");
	let next = howMuch ? howMuch.to + 1 : tokens.length;
	while (next < tokens.length && isStopword(tokens[next]!.word, lang)) next++;
	// "Mennyi a becsült érték?", "how much is the budget": how much a value is asks that value, not a count.
	// The value's name must end its phrase: in "how many ceiling profiles" the value word only qualifies what is counted.
	const valueAsked =
		!!howMuch &&
		hits.some((h) => h.concept === "value" && h.from === next && (h.to + 1 >= tokens.length || isStopword(tokens[h.to + 1]!.word, lang)));
	const asked = askedOf(concepts, quantityNoun, valueAsked, polar);
	const spent = new Set<ConceptName>(["frame", "polar", "when", "who", "scope", "quantity", "amount", "duration", "frequency", "place"]);
	if (asked) spent.add(asked.name);
	if (asked && ["deadline", "submission", "contact", "enquiry", "evaluation", "security", "option"].includes(asked.name))
		spent.add("offer");
	if (asked?.name === "deadline") spent.add("submission");
	if (asked?.name === "contact" || asked?.name === "enquiry") spent.add("enquiry").add("submission").add("contact");
	// "The deadline for questions": the deadline only qualifies what is asked.
	if (asked?.name === "enquiry") spent.add("deadline");
	const used = new Set<number>();
	const secondary = new Set<number>();
	// A word of a topic the question names besides the one asked stands for that topic in the notice's words too.
	const conceptAt = new Map<number, ConceptName>();
	for (const h of hits) {
		// "How many hospital beds": a kind of organisation the question does not ask about is an ordinary subject word
		// (any organisation the notice names is no hospital).
		if (h.concept === "organisation" && asked?.name !== "organisation") continue;
		for (let k = h.from; k <= h.to; k++) (spent.has(h.concept) && !h.compound ? used : secondary).add(k);
		if (!spent.has(h.concept) && !h.compound) for (let k = h.from; k <= h.to; k++) conceptAt.set(k, h.concept);
	}
	const subject: Analysis["subject"] = [];
	const numbers = new Set<string>();
	tokens.forEach((t, i) => {
		if (/^\d/.test(t.word)) numbers.add(t.word);
		if (used.has(i) || SELF_WORDS.has(t.word)) return;
		// A capital letter after a noun names one of several ("Modul C", "Part B"): matched as written, like a number.
		const prev = tokens[i - 1];
		const letter =
			/^\p{Lu}$/u.test(question.slice(t.at, t.at + t.word.length)) &&
			!!prev &&
			!isStopword(prev.word, lang) &&
			!isStopword(prev.word, "en");
		if (!letter && (isStopword(t.word, lang) || isStopword(t.word, "en") || (t.word.length < 2 && !/\d/.test(t.word)))) return;
		const literal = letter || /\d/.test(t.word);
		// A number in a question identifies what it asks about ("phase 2", "lot 3"): it weighs double.
		const term = literal ? t.word : t.stem;
		const concept = conceptAt.get(i);
		if (!subject.some((s) => s.term === term))
			subject.push({
				term,
				literal,
				weight: (secondary.has(i) ? SECONDARY_WEIGHT : 1) * (literal ? LITERAL_WEIGHT : 1),
				...(concept ? { concept } : {}),
			});
	});
	// The counted phrase: content words after the count word, up to the first function or frame word.
	const counted: string[] = [];
	const q = hits.find((h) => h.concept === "quantity" || h.concept === "amount");
	if (q) {
		let k = q.to + 1;
		while (k < tokens.length && isStopword(tokens[k]!.word, lang) && counted.length === 0) k++;
		for (; k < tokens.length && !used.has(k) && !isStopword(tokens[k]!.word, lang); k++) counted.push(tokens[k]!.stem);
	}
	return { lang, polar, quantityNoun, valueAsked, concepts, conceptStems, conceptPhrases, opening, counted, subject, numbers };
}

/** Languages whose nouns compound ("parkeringshall" holds "parkering"). */
const COMPOUNDING = new Set<TextLanguage>(["de", "nl", "no", "da", "sv", "fi", "et", "hu"]);
const MIN_COMPOUND_PART = 5;

/** Whether the notice uses a word: as such, or (in a compounding language) inside a compound. */
function presentIn(vocabulary: ReadonlySet<string>, lang: TextLanguage): (t: string) => boolean {
	if (!COMPOUNDING.has(lang)) return (t) => vocabulary.has(t);
	const words = [...vocabulary];
	const memo = new Map<string, boolean>();
	return (t) => {
		if (vocabulary.has(t)) return true;
		if (t.length < MIN_COMPOUND_PART) return false;
		let hit = memo.get(t);
		if (hit === undefined) memo.set(t, (hit = words.some((w) => w.length > t.length && (w.startsWith(t) || w.endsWith(t)))));
		return hit;
	};
}

/**
 * The question, read against the notice: `noticeLang` is the notice's language and `vocabulary`
 * the stems that occur in it (a translated subject word is kept only if the notice uses it).
 */
export function analyzeQuestion(
	question: string,
	noticeLang: TextLanguage,
	vocabulary: ReadonlySet<string>,
	earlierQuestions: string[] = [],
): QuestionInfo {
	const own = analyze(question, noticeLang);
	let concepts = own.concepts;
	const weighted: Analysis["subject"] = own.subject.map((s) => ({ ...s }));
	let lang = own.lang;
	const hasTopic = [...concepts].some((n) => (CONCEPT_BY_NAME.get(n)?.rank ?? 0) > 4) || weighted.length > 0;
	if (!hasTopic) {
		for (const earlier of [...earlierQuestions].reverse()) {
			const prev = analyze(earlier, noticeLang);
			if (!prev.subject.length && ![...prev.concepts].some((n) => (CONCEPT_BY_NAME.get(n)?.rank ?? 0) > 4)) continue;
			concepts = new Set([...concepts, ...prev.concepts]);
			for (const s of prev.subject) if (!weighted.some((w) => w.term === s.term)) weighted.push({ ...s, weight: s.weight * 0.5 });
			lang = prev.lang;
			break;
		}
	}
	// Asked in another language, a word the notice lacks and the CPV labels cannot translate may
	// simply be untranslated: it counts where found, and its absence proves nothing.
	const present = presentIn(vocabulary, noticeLang);
	const subject = weighted.map((s) => {
		const bridged = s.literal || lang === noticeLang ? [] : bridge(s.term, lang, noticeLang, present).filter((t) => t !== s.term);
		const alts = s.concept ? [...bridged, conceptTerm(s.concept)] : bridged;
		// A general word carried over ("equipment" as "utstyr") counts where found; its absence proves as little.
		const untranslated = lang !== noticeLang && !s.literal && !vocabulary.has(s.term) && (!bridged.length || isGeneralWord(s.term, lang));
		return { ...s, alts, ...(untranslated ? { optional: true } : {}) };
	});
	const ranked = [...concepts].sort((a, b) => (CONCEPT_BY_NAME.get(b)?.rank ?? 0) - (CONCEPT_BY_NAME.get(a)?.rank ?? 0));
	return {
		text: question,
		lang,
		concepts: ranked,
		asked: askedOf(concepts, own.quantityNoun, own.valueAsked, own.polar),
		subject,
		numbers: own.numbers,
		conceptStems: own.conceptStems,
		conceptPhrases: own.conceptPhrases,
		opening: own.opening,
		counted: own.counted,
		aboutCompany: wordsOf(question).some((w) => SELF_WORDS.has(w)),
		polar: own.polar,
	};
}
