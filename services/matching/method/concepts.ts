// Why: what kind of goods a product is and a notice buys, as CPV codes, whatever scheme or
// language each side is written in (issue 16). Products get concepts from their commodity codes
// (UNSPSC, PSC, NAICS through the crosswalks) and from the words of their name; notices from their
// codes and from their title and item lines in the notice's own language, read through the CPV's
// labels in that language. Two concepts agree as deep as their CPV codes share a prefix.
import {
	declaredUnlessContradicted,
	isStopword,
	purposeSplit,
	sentencesOf,
	termsOf,
	type TextLanguage,
	wordsOf,
} from "../../../shared/text/index.ts";
import { cpvDepth, cpvInLine } from "../../../shared/taxonomy/codes.ts";
import { cpvEntries, toCpv, type Language as CpvLanguage, CPV_LANGUAGES } from "../../../shared/taxonomy/index.ts";
import {
	cpvCodesForStems,
	cpvCodesForText,
	englishHeadOf,
	goodsDivision,
	goodsDivisionsOfStem,
	headStems,
	isLabelWord,
	kindOfHeadNoun,
	labelsHoldingHead,
	type LabelHit,
	labelWordWeight,
	writtenAsHead,
} from "../../../shared/taxonomy/label-index.ts";
import { coveringMember, umbrellaMembers, umbrellasCovering } from "../../../shared/taxonomy/umbrella.ts";
import { type CatalogContext, NO_CONTEXT } from "./catalog-context.ts";
import { type Code, parseCode } from "./codes.ts";
import type { NoticeView, ProductView } from "./types.ts";

export type ConceptSource = "code" | "crosswalk" | "name" | "description" | "title" | "item";

export interface Concept {
	/** CPV code, 8 digits. */
	code: string;
	/** Digits that say something (trailing zeros are "anything below"). */
	depth: number;
	source: ConceptSource;
	/** How far the concept can be trusted (1 = the publisher's own CPV code). */
	confidence: number;
	/** What it was read from, for the rationale. */
	from: string;
	/** For a crosswalk concept, the scheme it was mapped from (two such concepts of one scheme add nothing to the codes' own agreement). */
	scheme?: string;
	/** A product's head word read in another division than its qualifier's: a reading the product's own words rule out ("generators" of an electrosurgical generator). */
	ruledOut?: boolean;
	/** A reading of the word before a product phrase's head: that head (byQualifier). */
	qualifierOf?: string;
}

const cpvLanguages = new Set<string>(CPV_LANGUAGES);

/** The CPV label languages a notice's words are looked up in (Norwegian reads through Danish and Swedish, its near neighbours). */
export function labelLanguages(lang: TextLanguage): CpvLanguage[] {
	if (lang === "no") return ["da", "sv"];
	return cpvLanguages.has(lang) ? [lang as CpvLanguage] : ["en"];
}

export { cpvDepth };

function fromCode(c: Code, source: ConceptSource = "code"): Concept[] {
	if (c.scheme === "CPV") return [{ code: c.code, depth: cpvDepth(c.code), source, confidence: 1, from: `CPV ${c.code}` }];
	const scheme = c.scheme.toLowerCase() as "unspsc" | "psc" | "naics";
	return toCpv(scheme, c.code)
		.slice(0, 2)
		.map((h) => ({
			code: h.cpv,
			depth: cpvDepth(h.cpv),
			source: "crosswalk" as const,
			// Crosswalks are computed, not published: a strong mapping is still not the publisher's word.
			confidence: Math.min(0.9, 0.55 + 0.4 * h.score) * (h.inherited ? 0.9 : 1),
			from: `${c.scheme} ${c.code}`,
			scheme: c.scheme,
		}));
}

/** A label matched by one word says less than one matched by several. */
const LONE_WORD_SHARE = 0.85;

function fromText(
	text: string,
	langs: CpvLanguage[],
	source: ConceptSource,
	confidence: number,
	limit: number,
	mustHold?: string,
	ofNotice = false,
): Concept[] {
	const out: Concept[] = [];
	// A notice's words are read as what they explain best (a product's name reads only labels that hold its head).
	const read = ofNotice ? explained : (h: LabelHit[]) => h;
	for (const lang of langs)
		for (const h of read(cpvCodesForText(text, lang, { limit, mustHold })))
			out.push({
				code: h.code,
				depth: cpvDepth(h.code),
				source,
				confidence: (confidence * Math.min(1, h.coverage) * (h.matched.length >= 2 ? 1 : LONE_WORD_SHARE)) / Math.sqrt(h.ambiguity ?? 1),
				from: `"${h.matched.join(" ")}"`,
			});
	return out;
}

/**
 * A text read through a neighbour language's labels (Norwegian through Danish and Swedish) without its own
 * function words: Norwegian "skal" (shall) is no Swedish "skål" (bowl), "av" (of) no Danish noun.
 */
function inLabelLanguage(text: string, lang: TextLanguage, langs: readonly CpvLanguage[]): string {
	if ((langs as readonly string[]).includes(lang)) return text;
	return wordsOf(text)
		.filter((w) => !isStopword(w, lang))
		.map((w) => (lang === "no" ? danishSpelling(w, langs) : w))
		.join(" ");
}

