import type { AskTurn } from "../../shared/contract/opportunities.ts";
import { recentTurns, type Grounding, type Passage, type Section } from "./context.ts";
import { analyzeQuestion, hasAnswerType, STRONG_TYPES, type Intent, type QuestionInfo } from "./intents.ts";
import { buildIndex, idf, presentTerms, score, type Hit, type Index } from "./retrieve.ts";
import { EMAIL_RE, NUMBER_TOKEN, terms } from "./text.ts";

// The offline answerer (no model, no download): retrieve the passages that answer the question,
// decide whether they really do, and compose a plain-text answer that quotes them verbatim; or say
// plainly that the notice does not state it. Answerability is decided on evidence, not on rank:
// the best passage must cover the question (IDF-weighted share of its terms), carry the kind of
// value the question asks for (a date, a number, an amount, a name...) and, for topics notices are
// often silent on (warranty, site visit, budget, incumbent), speak about that topic at all.

export const EXTRACTIVE_MODEL = "oms-extractive-1";
/** Every answer that finds nothing starts with this; clients and the eval recognize it. */
export const NOT_STATED = "The notice does not state";

/** Coverage a passage needs when nothing more specific vouches for it. */
const MIN_COVERAGE = 0.5;
/** Coverage needed when the passage also carries the typed value the question asks for. */
const MIN_COVERAGE_TYPED = 0.3;
/** Coverage needed when a topical cue ("set-aside", "warranty", "delivery to") vouches for the passage. */
const MIN_COVERAGE_ANCHORED = 0.4;
/** Coverage needed when only a weak typed value (a name, a place, a code) vouches for the passage. */
const MIN_COVERAGE_WEAK = 0.5;
/** Passages looked at, best first, for one that passes the checks. */
const CANDIDATES = 6;
/** A further passage is quoted when it scores at least this share of the best one. */
const EXTRA_SHARE = 0.7;
const MAX_EXTRAS = 2;

export interface ExtractiveAnswer {
	answer: string;
	model: string;
	/** False when the answer says the notice does not state it. */
	stated: boolean;
	quoted: Passage[];
}

const SECTION_SAYS: Partial<Record<Section, string>> = {
	item: "The notice's item list says",
	amendment: "An amendment to the notice says",
	signal: "Matching extracted from the notice",
	deadline: "The notice's record says",
	value: "The notice's record says",
	category: "The notice's record says",
	reference: "The notice's record says",
	place: "The notice's record says",
	contact: "The notice's record says",
	document: "The notice's record says",
	set_aside: "The notice's record says",
	detail: "The notice's record says",
};

interface Candidate extends Hit {
	total: number;
}

/** What every candidate is judged against: the question, the notice's index and title, the buyer. */
interface Judge {
	q: QuestionInfo;
	g: Grounding;
	index: Index;
	/** Terms of the notice's title: what the whole notice is about, so every passage "covers" them. */
	title: Set<string>;
	/** The title itself: a count may name what it counts there ("Four units" of the incubators in the title). */
	titleText: string;
	/** Words that are never an answer to "which model / which company": buyer name, solicitation number. */
	known: string;
}

/**
 * The IDF-weighted share of the question's subject terms a passage accounts for: found in it or
 * in its heading, or in the notice's title (the subject of every passage). Terms that only say
 * what kind of question it is (owned by an intent: "warranty", "how many", "model number") are
 * left out: the intent's own checks stand for them. No subject terms at all: full coverage.
 */
function coverage(c: Candidate, j: Judge): number {
	let possible = 0;
	let covered = 0;
	for (const t of subjectTerms(j.q)) {
		const w = idf(j.index, t);
		possible += w;
		if (c.doc.tf.has(t) || j.title.has(t)) covered += w;
	}
	return possible > 0 ? covered / possible : 1;
}

/**
 * The question's own terms that name its subject: not owned by any of its intents, and not bare
 * numbers ("the two medical centers" names the centers, not a figure the passage must repeat).
 */
function subjectTerms(q: QuestionInfo): string[] {
	const owned = new Set([...q.owned.values()].flatMap((s) => [...s]));
	return q.terms.filter((t) => t.own && !owned.has(t.term) && !BARE_NUMBER.test(t.term)).map((t) => t.term);
}
const BARE_NUMBER = new RegExp(`^(${NUMBER_TOKEN})$`, "i");

/** Whether a passage answers: topic cues present, the asked-for kind of value present, enough coverage. */
function passes(c: Candidate, j: Judge, minCoverage?: number): boolean {
	return judgeCandidate(c, j, minCoverage) === "answers";
}

type Verdict = "answers" | "no_value" | "off_topic";

