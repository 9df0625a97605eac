// Why: the CPV's official labels in the EU languages, read as a dictionary from words in any of
// those languages to CPV codes (issue 16, item 3). A notice in German that buys "Laborzentrifugen"
// and a catalog that sells "refrigerated microcentrifuges" in English land on the same codes.
// Labels are matched by their stems (shared/text), weighted by how rare each stem is among labels.
import { foldOf, isStopword, purposeSplit, stemOf, termsOf, type TextLanguage, wordsOf } from "../text/index.ts";
import { cpvEntries, cpvLabels, type Language } from "./index.ts";

export interface LabelHit {
	/** CPV code, 8 digits without check digit. */
	code: string;
	/** Share of the label's weight found in the text (0..1). */
	coverage: number;
	/** Weight of the label stems found (rare stems weigh more). */
	weight: number;
	/** The label's stems that were found. */
	matched: string[];
	/** How many CPV divisions have a label made of exactly these stems (1 = unambiguous). */
	ambiguity?: number;
}

interface LabelEntry {
	code: string;
	stems: string[];
	total: number;
	/** A service or works label (CPV divisions 45 and 50-98). */
	service: boolean;
	/** One of the kinds a label lists ("laboratory equipments" of "Laboratory, optical and precision equipments"), not the label whole. */
	listed?: boolean;
	/** The stems before the label's purpose preposition, when it has one: what it is, not what it is for. */
	kindStems?: Set<string>;
}

/**
 * The kinds a label lists before one shared head: "Laboratory, optical and precision equipments" lists laboratory
 * equipments, optical equipments and precision equipments; "Estate and saloon cars" estate cars. Only a list of
 * single words before a last item of several ("Microphones and loudspeakers" lists no shared head), each word put
 * in place of the last item's first word ("Television and audio-visual equipment": television equipment).
 */
export function enumeratedKinds(label: string, lang: Language): string[][] {
	const parts = label
		.split(/,\s*|\s+(?:and|or|und|oder|et|ou|y|o|e|og|eller|och|i|lub|oraz)\s+/i)
		.map((p) => p.trim())
		.filter(Boolean);
	if (parts.length < 2) return [];
	const last = parts.at(-1) ?? "";
	const rest = last.split(/\s+/).slice(1).join(" ");
	const t = (x: string) => termsOf(x, lang as TextLanguage).filter((w) => !/^\d+$/.test(w));
	if (t(rest).length === 0 || t(last).length < 2 || !parts.slice(0, -1).every((p) => !/\s/.test(p) && t(p).length === 1)) return [];
	return parts.slice(0, -1).map((p) => [...new Set(t(`${p} ${rest}`))]);
}

interface LabelIndex {
	entries: LabelEntry[];
	postings: Map<string, number[]>;
	idf: Map<string, number>;
	/** Stems long enough to be the last part of a compound word ("laborzentrifug" ends in "zentrifug"). */
	compoundTails: Set<string>;
	/** Stems that by themselves say "a service" (most labels holding them are services: "servic", "repar", "hire"). */
	serviceWords: Set<string>;
	/** An acronym a label spells out in brackets, as the stems of the words it stands for ("pcr" -> polymerase chain reaction). */
	acronyms: Map<string, string[]>;
}

const COMPOUND_TAIL_MIN = 5;
const MIN_LONE_STEM = 4;
const SERVICE_WORD_MIN_LABELS = 5;
const SERVICE_WORD_SHARE = 0.8;
const indexes = new Map<Language, LabelIndex>();

// A label's qualifiers in brackets ("(excl. glasses)") and after "except" say what it is not.
function labelCore(label: string): string {
	return label.replace(/\([^)]*\)/g, " ").split(/\bexcept\b|\bexcl\b/i)[0] ?? label;
}

const ACRONYM = /([\p{L}][\p{L}-]*(?:\s+[\p{L}][\p{L}-]*)*)\s*\((\p{Lu}{2,6})s?\)/gu;