/**
 * Norwegian spells with "s" the loanwords Danish and Swedish still write with "c" before e, i, y
 * ("sykler", "sentrifuge", "sement": "cykler", "centrifuge", "cement"). A word no label uses is read in
 * that spelling where a label does use it.
 */
function danishSpelling(word: string, langs: readonly CpvLanguage[]): string {
	if (!NORWEGIAN_SPELLING.some(([from]) => word.search(from) >= 0) || langs.some((l) => isLabelWord(word, l))) return word;
	for (let i = 1; i < 1 << NORWEGIAN_SPELLING.length; i++) {
		const c = NORWEGIAN_SPELLING.reduce((w, [from, to], k) => (i & (1 << k) ? w.replace(from, to) : w), word);
		if (c !== word && langs.some((l) => isLabelWord(c, l))) return c;
	}
	return word;
}

/**
 * Where Norwegian spelling parts from Danish (the labels' neighbour language) in the words of goods: loanwords
 * with "s" for "c" ("sykler", "sentrifuge"), "kj" for "k" and "øy" for "øj" ("kjøretøy": Danish "køretøj").
 */
const NORWEGIAN_SPELLING: readonly [RegExp, string][] = [
	[/s(?=[eiy])/g, "c"],
	[/kj/g, "k"],
	[/øy/g, "øj"],
];

/**
 * The readings a text's words are not better explained by: the same words read as a label they name only
 * in part ("Seats for motor vehicles" of "motor vehicles", which names "Motor vehicles" in full), or some
 * of them read into another division than the reading of all of them ("Motors" of "motor vehicles").
 * Some of them read in the same division stay: "centrifuges" of "laboratory centrifuges" is their kind too.
 */
function explained(hits: LabelHit[]): LabelHit[] {
	const within = (a: LabelHit, b: LabelHit) => a.matched.every((m) => b.matched.includes(m));
	return hits.filter(
		(h) =>
			!hits.some((g) => {
				if (g === h || !within(h, g) || g.coverage < h.coverage) return false;
				return within(g, h) ? g.coverage > h.coverage : g.code.slice(0, 2) !== h.code.slice(0, 2);
			}),
	);
}

/** What a line's purpose (after "for", "para", "für" ...) names is what the goods are for, not what is bought ("batteries for pick-ups"). */
const PURPOSE_SHARE = 0.4;
const PURPOSE_LINE_WORDS = 15;

/** A title or item line's concepts: what it names before its purpose preposition in full, what only its purpose names at a share. */
function fromLine(
	text: string,
	lang: TextLanguage,
	langs: CpvLanguage[],
	source: ConceptSource,
	confidence: number,
	limit: number,
): Concept[] {
	const whole = fromText(inLabelLanguage(text, lang, langs), langs, source, confidence, limit, undefined, true);
	// A long line (a list of lots) has many purposes; only a short one has one head.
	const split = text.split(/\s+/).length <= PURPOSE_LINE_WORDS ? purposeSplit(text, lang) : null;
	if (!split) return whole;
	const head = fromText(inLabelLanguage(split.head, lang, langs), langs, source, confidence, limit, undefined, true);
	if (head.length === 0) return whole;
	const headCodes = new Set(head.map((c) => c.code));
	return [...head, ...whole.filter((c) => !headCodes.has(c.code)).map((c) => ({ ...c, confidence: c.confidence * PURPOSE_SHARE }))];
}

/**
 * One concept per code. Readings of one code from several passages are independent evidence:
 * their confidences combine as a noisy-or (a title, an item line and a sentence that all read
 * as centrifuges are surer than one of them), up to a cap below a publisher's own code.
 */
function dedupe(concepts: Concept[]): Concept[] {
	const best = new Map<string, Concept>();
	for (const c of concepts) {
		const prev = best.get(c.code);
		if (!prev) best.set(c.code, c);
		else if (prev.source === "code" || c.source === "code") best.set(c.code, prev.confidence >= c.confidence ? prev : c);
		else {
			const combined = Math.min(COMBINED_MAX, 1 - (1 - prev.confidence) * (1 - c.confidence));
			best.set(c.code, { ...(prev.confidence >= c.confidence ? prev : c), confidence: combined });
		}
	}
	return [...best.values()];
}

const COMBINED_MAX = 0.95;