/** "no_value": about the topic but without the kind of value asked for; "off_topic": everything else that fails. */
function judgeCandidate(c: Candidate, j: Judge, minCoverage?: number): Verdict {
	const { q } = j;
	const text = c.doc.passage.text;
	const context = `${c.doc.passage.lead ?? ""} ${text}`;
	let strong = false;
	let weak = false;
	let anchored = false;

	for (const intent of q.intents) {
		const cued = intent.cue.source !== "." && intent.cue.test(context);
		if (intent.cueRequired && !cued) return "off_topic";
		if (intent.answer) {
			const found = intent.answer.filter((t) => hasAnswerType(t, text, q, j.known, j.titleText));
			if (!found.length) return coverage(c, j) >= 0.9 ? "no_value" : "off_topic";
			if (found.some((t) => STRONG_TYPES.has(t))) strong = true;
			else weak = true;
		}
		if (cued && intent.anchors) anchored = true;
	}
	// The passage itself must speak about the question's subject: a word of it in the passage, not
	// only in the title. A strong typed value (a date next to "due", an amount next to "budget") or
	// a topical cue ("set-aside", "warranty") already ties it down.
	const subject = subjectTerms(q);
	if (!strong && !anchored && subject.length && !subject.some((t) => c.doc.tf.has(t))) return "off_topic";
	const needed = minCoverage ?? (strong ? MIN_COVERAGE_TYPED : anchored ? MIN_COVERAGE_ANCHORED : weak ? MIN_COVERAGE_WEAK : MIN_COVERAGE);
	return coverage(c, j) >= needed ? "answers" : "off_topic";
}

function makeJudge(g: Grounding, q: QuestionInfo): Judge {
	const titleText = g.passages.find((p) => p.section === "title")?.text ?? "";
	const reference = g.passages.find((p) => p.section === "reference")?.text.replace(/^[^:]*:/, "") ?? "";
	return { q, g, index: buildIndex(g.passages), title: new Set(terms(titleText)), titleText, known: `${g.buyer} ${reference}` };
}

const typed = (j: Judge, intent: Intent, text: string) => intent.answer?.some((t) => hasAnswerType(t, text, j.q, j.known, j.titleText)) ?? false;

/** Ranking help: a passage on the asked topic, or holding the asked kind of value, comes first. */
function intentBonus(j: Judge, text: string, unit: number): number {
	let bonus = 0;
	for (const intent of j.q.intents) {
		if (intent.cue.source !== "." && intent.cue.test(text)) bonus += 0.5 * unit;
		if (typed(j, intent, text)) bonus += 0.8 * unit;
	}
	return bonus;
}

function rank(j: Judge): Candidate[] {
	const { index, q } = j;
	const own = q.terms.filter((t) => t.own);
	const unit = own.length ? own.reduce((s, t) => s + idf(index, t.term), 0) / own.length : 1;
	return index.docs
		.map((doc) => {
			const hit = score(index, doc, q.terms);
			let total = hit.score + (hit.score > 0 || q.intents.length ? intentBonus(j, doc.passage.text, unit) : 0);
			if (doc.passage.section === "signal") total *= 0.8; // derived: the notice's own words come first
			if (doc.passage.section === "title") total *= 0.5; // what the notice is about, rarely the answer
			if (RECORD_SECTIONS.has(doc.passage.section)) total *= 0.8; // structured copies: the notice's wording first
			if (doc.passage.section === "amendment") total *= 1.1; // later than the text it amends
			return { ...hit, total };
		})
		.filter((c) => c.total > 0)
		.sort((a, b) => b.total - a.total || a.doc.passage.id - b.doc.passage.id);
}

const RECORD_SECTIONS = new Set<Section>(["deadline", "value", "category", "reference", "buyer"]);

const quote = (p: Passage) => `${SECTION_SAYS[p.section] ?? "The notice says"}: "${p.text}"`;

function notStated(topic: string, g: Grounding): ExtractiveAnswer {
	const contact = g.passages.find((p) => EMAIL_RE.test(p.text) && /question|inquir|enquir|contact|clarif/i.test(p.text)) ?? g.passages.find((p) => EMAIL_RE.test(p.text));
	const email = contact ? EMAIL_RE.exec(contact.text)?.[0] : undefined;
	const ask = email ? ` The notice names ${email} as a contact for questions.` : "";
	return { answer: `${NOT_STATED} ${topic}.${ask}`, model: EXTRACTIVE_MODEL, stated: false, quoted: [] };
}