/**
 * The acronyms a label spells out: "Polymerase Chain Reaction (PCR) equipment" says that "PCR" is
 * those three words, so a text that writes only "PCR" names them. Only an acronym made of the
 * initials of the words right before it counts ("(DVD)" after "digital versatile disc").
 */
function labelAcronyms(label: string, lang: Language, into: Map<string, string[]>): void {
	for (const m of label.matchAll(ACRONYM)) {
		const letters = (m[2] ?? "").toLowerCase();
		const words = (m[1] ?? "").split(/[\s-]+/).filter(Boolean);
		if (words.length < letters.length) continue;
		const spelled = words.slice(-letters.length);
		if (spelled.map((w) => w[0]?.toLowerCase()).join("") !== letters) continue;
		const stems = termsOf(spelled.join(" "), lang as TextLanguage);
		// An acronym the stemmer would change is another word's stem too ("ILS" -> "il", as the state in "Chicago, IL").
		const key = termsOf(letters, lang as TextLanguage)[0];
		if (key === letters && stems.length > 0 && !into.has(key)) into.set(key, stems);
	}
}

function build(lang: Language): LabelIndex {
	const entries: LabelEntry[] = [];
	const df = new Map<string, number>();
	const acronyms = new Map<string, string[]>();
	for (const e of cpvEntries()) {
		const label = e.labels[lang];
		if (!label) continue;
		labelAcronyms(label, lang, acronyms);
		const stems = [...new Set(termsOf(labelCore(label), lang as TextLanguage))].filter((s) => !/^\d+$/.test(s));
		if (stems.length === 0) continue;
		const division = Number(e.code.slice(0, 2));
		// What a label names before its purpose preposition is its kind ("Programvara för upphandling" is software).
		const split = purposeSplit(labelCore(label), lang as TextLanguage);
		const kindStems = split ? new Set(termsOf(split.head, lang as TextLanguage)) : undefined;
		entries.push({ code: e.code, stems, total: 0, service: division === 45 || division >= 50, kindStems });
		for (const s of stems) df.set(s, (df.get(s) ?? 0) + 1);
	}
	const idf = new Map<string, number>();
	for (const [s, n] of df) idf.set(s, Math.log(1 + entries.length / n));
	// A label that lists kinds of one head ("Laboratory, optical and precision equipments") names each of them too:
	// "laboratory equipment" is that label's, though it holds half its words. The rarity of words stays the labels' own.
	for (const e of [...entries]) {
		const label = cpvLabels(e.code)?.[lang];
		for (const alt of label ? enumeratedKinds(labelCore(label), lang) : []) entries.push({ ...e, stems: alt, total: 0, listed: true });
	}
	const postings = new Map<string, number[]>();
	const compoundTails = new Set<string>();
	entries.forEach((e, i) => {
		e.total = e.stems.reduce((sum, s) => sum + (idf.get(s) ?? 0), 0);
		for (const s of e.stems) {
			const list = postings.get(s);
			if (list) list.push(i);
			else postings.set(s, [i]);
			if (s.length >= COMPOUND_TAIL_MIN) compoundTails.add(s);
		}
	});
	const serviceCount = new Map<string, number>();
	for (const e of entries) if (e.service && !e.listed) for (const s of e.stems) serviceCount.set(s, (serviceCount.get(s) ?? 0) + 1);
	const serviceWords = new Set<string>();
	for (const [s, n] of serviceCount) if (n >= SERVICE_WORD_MIN_LABELS && n >= SERVICE_WORD_SHARE * (df.get(s) ?? n)) serviceWords.add(s);
	// A word of the labels' own stays itself ("com" of "command" is no acronym).
	for (const k of [...acronyms.keys()]) if (postings.has(k)) acronyms.delete(k);
	return { entries, postings, idf, compoundTails, serviceWords, acronyms };
}