/** A product's concepts: its codes, and what its name (and the first clause of its description) say it is. */
export function productConcepts(
	p: ProductView,
	codes: readonly Code[],
	serviceLike: boolean,
	context: CatalogContext = NO_CONTEXT,
): Concept[] {
	const out: Concept[] = [];
	for (const c of codes) out.push(...fromCode(c));
	// A label must name what the product is: the head (last content word) of its name's first clause, or of its description's.
	const name = p.name.split(/,|;|\(|\bwith\b|\bfor\b/i)[0] ?? p.name;
	// A description's first clause ends where it says what the product does ("... monitor that doubles as a module").
	const desc = (p.description ?? "").split(/[.;,(]|\bwith\b|\bfor\b|\bthat\b|\bwhich\b|\bincluding\b/i)[0] ?? "";
	// What the product says of itself anywhere (name, description, specs) chooses among its head's labels when its phrase names none.
	const specs = () => p.specs.map((s) => `${s.key.replace(/[_.]/g, " ")} ${s.value}`).join("; ");
	let stems: string[] | null = null;
	const ownStems = () => {
		stems ??= termsOf([p.name, p.description ?? "", specs()].join("\n"), "en");
		return stems;
	};
	const read = (phrase: string, source: ConceptSource, confidence: number) =>
		byQualifier(phrase, fromText(phrase, ["en"], source, confidence, 2, productHeadOf(phrase)), source, confidence, context);
	out.push(...read(name, "name", 0.9));
	if (desc) out.push(...read(desc, "description", 0.6));
	// Only a product that nothing else says the kind of reads it from its head's labels: its name's head first, else its description's.
	if (!out.some((c) => c.confidence >= FALLBACK_UNLESS && (serviceLike || goodsDivision(c.code))))
		for (const [phrase, source, confidence] of [
			[name, "name", 0.9],
			[desc, "description", 0.6],
		] as const) {
			const head = phrase ? lastNounOf(phrase) : undefined;
			const found =
				head !== undefined
					? fromHeadLabels(head, ownStems(), source, confidence, context)
					: phrase
						? fromQualifiers(phrase, source, confidence)
						: [];
			out.push(...found);
			if (found.length > 0) break;
		}
	// The catalog's own codes say which division the product is in; a name read into another division is a misreading ("monitor").
	const coded = new Set(out.filter((c) => c.source === "code" || c.source === "crosswalk").map((c) => c.code.slice(0, 2)));
	const kept = qualifiedElsewhere(out).filter((c) => {
		if (c.source === "code" || c.source === "crosswalk") return true;
		// A product is goods: a service code read from its name is a misreading.
		if (!serviceLike && !goodsDivision(c.code)) return false;
		return coded.size === 0 || coded.has(c.code.slice(0, 2));
	});
	return refineByText(dedupe(coded.size === 0 ? awayFromCatalog(kept, context) : kept));
}

/**
 * What a qualifier says of the head in one phrase holds for the head in the product's other phrases:
 * "Single-use electrosurgical pencil" in the description makes the name's "rocker switch pencil"
 * no more a stationery pencil than the description's (byQualifier halves only its own phrase's).
 */
function qualifiedElsewhere(concepts: Concept[]): Concept[] {
	const qualified = concepts.filter((q) => q.qualifierOf !== undefined);
	if (qualified.length === 0) return concepts;
	return concepts.map((c) =>
		qualified.some((q) => c.source !== q.source && c.from === `"${q.qualifierOf}"` && c.code.slice(0, 2) !== q.code.slice(0, 2))
			? { ...c, confidence: c.confidence * QUALIFIER_ELSEWHERE_SHARE }
			: c,
	);
}

/** A catalog whose largest CPV division holds this share of its products sells one line of goods. */
const SPECIALISED = 0.6;
/** A lone word's reading in a division none of such a catalog's other products is in is likely another kind of the word. */
const AWAY_FROM_CATALOG_SHARE = 0.6;

/**
 * A lone word read into a division where none of a specialised catalog's other products is says
 * less: "pencil" is stationery by its labels, but a company whose products are all medical sells an
 * electrosurgical pencil. The reading stays (the word may mean it), weaker.
 */
function awayFromCatalog(concepts: Concept[], context: CatalogContext): Concept[] {
	// The words a reading matched are the first quoted part of what it was read from ("dock" (the qualifier of "station")).
	const lone = (c: Concept) => (c.source === "name" || c.source === "description") && !/^"[^"]* /.test(c.from);
	if (!concepts.some(lone) || context.largest(2) < SPECIALISED) return concepts;
	return concepts.map((c) =>
		lone(c) && context.share(c.code.slice(0, 2)) === 0 ? { ...c, confidence: c.confidence * AWAY_FROM_CATALOG_SHARE } : c,
	);
}

/** Readings sure enough to tell the catalog which groups a product is in. */
const KIND_SURE = 0.5;

/** The CPV groups (3 digits) a product is surely read into by itself (its concepts read without its catalog), for its catalog's tally. */
export function ownKinds(contextFree: readonly Concept[]): string[] {
	const groups = contextFree.filter((c) => c.confidence >= KIND_SURE && goodsDivision(c.code)).map((c) => c.code.slice(0, 3));
	return [...new Set(groups)].sort();
}

/** A division that holds this share of a company's other products is its line of goods. */
const CATALOG_LINE = 0.5;

/** A head word's reading in another division than its qualifier's says little ("electrosurgical generator" is no power generator). */
const QUALIFIER_ELSEWHERE_SHARE = 0.5;

/**
 * The word before a phrase's head says which of the head's kinds is meant when only it is specific:
 * a qualifier whose goods labels all lie in one CPV division ("electrosurgical": medical) reads the
 * product into that division, and a reading of the head word alone in another division
 * ("generators", electrical machinery) becomes a weak guess. A qualifier found in labels of several
 * divisions ("refrigerated", "safety") says nothing of the kind and leaves the head's readings be;
 * so does one that only ever names a kind by itself.
 */
function byQualifier(
	phrase: string,
	concepts: Concept[],
	source: ConceptSource,
	confidence: number,
	context: CatalogContext = NO_CONTEXT,
): Concept[] {
	const words = labelTermsOf(phrase);
	const head = words.at(-1);
	const qualifier = words.at(-2);
	if (head === undefined || qualifier === undefined) return concepts;
	const divisions = goodsDivisionsOfStem(qualifier);
	const division = divisions.size === 1 ? [...divisions][0] : undefined;
	if (division === undefined || concepts.some((c) => c.code.startsWith(division))) return concepts;
	const own = cpvCodesForStems([qualifier], "en", { limit: 2, mustHold: qualifier })
		// A qualifier that is a kind by itself ("signage display", "copper pipe") says what the head shows or is made of, not which of its kinds it is.
		.filter((h) => h.code.startsWith(division) && h.coverage < 1)
		.map(
			(h): Concept => ({
				code: h.code,
				depth: cpvDepth(h.code),
				source,
				confidence: confidence * Math.min(1, h.coverage) * LONE_WORD_SHARE,
				from: `"${h.matched.join(" ")}" (the qualifier of "${head}")`,
				qualifierOf: head,
			}),
		);
	if (own.length === 0) return concepts;
	// A head whose labels all lie in one division ("microphones") is not ambiguous, whatever its qualifier ("ceiling") says; unless
	// the qualifier's division is the company's own line of goods ("electrosurgical" pencil in a medical catalog).
	if (goodsDivisionsOfStem(head).size < 2 && context.share(division) < CATALOG_LINE) return concepts;
	// Nor does a qualifier read the product out of its company's line into a division none of its products is in ("bedside" monitor is no cabinet).
	if (context.share(division) === 0 && concepts.some((c) => context.share(c.code.slice(0, 2)) >= CATALOG_LINE)) return concepts;
	const lone = (c: Concept) => !c.from.includes(" ");
	return [...concepts.map((c) => (lone(c) ? { ...c, confidence: c.confidence * QUALIFIER_ELSEWHERE_SHARE, ruledOut: true } : c)), ...own];
}

/**
 * The last content word of an English phrase that names a kind of goods: a word, not a figure or a
 * model code, that the CPV's labels use and not in most of them ("system", "unit" and "set" end
 * many names and say nothing; "shelving system" is shelving).
 */
function headOf(phrase: string): string | undefined {
	return labelTermsOf(phrase).at(-1);
}

/** A word that can head a product's kind: one the labels use and not in most of them, or one whose stem only begins a label stem ("haemodialyser"). */
function namesProductKind(t: string): boolean {
	const w = labelWordWeight(t);
	return w >= HEAD_MIN_WEIGHT || (w === 0 && headStems(t).length > 0);
}

/** A product phrase's head: as `headOf`, a word whose stem only begins a label stem included ("haemodialyser" of "haemodialysis"). */
function productHeadOf(phrase: string): string | undefined {
	return termsOf(phrase, "en")
		.filter((t) => /^[a-z]{3,}$/.test(t) && namesProductKind(t))
		.at(-1);
}

/**
 * The word a product phrase ends in, past figures, codes and words that end many labels without
 * naming a kind ("system", "unit"), when the labels know it (or a stem it begins): "e-bike" or
 * "thermal cycler" end in no such word and have no head to read, whatever word comes before.
 */
function lastNounOf(phrase: string): string | undefined {
	const terms = termsOf(phrase, "en").filter((t) => /^[a-z]{3,}$/.test(t));
	for (let i = terms.length - 1; i >= 0; i--) {
		const t = terms[i] ?? "";
		if (namesProductKind(t)) return t;
		if (labelWordWeight(t) === 0) return undefined;
	}
	return undefined;
}

/** A product that codes or names a kind at least this surely needs no reading from its head's labels. */
const FALLBACK_UNLESS = 0.3;
/** A reading from the head's labels alone, chosen by the product's other words, says less than a phrase that names a label. */
const HEAD_FALLBACK_SHARE = 0.6;
/** A label that only holds the head (it heads another kind: "Haemodialysis devices" of "haemodialyser") less than one it heads. */
const HELD_ONLY_SHARE = 0.8;
/** Labels within this share of the best one's fit are as likely. */
const NEAR_BEST = 0.8;
/** The catalog's division says less of a label than its group. */
const DIVISION_AFFINITY = 0.5;

/**
 * When a product's phrase names no CPV label as a whole ("interactive display", "high-flux
 * haemodialyser", "portable ultrasound system"), the labels its head word is in still say what it
 * can be: those it heads first ("Flat panel displays"), else those it is in ("Haemodialysis devices",
 * "Ultrasound scanners"); the product's own words (name, description, specs) choose among them as
 * far as they cover each label. Two equally likely labels of one class read as that class; a
 * reading so found is weaker than a label the phrase names.
 */
function fromHeadLabels(
	head: string,
	ownStems: readonly string[],
	source: ConceptSource,
	confidence: number,
	context: CatalogContext,
): Concept[] {
	const hits = labelsHoldingHead(head, ownStems);
	const headed = hits.some((h) => h.headed) ? hits.filter((h) => h.headed) : hits;
	// The catalog's other products say which of them the company sells: a label in their group or division counts up to twice.
	const affinity = (code: string) => Math.max(context.share(code.slice(0, 3)), DIVISION_AFFINITY * context.share(code.slice(0, 2)));
	const pool = headed
		.map((h) => ({ ...h, fit: h.coverage * (1 + affinity(h.code)) }))
		.sort((a, b) => b.fit - a.fit || b.coverage - a.coverage || (a.code < b.code ? -1 : 1));
	const best = pool[0];
	if (!best) return [];
	const near = pool.filter((h) => h.fit >= NEAR_BEST * best.fit);
	// The kind the likely labels share, at least a class (4 digits); else the likeliest two.
	let shared = best.code;
	for (const h of near) while (!h.code.startsWith(shared)) shared = shared.slice(0, -1);
	const chosen = shared.replace(/0+$/, "").length >= 4 ? [{ ...best, code: shared.padEnd(8, "0") }] : near.slice(0, 2);
	const share = HEAD_FALLBACK_SHARE * (best.headed ? 1 : HELD_ONLY_SHARE) * LONE_WORD_SHARE;
	return chosen.map((h) => ({
		code: h.code,
		depth: cpvDepth(h.code),
		source,
		confidence: (confidence * share) / Math.sqrt(chosen.length),
		from: `"${head}" (the labels it ${best.headed ? "heads" : "is in"}, by the product's words ${h.matched.join(" ")})`,
	}));
}

/**
 * A phrase whose last noun the labels do not know ("Gradient PCR thermal cycler") may still name,
 * before it, a kind of several words whose label it holds ("polymerase chain reaction equipment":
 * what the product is a kind of). A single word before an unknown head ("cargo" e-bike, "thin"
 * client) says too little, and is not read.
 */
function fromQualifiers(phrase: string, source: ConceptSource, confidence: number): Concept[] {
	return cpvCodesForText(phrase, "en", { limit: 2 })
		.filter((h) => h.matched.length >= 2 && goodsDivision(h.code))
		.map((h) => ({
			code: h.code,
			depth: cpvDepth(h.code),
			source,
			confidence: confidence * HEAD_FALLBACK_SHARE * Math.min(1, h.coverage),
			from: `"${h.matched.join(" ")}" (before a head the labels do not know)`,
		}));
}

/** The words of a phrase that can name a kind of goods, in order (a reference in brackets names none). */
function labelTermsOf(phrase: string, lang: CpvLanguage = "en"): string[] {
	return termsOf(phrase.replace(/\([^)]*\)/g, " "), lang as TextLanguage).filter(
		(t) => /^[a-z]{3,}$/.test(t) && labelWordWeight(t, lang) >= HEAD_MIN_WEIGHT,
	);
}