/** Company lines that speak to the question (profile, matched product, eligibility verdict). */
function companyLinesFor(q: QuestionInfo, g: Grounding): string[] {
	const wanted = new Set(q.terms.map((t) => t.term));
	return g.company.filter(
		(line) =>
			terms(line).some((t) => wanted.has(t)) ||
			(/eligible/i.test(line) && /\b(eligib\w*|bid|qualif\w*|can we|may we)\b/i.test(q.text)) ||
			(/product/i.test(line) && /\b(products?|catalog\w*|offer|sell|match\w*)\b/i.test(q.text)),
	);
}

/**
 * Questions about the asking company ("we", "our") get its side too. When the notice has
 * nothing on a question that only the company's data answers ("which of our products
 * matches?"), the company's data is the answer.
 */
function withCompany(a: ExtractiveAnswer, q: QuestionInfo, g: Grounding): ExtractiveAnswer {
	if (!q.aboutCompany) return a;
	if (!g.company.length) return { ...a, answer: `${a.answer}\nThe company's profile was not available to check this against.` };
	const relevant = companyLinesFor(q, g);
	const part = `From the company's data: ${(relevant.length ? relevant : g.company).join(". ")}.`;
	if (!a.stated && relevant.length && q.intents.length === 0) return { ...a, answer: part, stated: true };
	return { ...a, answer: `${a.answer}\n${part}` };
}

export function answerExtractive(g: Grounding, question: string, history: AskTurn[] = []): ExtractiveAnswer {
	const earlier = recentTurns(history)
		.filter((t) => t.role === "user")
		.map((t) => t.text);
	const q = analyzeQuestion(question, earlier);
	const j = makeJudge(g, q);

	// Topics notices are often silent on: no passage about them at all means "not stated".
	for (const intent of q.intents.filter((i) => i.required)) {
		const somewhere = j.index.docs.some((d) => intent.cue.test(`${d.passage.lead ?? ""} ${d.passage.text}`) && (!intent.answer || typed(j, intent, d.passage.text)));
		if (!somewhere) return withCompany(notStated(intent.topic, g), q, g);
	}

	const ranked = rank(j);
	// A name question whose most relevant passage speaks of the thing but names no one ("installed
	// by the maintenance contractor") is answered by that silence, not by a name found elsewhere.
	const nameIntent = q.intents.find((i) => i.name === "name");
	const top = ranked[0];
	if (nameIntent && top && judgeCandidate(top, j) === "no_value") return withCompany(notStated(nameIntent.topic, g), q, g);
	let best = ranked.slice(0, CANDIDATES).find((c) => passes(c, j));
	if (!best) return withCompany(notStated(q.intents[0]?.topic ?? "an answer to this question", g), q, g);
	// A structured copy (the deadline on record) is short and ranks well; the notice's own
	// wording of the same fact, when it passes too, comes first (the copy still follows below).
	if (RECORD_SECTIONS.has(best.doc.passage.section)) best = ranked.slice(0, CANDIDATES).find((c) => !RECORD_SECTIONS.has(c.doc.passage.section) && passes(c, j)) ?? best;

	// Further passages that pass on their own and bring question terms the first one lacks.
	const quoted: Passage[] = [best.doc.passage];
	const seen = presentTerms(best.doc, q.terms);
	for (const c of ranked) {
		if (quoted.length > MAX_EXTRAS || c.total < EXTRA_SHARE * best.total) break;
		if (c === best || !passes(c, j)) continue;
		const adds = [...presentTerms(c.doc, q.terms)].some((t) => !seen.has(t));
		if (!adds) continue;
		quoted.push(c.doc.passage);
		for (const t of presentTerms(c.doc, q.terms)) seen.add(t);
	}
	// The deadline on record (UTC) beside the notice's own wording of it.
	const onRecord = g.passages.find((p) => p.section === "deadline");
	if (onRecord && q.intents.some((i) => i.name === "deadline") && !quoted.includes(onRecord)) quoted.push(onRecord);
	// An amendment on the same topic may change the answer: show it whatever its rank.
	for (const c of ranked) {
		const p = c.doc.passage;
		if (p.section === "amendment" && !quoted.includes(p) && c.score > 0 && passes(c, j, 0)) quoted.push(p);
	}
	return withCompany({ answer: quoted.map(quote).join("\n"), model: EXTRACTIVE_MODEL, stated: true, quoted }, q, g);
}



/** The ranked passages with their verdicts, for diagnostics and tests (not used to answer). */
export function explain(g: Grounding, question: string): { text: string; total: number; coverage: number; verdict: Verdict }[] {
	const j = makeJudge(g, analyzeQuestion(question));
	return rank(j)
		.slice(0, 8)
		.map((c) => ({ text: c.doc.passage.text.slice(0, 120), total: Number(c.total.toFixed(2)), coverage: Number(coverage(c, j).toFixed(2)), verdict: judgeCandidate(c, j) }));
}