function indexFor(lang: Language): LabelIndex {
	let idx = indexes.get(lang);
	if (!idx) {
		idx = build(lang);
		indexes.set(lang, idx);
	}
	return idx;
}

/**
 * The label stems a text stem stands for: itself, and the label stem its compound ends with (a
 * "microcentrifuge" is a centrifuge; the head of a Germanic compound comes last). Not the other
 * way round: a "faxswitch" is not any switch.
 */
function expand(stem: string, idx: LabelIndex, tails = true): string[] {
	const spelled = idx.acronyms.get(stem);
	if (spelled) return spelled;
	const out = idx.postings.has(stem) ? [stem] : [];
	// English Snowball keeps an "e" in the plural of a word ending in "s" that its singular lacks ("buses" -> "buse", "bus" -> "bus").
	if (stem.endsWith("s") && idx.postings.has(`${stem}e`)) out.push(`${stem}e`);
	// A word the labels know is itself, not also what its ending spells: an "ultrasound" scanner is no sound equipment.
	if (!tails && out.length > 0) return out;
	for (let i = 1; stem.length - i >= COMPOUND_TAIL_MIN; i++) {
		const tail = stem.slice(i);
		if (idx.compoundTails.has(tail)) {
			out.push(tail);
			break;
		}
	}
	return out;
}

export interface LabelQuery {
	/** Least share of a label's weight the text must hold. */
	minCoverage?: number;
	/** Least weight of the matched stems (one common word such as "equipment" is not enough). */
	minWeight?: number;
	limit?: number;
	/** When set, a label must hold this stem (or the label stem its compound ends with). */
	mustHold?: string;
}

/**
 * CPV codes whose label (in `lang`) the stems describe, best first. `stems` are folded stems of
 * the same language (shared/text termsOf). Ties go to the deeper code.
 */
export function cpvCodesForStems(
	stems: Iterable<string>,
	lang: Language,
	query: LabelQuery = {},
	exact: readonly string[] = [],
): LabelHit[] {
	const { minCoverage = 0.6, minWeight = 4, limit = 3, mustHold } = query;
	const idx = indexFor(lang);
	const found = new Set<string>();
	const textStems = new Set(stems);
	// The words an acronym stands for count together, not one by one ("USB" is no "serial" publication).
	const spelledOnly = new Map<string, string[]>();
	for (const s of textStems) {
		const xs = expand(s, idx);
		for (const x of xs) found.add(x);
		if (idx.acronyms.has(s)) for (const x of xs) if (!textStems.has(x)) spelledOnly.set(x, xs);
	}
	// Other forms of the text's words stand only for themselves, not for compounds' tails ("cateter" is no "teter").
	for (const s of exact) if (idx.postings.has(s)) found.add(s);
	const required = mustHold === undefined ? null : new Set(expand(mustHold, idx, false));
	if (required !== null && required.size === 0) return [];
	const seen = new Set<number>();
	const hits: LabelHit[] = [];
	for (const s of found) {
		for (const i of idx.postings.get(s) ?? []) {
			if (seen.has(i)) continue;
			seen.add(i);
			const e = idx.entries[i];
			if (!e) continue;
			const matched = e.stems.filter((x) => found.has(x));
			if (matched.every((x) => spelledOnly.get(x)?.some((y) => !e.stems.includes(y)))) continue;
			if (required !== null && !matched.some((x) => required.has(x))) continue;
			// A service label needs a word of the text that says service: "port management services" is not "24-port managed switches".
			if (e.service && !matched.some((x) => idx.serviceWords.has(x))) continue;
			// A text that names only what a label's goods are for names another kind: "Upphandling" (procurement) is no
			// "Programvara för upphandling", "vehicles" no "Tyres for vehicles".
			if (e.kindStems && !matched.some((x) => e.kindStems?.has(x))) continue;
			// One short word ("av", "mal", "it", "in") is a coincidence across languages, not a kind of goods.
			if (matched.length < 2 && !matched.some((x) => x.length >= MIN_LONE_STEM)) continue;
			const weight = matched.reduce((sum, x) => sum + (idx.idf.get(x) ?? 0), 0);
			const coverage = e.total > 0 ? weight / e.total : 0;
			if (coverage >= minCoverage && weight >= minWeight) hits.push({ code: e.code, coverage, weight, matched });
		}
	}
	// A label and a kind it lists are one code: the better reading stands.
	const byCode = new Map<string, LabelHit>();
	for (const h of hits) {
		const prev = byCode.get(h.code);
		if (!prev || h.coverage * h.weight > prev.coverage * prev.weight) byCode.set(h.code, h);
	}
	hits.splice(0, hits.length, ...byCode.values());
	// The same words naming kinds in several divisions ("switches": electrical, network, medical) are ambiguous.
	const divisions = new Map<string, Set<string>>();
	for (const h of hits) {
		if (h.coverage < 1) continue;
		const key = h.matched.join(" ");
		const set = divisions.get(key) ?? new Set<string>();
		set.add(h.code.slice(0, 2));
		divisions.set(key, set);
	}
	for (const h of hits) h.ambiguity = h.coverage < 1 ? 1 : (divisions.get(h.matched.join(" "))?.size ?? 1);
	const depth = (c: string) => c.replace(/0+$/, "").length;
	hits.sort((a, b) => b.coverage * b.weight - a.coverage * a.weight || depth(b.code) - depth(a.code) || (a.code < b.code ? -1 : 1));
	return hits.slice(0, limit);
}