const HEAD_MIN_WEIGHT = 4;

const MAX_ITEMS = 40;

/** What a notice's title says it buys, read through the labels. */
const TITLE_CONFIDENCE = 0.9;
/** A bare head noun reads as the kind its labels share, as surely as one word reads a label. */
const HEAD_KIND_CONFIDENCE = TITLE_CONFIDENCE * LONE_WORD_SHARE;

/** A short line up to its purpose preposition ("Reifen für Fahrzeuge": "Reifen"); a long one (a list of lots) whole. */
function beforePurpose(text: string, lang: TextLanguage): string {
	return text.split(/\s+/).length <= PURPOSE_LINE_WORDS ? (purposeSplit(text, lang)?.head ?? text) : text;
}

/**
 * A title in another language that names no label but holds a word that labels hold mostly where their
 * English label is headed by one noun ("Lieferung von Fahrzeugen": "vehicles"; "Adquisición de vehículos"):
 * the kind that English noun names, read as `fromHeadNoun` reads it. Only a title whose words name one such kind.
 */
function fromAlignedNoun(title: string, lang: TextLanguage, langs: CpvLanguage[]): Concept[] {
	for (const l of langs) {
		// Any letters: Danish and Swedish stems keep their "ø", "å" ("køretøj").
		const words = termsOf(inLabelLanguage(beforePurpose(title.replace(/\([^)]*\)/g, " "), lang), lang, langs), l as TextLanguage).filter(
			(t) => /^\p{L}{3,}$/u.test(t) && labelWordWeight(t, l) >= HEAD_MIN_WEIGHT,
		);
		const kinds = new Map<string, { head: string; word: string; code: string }>();
		for (const w of words) {
			const head = englishHeadOf(w, l);
			const kind = head === null ? null : kindOfHeadNoun(head);
			if (head !== null && kind) kinds.set(kind.code, { head, word: w, code: kind.code });
		}
		if (kinds.size !== 1) continue;
		const [k] = [...kinds.values()];
		if (!k) continue;
		const only = words.every((t) => t === k.word);
		return [
			{
				code: k.code,
				depth: cpvDepth(k.code),
				source: "title",
				confidence: only ? TITLE_CONFIDENCE : HEAD_KIND_CONFIDENCE,
				from: `"${k.word}" (as "${k.head}": the kind its labels share)`,
			},
		];
	}
	return [];
}