/** The same for a text: its words are stemmed in `lang` first. */
export function cpvCodesForText(text: string, lang: Language, query?: LabelQuery): LabelHit[] {
	const stems = termsOf(text, lang as TextLanguage);
	return cpvCodesForStems(stems, lang, query, INFINITIVE_LIKE.has(lang) ? otherNumberStems(text, lang) : []);
}

// Spanish and Portuguese Snowball cut from a singular noun an ending that looks like an infinitive's
// ("catéter" -> "catet") but keep it in the plural ("catéteres" -> "cateter"): a text's singular and a
// label's plural, or the other way round, miss each other. A word that lost such an ending also stands
// for itself, and a stem that kept one for the stem of that stem, as the singular's.
const INFINITIVE_LIKE = new Set<Language>(["es", "pt"]);
const INFINITIVE_ENDINGS = ["er", "ar", "ir"];

function otherNumberStems(text: string, lang: Language): string[] {
	const out: string[] = [];
	for (const w of wordsOf(text)) {
		if (w.length < 5 || /\d/.test(w) || isStopword(w, lang as TextLanguage)) continue;
		const word = foldOf(w);
		const stem = foldOf(stemOf(w, lang as TextLanguage));
		for (const e of INFINITIVE_ENDINGS) {
			if (word === `${stem}${e}`) out.push(word);
			if (stem.endsWith(e)) {
				const singular = foldOf(stemOf(stem, lang as TextLanguage));
				if (singular === stem.slice(0, -e.length)) out.push(singular);
			}
		}
	}
	return out;
}

/** Whether a lower-case word names something in the CPV's labels (itself or as the head of a compound): a word about goods or services, not a place, a reference or procedure wording. */
export function isLabelWord(word: string, lang: Language = "en"): boolean {
	return labelStemsOf(word, lang).length > 0;
}

/** The label stems a lower-case word stands for (its own stem, or the label stem its compound ends with). */
function labelStemsOf(word: string, lang: Language): string[] {
	return expand(foldOf(stemOf(word, lang as TextLanguage)), indexFor(lang));
}

/** How much a word says about a kind of goods: the rarity among CPV labels of the label stem it stands for (0 when no label uses it). */
export function labelWordWeight(word: string, lang: Language = "en"): number {
	const idf = indexFor(lang).idf;
	return Math.max(0, ...labelStemsOf(word, lang).map((s) => idf.get(s) ?? 0));
}

/** The CPV divisions (two digits) of the goods labels in `lang` that hold a stem (or the label stem its compound ends with). */
export function goodsDivisionsOfStem(stem: string, lang: Language = "en"): Set<string> {
	const idx = indexFor(lang);
	const out = new Set<string>();
	for (const s of expand(stem, idx))
		for (const i of idx.postings.get(s) ?? []) {
			const e = idx.entries[i];
			if (e && !e.service) out.add(e.code.slice(0, 2));
		}
	return out;
}

// The English words that, leading a title, make it a service contract whatever goods it names ("Rental of generators").
const SERVICE_LEAD_EN =
	/\b(?:rental|hire|hiring|leasing|lease|maintenance|repair|calibration|inspection|cleaning|disposal|training|installation|upgrade|conversion|refurbishment|overhaul)\b/i;
const SERVICE_LEAD_MIN_LABELS = 3;
const SERVICE_LEAD_SHARE = 0.5;
const serviceLeads = new Map<Language, Set<string>>();

/**
 * The stems of `lang` that say what an English label's leading "Rental", "Hire", "Maintenance",
 * "Repair" ... says: service words found in at least three labels whose English label starts so,
 * and mostly in such labels ("arrend" of "arrendamiento", "wartung", "nolegg"), not the words of
 * buying itself ("compra", "levering"), which many other service labels hold.
 */
function serviceLeadStems(lang: Language): Set<string> {
	let out = serviceLeads.get(lang);
	if (out) return out;
	const idx = indexFor(lang);
	const inLead = new Map<string, number>();
	const inAll = new Map<string, number>();
	for (const e of cpvEntries()) {
		const label = e.labels[lang];
		if (!label) continue;
		const lead = SERVICE_LEAD_EN.test(e.labels.en ?? "");
		for (const s of new Set(termsOf(labelCore(label), lang as TextLanguage))) {
			inAll.set(s, (inAll.get(s) ?? 0) + 1);
			if (lead) inLead.set(s, (inLead.get(s) ?? 0) + 1);
		}
	}
	out = new Set<string>();
	// Not a two-letter word: Swedish labels lead with "IT-" services, and "IT-udstyr" is equipment.
	for (const [s, n] of inLead)
		if (s.length >= 3 && idx.serviceWords.has(s) && n >= SERVICE_LEAD_MIN_LABELS && n >= SERVICE_LEAD_SHARE * (inAll.get(s) ?? n))
			out.add(s);
	serviceLeads.set(lang, out);
	return out;
}

/** Whether a text in `lang` opens with a word that makes it a service ("Arrendamiento de bienes informáticos", "Wartung der Server"). */
export function opensWithServiceLead(text: string, lang: Language): boolean {
	const first = termsOf(text, lang as TextLanguage).find((t) => !/\d/.test(t));
	return first !== undefined && serviceLeadStems(lang).has(first);
}

/** CPV supply divisions (below 45, and 48 software): the codes of goods, not of works or services. */
export function goodsDivision(code: string): boolean {
	const d = Number(code.slice(0, 2));
	return d < 45 || d === 48;
}

/** The goods codes whose English label ends in (is headed by) the stem's noun. */
function labelHeadCodes(stem: string): string[] {
	if (!headKinds) {
		const m = new Map<string, string[]>();
		for (const e of cpvEntries()) {
			if (!goodsDivision(e.code) || !e.labels.en) continue;
			// The head of "Tyres for buses" is tyres: what a label's goods are for is not what they are.
			const head = termsOf(labelCore(e.labels.en).split(/\bfor\b/i)[0] ?? "", "en")
				.filter((t) => !/\d/.test(t))
				.at(-1);
			if (head) {
				m.set(head, [...(m.get(head) ?? []), e.code]);
				headOfCode.set(e.code, head);
				// The head as the label writes it: the last word before any "for" that is no figure.
				const word = (labelCore(e.labels.en).split(/\bfor\b/i)[0] ?? "")
					.toLowerCase()
					.split(/[^\p{L}]+/u)
					.filter(Boolean)
					.at(-1);
				if (word) headWords.set(head, (headWords.get(head) ?? new Set()).add(word));
			}
		}
		headKinds = m;
	}
	return headKinds.get(stem) ?? (stem.endsWith("s") ? headKinds.get(`${stem}e`) : undefined) ?? [];
}