/**
 * An English title that names no label but ends in a noun many labels end in ("NMSO - COMPUTERS",
 * "Batteries"): the kind those labels share, as a group or class the notice buys any of.
 */
function fromHeadNoun(title: string): Concept[] {
	// The head is what the title names before its purpose ("Tyres for vehicles" names tyres).
	const lead = beforePurpose(title.replace(/\([^)]*\)/g, " "), "en");
	const head = headOf(lead);
	const kind = head === undefined ? null : kindOfHeadNoun(head);
	if (!kind || head === undefined) return [];
	// Written as the labels write that noun: "Mobile Computing" (an activity) is not "computers", though both stem "comput".
	const word = wordsOf(lead).findLast((w) => termsOf(w, "en")[0] === head);
	if (word !== undefined && !writtenAsHead(word, head)) return [];
	// A title that is nothing but the noun ("NMSO - COMPUTERS") buys that kind as surely as a title names a label; one
	// that qualifies it with other words ("High Performance Computing") buys some of it.
	const only = labelTermsOf(title).every((t) => t === head);
	return [
		{
			code: kind.code,
			depth: cpvDepth(kind.code),
			source: "title",
			confidence: only ? TITLE_CONFIDENCE : HEAD_KIND_CONFIDENCE,
			from: `"${head}" (the kind its labels share)`,
		},
	];
}