const headOfCode = new Map<string, string>();
const headWords = new Map<string, Set<string>>();

/**
 * Whether a word is written as the labels write the head noun its stem stands for, in the singular or the
 * plural: "COMPUTERS" and "computer" are the labels' "computers", "Computing" (the activity) is not, though
 * Snowball gives both "comput".
 */
export function writtenAsHead(word: string, stem: string): boolean {
	labelHeadCodes("");
	const forms = headWords.get(stem) ?? (stem.endsWith("s") ? headWords.get(`${stem}e`) : undefined);
	if (!forms) return false;
	const w = word.toLowerCase();
	return forms.has(w) || forms.has(`${w}s`) || forms.has(`${w}es`) || forms.has(w.replace(/s$/, "")) || forms.has(w.replace(/es$/, ""));
}

/** A head noun that heads this many goods labels names a class of goods, not a kind ("equipment", "apparatus", "instruments", "vehicles"). */
const CLASS_NOUN_MIN_LABELS = 45;

/** Whether an English stem is such a class noun. */
export function isClassNoun(stem: string): boolean {
	return labelHeadCodes(stem).length >= CLASS_NOUN_MIN_LABELS;
}

/** A goods code's English head noun (its label's last word before any "for") and how many goods labels it heads. */
export function labelHeadCount(code: string): { stem: string; labels: number } | null {
	labelHeadCodes("");
	const stem = headOfCode.get(code);
	return stem === undefined ? null : { stem, labels: labelHeadCodes(stem).length };
}

/**
 * Whether an English qualifier stem names goods of their own, apart from a CPV division: it heads a
 * goods label ("Ventilators") and no goods label of that division holds it. "Ventilator batteries"
 * are batteries for other goods, not a kind of battery; "metal shelving", "rotary chairs" are.
 */
export function namesGoodsOutside(stem: string, division: string): boolean {
	return labelHeadCodes(stem).length > 0 && !kindWordDivisions(stem).has(division);
}

let kindWords: Map<string, Set<string>> | null = null;

/**
 * The CPV divisions whose English goods labels hold a stem before their "for": where it says what
 * the goods are, not what they serve ("Electrical equipment for engines and vehicles" does not make
 * "vehicle batteries" a kind of electrical goods; "Metal shelving" keeps "metal" a kind of furniture).
 */
function kindWordDivisions(stem: string): Set<string> {
	if (!kindWords) {
		const m = new Map<string, Set<string>>();
		for (const e of cpvEntries()) {
			if (!goodsDivision(e.code) || !e.labels.en) continue;
			for (const t of termsOf(labelCore(e.labels.en).split(/\bfor\b/i)[0] ?? "", "en")) {
				const set = m.get(t) ?? new Set<string>();
				set.add(e.code.slice(0, 2));
				m.set(t, set);
			}
		}
		kindWords = m;
	}
	return kindWords.get(stem) ?? (stem.endsWith("s") ? kindWords.get(`${stem}e`) : undefined) ?? new Set();
}

/** The CPV divisions of the goods labels an English stem heads ("batteri" heads labels of division 31). */
export function headedDivisions(stem: string): Set<string> {
	return new Set(labelHeadCodes(stem).map((c) => c.slice(0, 2)));
}