/** A notice's codes after its main one say a little less about what it buys. */
const FURTHER_CODE_SHARE = 0.9;

/** A further code that only files the main kind more widely says much less. */
const WIDER_FILING_SHARE = 0.5;
/** CPV digits from which a main code names one kind of goods rather than a class of them. */
const SPECIFIC_DEPTH = 6;

/**
 * A further CPV code of the notice that is broader than its specific main one, in the same division
 * ("medical equipments" and "physical therapy devices" beside "angiography devices"): the publisher
 * files the one purchase more widely, it does not buy the rest of that class as well.
 */
function widerFiling(main: Code, further: Code): boolean {
	if (main.scheme !== "CPV" || further.scheme !== "CPV") return false;
	const mainDepth = cpvDepth(main.code);
	const depth = cpvDepth(further.code);
	return mainDepth >= SPECIFIC_DEPTH && depth < SPECIFIC_DEPTH - 1 && further.code.slice(0, 2) === main.code.slice(0, 2);
}

/**
 * The language a notice is written in: what its feed declares unless its title, first items and
 * description clearly read as another (the text toolkit's rule, the one ask reads notices by), else
 * what they read as.
 */
export function noticeLanguage(n: NoticeView): TextLanguage {
	const sample = [n.title, ...n.items.slice(0, 5).map((i) => i.description), n.description.slice(0, 600)].join("\n");
	return declaredUnlessContradicted(sample, n.language);
}

/**
 * A notice's concepts: its codes (any scheme), and its title, item lines and first sentences read in
 * its language. `lines`, when given, receives each distinct item line's own readings.
 */
export function noticeConcepts(n: NoticeView, codes: readonly Code[], lang: TextLanguage, lines?: Concept[][]): Concept[] {
	const out: Concept[] = [];
	// The first code is the notice's main classification; the others are further lines' and parts' (a tablet tender's "accessories for computers").
	const main = codes[0];
	// A line's own main code is what that line buys (a lot of another kind), never a wider filing.
	const lineCodes = new Set(
		n.items.map((i) => (i.classification ? parseCode(i.classification.code, i.classification.scheme)?.code : undefined)),
	);
	codes.forEach((c, i) => {
		const wider = main !== undefined && !lineCodes.has(c.code) && widerFiling(main, c);
		const share = i === 0 ? 1 : wider ? WIDER_FILING_SHARE : FURTHER_CODE_SHARE;
		for (const x of fromCode(c)) out.push({ ...x, confidence: x.confidence * share });
	});
	const langs = labelLanguages(lang);
	const title = fromLine(n.title, lang, langs, "title", TITLE_CONFIDENCE, 3);
	out.push(...title);
	if (!title.some((c) => c.confidence >= SETTLING_CONFIDENCE))
		out.push(...(lang === "en" ? fromHeadNoun(n.title) : fromAlignedNoun(n.title, lang, langs)));
	const read = new Set<string>();
	for (const item of n.items.slice(0, MAX_ITEMS)) {
		const text = item.description.trim();
		if (!text || text === n.title.trim()) continue;
		const line = fromLine(item.description, lang, langs, "item", 0.85, 2);
		out.push(...line);
		// Each distinct line once, for whoever asks what the notice lists.
		if (!read.has(text)) lines?.push(line);
		read.add(text);
	}
	// The description's opening sentences say what is bought when the title is a framework's name ("Rammeavtale IKT utstyr").
	for (const s of sentencesOf(n.description.slice(0, 1200), lang).slice(0, 3))
		out.push(...fromText(inLabelLanguage(s, lang, langs), langs, "description", 0.6, 2, undefined, true));
	// A notice that codes itself as services or works only: goods its words name are what the service is for ("grounds maintenance").
	const coded = out.filter((c) => c.source === "code");
	if (coded.length > 0 && !coded.some((c) => goodsDivision(c.code)))
		return dedupe(out.filter((c) => c.source === "code" || !goodsDivision(c.code)));
	return withSharedGroup(refineByText(dedupe(out)));
}

/** Readings sure enough to say which group of goods a notice is in. */
const GROUP_READING_MIN = 0.5;
/** The group all of them fall in says "something of this group", less than any one reading says what. */
const GROUP_SHARE = 0.8;

/**
 * Where every confident reading of a notice (its codes, crosswalked codes, title) falls in one CPV
 * group but none names it ("audio-visual equipment" and a code for video recorders, both under
 * sound and video apparatus), the notice buys in that group: its kinds are neighbours of each other,
 * and a product in the group is a neighbour too, more surely than any one reading's sibling says.
 */
function withSharedGroup(concepts: Concept[]): Concept[] {
	const sure = concepts.filter((c) => c.confidence >= GROUP_READING_MIN && goodsDivision(c.code));
	if (sure.length < 2) return concepts;
	const group = sure[0]?.code.slice(0, 3) ?? "";
	if (!sure.every((c) => c.code.startsWith(group)) || sure.some((c) => c.depth <= 3)) return concepts;
	const confidence = GROUP_SHARE * Math.min(...sure.map((c) => c.confidence));
	const code = group.padEnd(8, "0");
	return [
		...concepts,
		{ code, depth: 3, source: "title", confidence, from: `the group its readings share (${sure.map((c) => c.code).join(", ")})` },
	];
}

const fromCodes = (c: Concept) => c.source === "code" || c.source === "crosswalk";

/** One concept is the other's ancestor, descendant or itself. */
export const inLineage = (a: Concept, b: Concept) => cpvInLine(a.code, b.code, a.depth, b.depth);

/** How many leading CPV digits two codes share. */
export const sharedDigits = (a: string, b: string) => {
	let d = 0;
	while (d < 8 && a[d] === b[d]) d++;
	return d;
};

/** A text reading sure enough to settle what a code leaves open. */
const SETTLING_CONFIDENCE = 0.5;
const SETTLING_DEPTH = 4;

/**
 * What the words say settles what the codes leave open. A crosswalk gives a code up to two CPV
 * readings: those in one line of descent with the text's concepts stand, the others go (PSC 2310
 * "passenger motor vehicles" is motor vehicles or buses; a title "passenger cars" says which).
 * A broad code with a narrower reading of the text below it means that narrower kind: "motor
 * vehicles" whose title says "ambulances" buys ambulances, not any vehicle, and the code's
 * confidence goes to the narrower reading.
 */
export function refineByText(concepts: Concept[]): Concept[] {
	const text = concepts.filter((c) => !fromCodes(c) && c.confidence >= SETTLING_CONFIDENCE && c.depth >= SETTLING_DEPTH);
	if (text.length === 0) return concepts;
	const drop = new Set<Concept>();
	const readings = new Map<string, Concept[]>();
	for (const c of concepts) if (c.source === "crosswalk") readings.set(c.from, [...(readings.get(c.from) ?? []), c]);
	for (const group of readings.values()) {
		if (group.length < 2) continue;
		let settled = group.filter((c) => text.some((t) => inLineage(c, t)));
		// Else the reading that shares a class with the text's ("computer configurations" for a title "workstation", not "information systems").
		if (settled.length === 0) {
			const near = (c: Concept) => Math.max(...text.map((t) => sharedDigits(c.code, t.code)));
			const best = Math.max(...group.map(near));
			if (best >= SETTLING_DEPTH) settled = group.filter((c) => near(c) === best);
		}
		if (settled.length > 0) for (const c of group) if (!settled.includes(c)) drop.add(c);
	}
	const boosted = new Map<Concept, number>();
	for (const c of concepts) {
		if (!fromCodes(c) || drop.has(c)) continue;
		const below = text.filter((t) => t.depth > c.depth && t.code.startsWith(c.code.slice(0, c.depth)));
		if (below.length === 0) continue;
		drop.add(c);
		for (const t of below) boosted.set(t, Math.min(COMBINED_MAX, 1 - (1 - (boosted.get(t) ?? t.confidence)) * (1 - c.confidence)));
	}
	return concepts.filter((c) => !drop.has(c)).map((c) => (boosted.has(c) ? { ...c, confidence: boosted.get(c) ?? c.confidence } : c));
}

export interface ConceptAgreement {
	product: Concept;
	notice: Concept;
	/** CPV digits in common. */
	depth: number;
	/** The notice's concept is the product's or one of its ancestors: the notice buys a kind that includes the product. */
	contains: boolean;
	/** depth and containment scaled by both confidences, 0..1. */
	strength: number;
	/** When the notice's concept is a class label that covers the product's kind in another CPV branch: that kind (umbrella.ts). */
	member?: string;
}

// How much a shared prefix of this many CPV digits says about "the same kind of goods".
const DEPTH_STRENGTH: Record<number, number> = { 2: 0.1, 3: 0.5, 4: 0.8, 5: 0.95, 6: 1, 7: 1, 8: 1 };