/** Least English labels a head noun must end for the kind they share to be read from it alone. */
const HEAD_KIND_MIN_LABELS = 3;
/** Share of those labels the shared kind must hold ("computers" ends labels under 302 and one vehicle computer). */
const HEAD_KIND_SHARE = 0.8;
let headKinds: Map<string, string[]> | null = null;

/**
 * The kind of goods a bare English head noun names ("COMPUTERS", "Furniture"): the deepest CPV
 * group, class or category (4 or 5 digits: a group of 3 is many kinds, "buses" are not any motor vehicle) that holds most of the goods labels ending in that noun,
 * as a CPV code padded with zeros, with how many labels it stands for. A title that is only the noun
 * matches no single label (each says which computers), yet buys that whole kind.
 */
export function kindOfHeadNoun(stem: string): { code: string; labels: number } | null {
	const codes = labelHeadCodes(stem);
	if (codes.length < HEAD_KIND_MIN_LABELS) return null;
	for (let l = 5; l >= 3; l--) {
		const counts = new Map<string, number>();
		for (const c of codes) counts.set(c.slice(0, l), (counts.get(c.slice(0, l)) ?? 0) + 1);
		const [prefix, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
		// A group (3 digits) is many kinds: only a class noun that heads many labels, most of them in one group, names it
		// ("vehicles": 37 of 55 labels are motor vehicles; "buses" are buses and coaches, a category).
		const enough = l >= 4 ? n >= HEAD_KIND_SHARE * codes.length : n >= HEAD_GROUP_SHARE * codes.length && n >= HEAD_GROUP_MIN_LABELS;
		if (enough && n >= HEAD_KIND_MIN_LABELS) return { code: prefix.padEnd(8, "0"), labels: n };
	}
	return null;
}

/** Share of a class noun's headed labels one group must hold for the bare noun to name that group. */
const HEAD_GROUP_SHARE = 0.65;
/** Least headed labels for a bare noun to name a whole group. */
const HEAD_GROUP_MIN_LABELS = 20;

/** Least labels holding a word, and the share whose English head is one noun, for the word to name that noun. */
const ALIGN_MIN_LABELS = 3;
const ALIGN_SHARE = 0.5;
const aligned = new Map<string, string | null>();

/**
 * The English head noun a word of another language names, read from the labels that hold it as what they
 * are (before their purpose preposition): "Fahrzeuge", "vehículos", "pojazdy" are held mostly by labels whose
 * English label is headed by "vehicles". The CPV's labels are one text in 24 languages: what a word heads
 * in one, its translation heads in English. Null when no English head has half of those labels.
 */
export function englishHeadOf(stem: string, lang: Language): string | null {
	if (lang === "en") return labelHeadCodes(stem).length > 0 ? stem : null;
	const key = `${lang}:${stem}`;
	const known = aligned.get(key);
	if (known !== undefined) return known;
	labelHeadCodes("");
	const idx = indexFor(lang);
	const tails = new Set(expand(stem, idx, false).length > 0 ? expand(stem, idx, false) : expand(stem, idx));
	const heads = new Map<string, number>();
	let total = 0;
	for (const t of tails)
		for (const i of idx.postings.get(t) ?? []) {
			const e = idx.entries[i];
			if (!e || e.service || e.listed) continue;
			const label = cpvLabelOf(e.code, lang);
			const kindPart = purposeSplit(label, lang as TextLanguage)?.head ?? label;
			if (!termsOf(labelCore(kindPart), lang as TextLanguage).some((x) => x === t || (x.endsWith(t) && t.length >= COMPOUND_TAIL_MIN)))
				continue;
			total++;
			const h = headOfCode.get(e.code);
			if (h) heads.set(h, (heads.get(h) ?? 0) + 1);
		}
	const [head, n] = [...heads.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ["", 0];
	const out = total >= ALIGN_MIN_LABELS && n >= ALIGN_SHARE * total ? head : null;
	aligned.set(key, out);
	return out;
}

let labelsByCode: Map<string, Partial<Record<Language, string>>> | null = null;
function cpvLabelOf(code: string, lang: Language): string {
	if (!labelsByCode) {
		labelsByCode = new Map();
		for (const e of cpvEntries()) labelsByCode.set(e.code, e.labels);
	}
	return labelsByCode.get(code)?.[lang] ?? "";
}

/** Least length of a stem read as the beginning of a longer label stem ("dialys" of "dialyser" for "dialysi" of "dialysis"). */
const NEAR_STEM_MIN = 5;
/** At most this many letters more: Snowball's stems of one word's derivations differ in their ending only. */
const NEAR_STEM_EXTRA = 2;

/**
 * The label stems an English head stem stands for: itself (or the label stem its compound ends
 * with) when the labels know it, else the label stems it begins with a letter or two to spare.
 * Snowball stems "dialyser" to "dialys" and "dialysis" to "dialysi": one kind, two stems.
 */
export function headStems(stem: string): string[] {
	const idx = indexFor("en");
	const own = expand(stem, idx, false);
	if (own.length > 0 || stem.length < NEAR_STEM_MIN) return own;
	if (!nearStems) {
		// Each label stem under the beginnings it has a letter or two to spare over: a product's words are looked up, not scanned for.
		nearStems = new Map();
		for (const s of idx.postings.keys())
			for (let cut = 1; cut <= NEAR_STEM_EXTRA && s.length - cut >= NEAR_STEM_MIN; cut++) {
				const begin = s.slice(0, -cut);
				nearStems.set(begin, [...(nearStems.get(begin) ?? []), s]);
			}
	}
	return nearStems.get(stem) ?? [];
}

let nearStems: Map<string, string[]> | null = null;

export interface HeadLabelHit {
	code: string;
	/** Share of the label's weight the text's stems (with the head's) cover. */
	coverage: number;
	/** The label names this kind: its head (last word before any "for") is the head stem. */
	headed: boolean;
	matched: string[];
}

/**
 * The English goods labels that hold a head stem (`headStems`), with the share of each label's
 * weight that a text's stems cover: what a product can be when its phrase names no label as a
 * whole ("interactive display", "portable ultrasound system"). Labels the stem heads come first.
 */
export function labelsHoldingHead(head: string, textStems: Iterable<string>): HeadLabelHit[] {
	const idx = indexFor("en");
	const heads = headStems(head);
	if (heads.length === 0) return [];
	const found = new Set<string>(heads);
	for (const s of textStems) for (const x of expand(s, idx)) found.add(x);
	const headed = new Set(heads.flatMap((h) => labelHeadCodes(h)));
	const seen = new Set<number>();
	const out: HeadLabelHit[] = [];
	for (const h of heads)
		for (const i of idx.postings.get(h) ?? []) {
			const e = idx.entries[i];
			if (!e || e.service || e.listed || seen.has(i)) continue;
			seen.add(i);
			const matched = e.stems.filter((x) => found.has(x));
			const weight = matched.reduce((sum, x) => sum + (idx.idf.get(x) ?? 0), 0);
			out.push({ code: e.code, coverage: e.total > 0 ? weight / e.total : 0, headed: headed.has(e.code), matched });
		}
	return out.sort((a, b) => Number(b.headed) - Number(a.headed) || b.coverage - a.coverage || (a.code < b.code ? -1 : 1));
}

/**
 * Builds now what the lookups above build on first use (a language's label index, its service
 * words, the English head-noun and near-stem maps), so that a service can pay it at start rather
 * than in the first request that needs it (about 0.7 s for English on this 2-core machine).
 */
export function warmLabelIndexes(langs: readonly Language[] = ["en"]): void {
	for (const lang of langs) serviceLeadStems(lang);
	labelHeadCodes("");
	kindWordDivisions("");
	headStems("warm");
}