// The notice buys a narrower kind than the product's concept says ("electron microscopes" for a
// product known only as "microscopes"), or a sibling kind: agreement says less than containment.
const NARROWER_SHARE = 0.7;
// Siblings in one CPV category (5 digits: "syringes" and "cannulas") are nearly the same kind; in one group less so.
const SIBLING_SHARE: Record<number, number> = { 2: 0.5, 3: 0.5, 4: 0.6, 5: 0.6, 6: 0.9, 7: 0.9 };

let breadths: Map<string, number> | null = null;
/** How many CPV codes lie under a prefix of 3 or 4 digits (the kind itself included). */
export function cpvBreadth(prefix: string): number {
	if (!breadths) {
		const counts = new Map<string, number>();
		for (const e of cpvEntries()) for (const l of [3, 4]) counts.set(e.code.slice(0, l), (counts.get(e.code.slice(0, l)) ?? 0) + 1);
		breadths = counts;
	}
	return breadths.get(prefix) ?? 1;
}

// A notice that buys a whole group or class ("motor vehicles", "computer equipment", "medical
// equipments") buys the product's kind as surely as that group is narrow: a class of up to some 45
// codes is the product's kind; each doubling beyond says a little less (motor vehicles, 87 codes,
// 0.93; computer equipment, 134, 0.88; medical equipments, 350, 0.76: "an umbrella notice naming no
// kind of goods"). Before, three digits counted 0.75 and four 1.0 whatever the group held.
const BREADTH_FULL = 1.2;
const BREADTH_PER_DOUBLING = 0.08;
const BREADTH_UNIT = 8;
export function containmentStrength(prefix: string): number {
	return Math.min(1, BREADTH_FULL - BREADTH_PER_DOUBLING * Math.log2(Math.max(1, cpvBreadth(prefix) / BREADTH_UNIT)));
}

/** A kind a notice's class label covers in another CPV branch (umbrella.ts) is bought as surely as its own, nearly. */
const UMBRELLA_SHARE = 0.9;

/**
 * The notice names a class of goods whose kinds UNSPSC files together across CPV branches ("audio-visual
 * equipment": microphones, loudspeakers, projectors): the product is one of them. As surely as the class is
 * narrow (its members counted as CPV codes under a group are), times UMBRELLA_SHARE.
 */
function umbrellaAgreement(p: Concept, n: Concept): ConceptAgreement | null {
	const member = coveringMember(n.code, p.code);
	if (member === undefined) return null;
	const breadth = umbrellaMembers(n.code).size + 1;
	const base = Math.min(1, BREADTH_FULL - BREADTH_PER_DOUBLING * Math.log2(Math.max(1, breadth / BREADTH_UNIT)));
	return {
		product: p,
		notice: n,
		depth: Math.max(SETTLING_DEPTH, sharedDigits(p.code, n.code)),
		contains: true,
		strength: UMBRELLA_SHARE * base * p.confidence * n.confidence,
		member,
	};
}

export function agreementOf(p: Concept, n: Concept): ConceptAgreement | null {
	const max = Math.min(p.depth, n.depth);
	let d = 0;
	while (d < max && p.code[d] === n.code[d]) d++;
	if (d < n.depth) {
		const u = umbrellaAgreement(p, n);
		if (u) return u;
	}
	if (d < 2) return null;
	const contains = d === n.depth && n.depth >= 3;
	const depthStrength = DEPTH_STRENGTH[d] ?? 0;
	const base = contains
		? d < 5
			? containmentStrength(n.code.slice(0, d))
			: depthStrength
		: depthStrength * (d === p.depth ? NARROWER_SHARE : (SIBLING_SHARE[d] ?? 0.5));
	return { product: p, notice: n, depth: d, contains, strength: Math.min(1, base) * p.confidence * n.confidence };
}

/** The strongest agreement between a product's and a notice's concepts. */
export function bestConceptAgreement(product: readonly Concept[], notice: readonly Concept[]): ConceptAgreement | null {
	let best: ConceptAgreement | null = null;
	for (const p of product)
		for (const n of notice) {
			if (p.scheme !== undefined && p.scheme === n.scheme) continue;
			const a = agreementOf(p, n);
			if (a && (!best || a.strength > best.strength)) best = a;
		}
	return best;
}

/** Index keys for stage 1: CPV prefixes from the group (3 digits) to the category (5). */
export function conceptKeys(c: Concept): string[] {
	const out: string[] = [];
	for (let l = 3; l <= Math.min(5, c.depth); l++) out.push(`k:${c.code.slice(0, l)}`);
	return out;
}

/** Stage-1 keys of a product's concept under the class labels that cover it in other CPV branches ("u:32321200" for a microphone). */
export function coveredKeys(c: Concept): string[] {
	return umbrellasCovering(c.code).map((u) => `u:${u}`);
}

/** The stage-1 key a notice's concept probes with when it is a class label covering kinds in other CPV branches. */
export function umbrellaKeys(c: Concept): string[] {
	return umbrellaMembers(c.code).size > 0 ? [`u:${c.code}`] : [];
}
