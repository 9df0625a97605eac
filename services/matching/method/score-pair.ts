import { catalogOf } from "./catalog-context.ts";
import { bestAgreement } from "./codes.ts";
import { goodsDivision, headedDivisions, isLabelWord, namesGoodsOutside } from "../../../shared/taxonomy/label-index.ts";
import { type Concept, bestConceptAgreement, sharedDigits } from "./concepts.ts";
import { compactKey } from "./model-number.ts";
import type { Exclusion } from "./notice-flags.ts";
import { type NoticeProfile, type Segment, noticeProfile, segmentRuns } from "./notice-profile.ts";
import { loneWordOtherTrade, partsOnly, sameWordOnly, strayCode, wordsNameOtherKind } from "./precision.ts";
import { type ProductProfile, productProfile } from "./product-profile.ts";
import { type SpecCheck, compareSpecs } from "./spec-numbers.ts";
import { GENERIC, STOPWORDS, hasDigit, normalizeText, stem, stemSet } from "./text.ts";
import { conflictingAttributes } from "./vocabulary.ts";
import type { NoticeView, PairScore, ProductView, RationaleEntry } from "./types.ts";
import { FACTORS, POINTS } from "./weights.ts";

// Stage 2: one product against one notice, 0..100, from features a person can read. Evidence
// that the notice asks for this product adds points (model, product line, maker, product type,
// codes, figures); facts that make the notice no purchase of it scale the sum down (services or
// construction, another brand only, market research, refurbished only, an explicit rejection).

interface Identity {
	kind: "model" | "model base" | "product line" | "model family";
	key: string;
	points: number;
	weak: boolean;
}

interface TypeMatch {
	segment: Segment;
	strength: number;
	head: string | null;
	modifier: boolean;
	coverage: number;
	covered: string[];
	accessory: boolean;
	/** The word the passage qualifies the head with, when it is not the product's qualifier nor any word of its text. */
	otherQualifier: string | null;
}

const SEGMENT_LABEL: Record<Segment["kind"], string> = { title: "title", item: "item line", description: "description" };

/** Distinctive words of a passage: what a careful reader would check the product against. */
function distinctive(seg: Segment, p: ProductProfile): string[] {
	return seg.words.filter((t) => !p.oemWords.has(t) && (p.textBag.has(t) || descriptive(t)));
}

// Real titles carry reference numbers, places and procedure wording ("Notice of Proposed
// Procurement (NPP) ... Calgary"): only words the CPV's labels use describe what is bought.
const descriptiveCache = new Map<string, boolean>();
function descriptive(word: string): boolean {
	let known = descriptiveCache.get(word);
	if (known === undefined) {
		known = !/\d/.test(word) && isLabelWord(word);
		if (descriptiveCache.size > 50_000) descriptiveCache.clear();
		descriptiveCache.set(word, known);
	}
	return known;
}

// Nouns that name a product only together with the word before them ("access point", "safety
// cabinet", "management card"): alone they say nothing ("delivery points", "field cabinets").
const AMBIGUOUS_HEADS = stemSet(
	"point cabinet card station terminal panel box set kit device unit display controller gateway module platform base stand",
);

// Things bought for a product rather than the product: a head noun followed by one of these
// ("defibrillator pads", "laptop batteries") names an accessory, unless the product is one.
const ACCESSORY_NOUNS = stemSet(
	"pad battery batterie charger cable cord mount bracket case cover tip filter bulb cartridge toner ink reagent spare part " +
		"accessory consumable holster strap cart dock cradle adapter electrode lens rotor bucket shelf rack tray sleeve stylus pen " +
		"label ribbon screen protector",
);

// One product meets thousands of notices: its head's pattern and each passage's normalized text
// are built once, not per pair.
const followers = new Map<string, RegExp>();
const normalized = new WeakMap<Segment, string>();

function accessoryAfter(p: ProductProfile, seg: Segment, head: string): boolean {
	let text = normalized.get(seg);
	if (text === undefined) normalized.set(seg, (text = normalizeText(seg.text)));
	let m = followers.get(head);
	if (!m) {
		if (followers.size > 10_000) followers.clear();
		followers.set(head, (m = new RegExp(String.raw`\b${head}(?:e?s)?\s+(?:[a-z0-9+-]+\s+)?([a-z]+)`, "g")));
	}
	for (const x of text.matchAll(m)) {
		const noun = stem(x[1] ?? "");
		if (ACCESSORY_NOUNS.has(noun) && !p.heads.includes(noun) && !p.nameWords.includes(noun)) return true;
	}
	return false;
}

/** The product's head noun as it appears in a passage, if it does. */
function headIn(p: ProductProfile, bag: ReadonlySet<string>): string | null {
	for (const h of p.heads) {
		if (!bag.has(h)) continue;
		if (AMBIGUOUS_HEADS.has(h) && !(p.modifier !== null && bag.has(p.modifier))) continue;
		return h;
	}
	return compoundIn(p, bag) !== null ? (p.heads[0] ?? null) : null;
}

/** Least letters of the head noun a closed compound must hold after the word before it. */
const COMPOUND_HEAD_MIN = 4;

/**
 * The product's type written as one word ("thermalcyclers" for "thermal cycler", "workstation"
 * for "work station"): a word of the passage that is the word before the head joined to the head
 * (the stemmer may have cut the joined word's end differently).
 */
function compoundIn(p: ProductProfile, bag: ReadonlySet<string>): string | null {
	const m = p.modifier;
	const h = p.heads[0];
	if (!m || !h) return null;
	if (p.compoundHead !== null && bag.has(p.compoundHead)) return p.compoundHead;
	for (const w of bag) {
		if (w.length < m.length + COMPOUND_HEAD_MIN || !w.startsWith(m)) continue;
		const rest = w.slice(m.length);
		if (h.startsWith(rest) || rest.startsWith(h)) return w;
	}
	return null;
}

/**
 * The word a passage puts right before the product's head noun when it qualifies the kind otherwise
 * than the product does: not the product's own qualifier (absent from the passage), nor any word of
 * its text ("walk-in" freezer for an ultra-low-temperature one, "household" furniture for laboratory
 * furniture). The same kind, likely another variant; "biosafety" cabinet ends in the product's "safety".
 * A product whose name puts no qualifier before its head ("Centrifuge 5425 R") is still no other variant
 * its text does not name ("hollow bowl" centrifuge).
 */
function otherQualifier(p: ProductProfile, seg: Segment, head: string | null, modifier: boolean): string | null {
	const m = p.modifier;
	if (!head || modifier) return null;
	// "walk-in freezer": the qualifier's particle is not the qualifier.
	const q = wordBefore(seg, head) ?? undefined;
	if (q === undefined || q.length < 3 || GENERIC.has(q) || STOPWORDS.has(q) || hasDigit(q) || !descriptive(q)) return null;
	if (p.textBag.has(q) || (m !== null && q.endsWith(m))) return null;
	return q;
}

/**
 * Where only codes agree, the title's own head noun of the product's kind qualified by other goods
 * ("VENTILATOR BATTERIES" for gel cells): its last word heads goods labels of the product's division,
 * the word before it names goods outside that division. A title that names the head bare
 * ("United Kingdom-Belfast: Batteries") is read so in the other passages that name the same head.
 * Returns that qualifier.
 */
function titleForOtherGoods(n: NoticeProfile, division: string): string | null {
	const title = n.segments[0];
	if (n.language !== "en" || title?.kind !== "title") return null;
	const words = title.seq.filter((t) => t.length >= 3 && !hasDigit(t) && !STOPWORDS.has(t) && !GENERIC.has(t));
	const head = words.at(-1);
	if (!head || !headedDivisions(head).has(division)) return null;
	const q = words.at(-2);
	if (q && namesGoodsOutside(q, division)) return q;
	if (q && descriptive(q)) return null;
	for (const seg of n.segments.slice(1)) {
		const before = seg.bag.has(head) ? wordBefore(seg, head) : null;
		if (before && !GENERIC.has(before) && namesGoodsOutside(before, division)) return before;
	}
	return null;
}

/** A reading of the notice's classification sure enough to say which group of goods it buys. */
const CLASSIFIED_MIN_CONFIDENCE = 0.5;

/**
 * The notice's own classification (its codes, read as CPV directly or through a crosswalk) when every
 * sure reading of it lies in another CPV group (3 digits) than every concept of the product: the
 * publisher filed the purchase as other goods ("Walk-in Freezer" under PSC 4110, refrigeration
 * equipment, for an ultra-low laboratory freezer read as a freezer appliance; "Household Furniture"
 * under furnishings for laboratory furniture). Alone this says little (crosswalks are computed, a
 * product's reading can be off); with a passage that qualifies the kind otherwise it says which kind. A
 * division alone ("laboratory equipment", 38000000) names no group, and codes whose group the notice's
 * own words read in are no contradiction of the words.
 */
function classifiedElsewhere(p: ProductProfile, n: NoticeProfile): Concept | null {
	const filed = n.concepts.filter(
		(c) =>
			(c.source === "code" || c.source === "crosswalk") &&
			c.confidence >= CLASSIFIED_MIN_CONFIDENCE &&
			c.depth >= 3 &&
			goodsDivision(c.code),
	);
	if (filed.length === 0 || p.concepts.length === 0) return null;
	// The notice's own words read in the group its codes name ("RECTIFIERS" filed under converters): the codes and
	// the words agree, and a product read elsewhere is more likely misread than the notice.
	const read = n.concepts.filter((c) => c.source !== "code" && c.source !== "crosswalk" && c.confidence >= CLASSIFIED_MIN_CONFIDENCE);
	const groups = new Set([...p.concepts, ...read].map((c) => c.code.slice(0, 3)));
	return filed.every((f) => !groups.has(f.code.slice(0, 3))) ? (filed[0] ?? null) : null;
}

/** Least distinct item lines for a notice to list what it buys, line by line. */
const LISTED_MIN_LINES = 5;
/** Share of those lines that must read as some kind of goods for the list to be read at all. */
const LISTED_READ_SHARE = 0.5;
const LINE_READING_MIN = 0.5;
/** CPV digits a reading must share with the product's concept to name its kind (its class). */
const LISTED_KIND_DIGITS = 4;

/**
 * A notice that lists its goods line by line under one broad code ("medical consumables" over 32
 * lines of ophthalmic scissors, forceps and hooks) buys what the lines name. When most lines read as
 * some kind of goods and none of them, nor any other reading of the notice's words, names the
 * product's class, the code alone puts the product there: it is not on the list. Items classified
 * one by one are left be (their own codes already say what each line is).
 */
function unlisted(p: ProductProfile, n: NoticeProfile, viaCode: boolean): boolean {
	const lines = n.lineConcepts;
	if (!viaCode || lines.length < LISTED_MIN_LINES) return false;
	const itemCodes = new Set(n.view.items.flatMap((i) => (i.classification ? [`${i.classification.scheme}:${i.classification.code}`] : [])));
	if (itemCodes.size > 1) return false;
	const read = lines.filter((l) => l.some((c) => c.confidence >= LINE_READING_MIN && goodsDivision(c.code)));
	if (read.length < LISTED_READ_SHARE * lines.length) return false;
	const names = (c: Concept) => p.concepts.some((q) => sharedDigits(q.code, c.code) >= LISTED_KIND_DIGITS);
	const words = n.concepts.filter((c) => c.source !== "code" && c.source !== "crosswalk");
	return !lines.some((l) => l.some(names)) && !words.some(names);
}

/**
 * A best passage that names the product's head bare ("United Kingdom-Belfast: Batteries") leaves open
 * which kind it means; another passage that names the head says it ("Supply of Motor Vehicle, Motor
 * Cycle and Plant Batteries"). Returns the qualifier of such a passage when it names goods outside the
 * product's division, and no passage qualifies the head as the product does.
 */
function goodsQualifierElsewhere(p: ProductProfile, best: TypeMatch, named: TypeMatch[], division: string): string | null {
	if (!best.head || best.modifier || named.some((t) => t.modifier)) return null;
	// The best passage's own word before the head, if it describes goods, is a qualifier of the product's (its text holds it).
	const before = wordBefore(best.segment, best.head);
	if (before !== null && descriptive(before)) return null;
	for (const t of named) if (t.otherQualifier && namesGoodsOutside(t.otherQualifier, division)) return t.otherQualifier;
	return null;
}

/** The word right before a head noun in a passage, past a particle ("walk-in freezer"). */
function wordBefore(seg: Segment, head: string): string | null {
	const at = seg.seq.indexOf(head);
	const back = at > 1 && STOPWORDS.has(seg.seq[at - 1] ?? "") ? 2 : 1;
	return at >= back ? (seg.seq[at - back] ?? null) : null;
}

function typeMatch(p: ProductProfile, seg: Segment): TypeMatch {
	const head = headIn(p, seg.bag);
	const compound = head === null ? null : compoundIn(p, seg.bag);
	const words = distinctive(seg, p);
	if (compound !== null && !words.includes(compound)) words.push(compound);
	const covered = words.filter((t) => p.textBag.has(t) || t === compound);
	const coverage = words.length === 0 ? 0 : covered.length / words.length;
	const modifier = p.modifier !== null && (seg.bag.has(p.modifier) || compound !== null);
	let strength = 0;
	if (head) strength = POINTS.typeHead + (modifier ? POINTS.typeModifier : 0) + POINTS.typeCoverage * coverage;
	// No head noun but most of the passage is the product's own vocabulary: a weaker sign of the same kind.
	else if (coverage >= 0.6 && covered.length >= 3) strength = 0.5 * coverage;
	// "Replacement batteries for handheld radios", "monitor wall mounts": the product kind is what the
	// line is for, not what it buys.
	const accessory = head !== null && ((seg.lead !== null && headIn(p, seg.lead) === null) || accessoryAfter(p, seg, head));
	if (accessory) strength *= POINTS.accessoryShare;
	const other = otherQualifier(p, seg, head, modifier);
	if (other) strength *= POINTS.otherQualifierShare;
	if (seg.kind === "description") strength *= POINTS.descriptionWeight;
	return { segment: seg, strength, head, modifier, coverage, covered, accessory, otherQualifier: other };
}

function findIdentity(p: ProductProfile, n: NoticeProfile, supported: boolean): Identity | null {
	const candidates: Identity[] = [];
	const m = p.model;
	if (m.full && n.runs.has(m.full))
		candidates.push({ kind: "model", key: p.view.model ?? m.full, points: POINTS.modelExact, weak: m.fullStrength === "weak" });
	if (m.base && n.runs.has(m.base)) candidates.push({ kind: "model base", key: m.base, points: POINTS.modelBase, weak: false });
	for (const id of p.lineIds)
		if (n.runs.has(id)) candidates.push({ kind: "product line", key: id, points: POINTS.productLine, weak: id.length < 5 });
	if (m.family && n.runs.has(m.family)) candidates.push({ kind: "model family", key: m.family, points: POINTS.modelFamily, weak: false });
	let best: Identity | null = null;
	for (const c of candidates) {
		// A short key with nothing else pointing at the product (maker, product type) may be a coincidence.
		const unconfirmed = c.weak && !supported;
		const pts = unconfirmed ? Math.round(c.points * POINTS.weakKeyShare) : c.points;
		if (!best || pts > best.points) best = { ...c, points: pts, weak: unconfirmed };
	}
	return best;
}

function exclusionHits(p: ProductProfile, ex: Exclusion): boolean {
	const rejectsKind = headIn(p, ex.bag) !== null;
	if (ex.below) {
		const offered = p.quantities.filter((q) => q.dimension === ex.below?.dimension);
		return rejectsKind && offered.length > 0 && Math.max(...offered.map((q) => q.max)) < ex.below.min;
	}
	if (ex.lacking && rejectsKind) {
		// "Pumps without NSF 61 certification": rejected unless the product has what is named.
		const need = [...ex.lacking].filter((t) => !GENERIC.has(t) && !STOPWORDS.has(t) && t.length >= 2);
		if (need.length > 0 && need.filter((t) => p.textBag.has(t)).length * 2 < need.length) return true;
	}
	// What the sentence rejects that this product has: "consumer-grade" routers, "tabletop" mixers, "1G" ports.
	const attrs = [...ex.bag].filter(
		(t) => !p.heads.includes(t) && !GENERIC.has(t) && !STOPWORDS.has(t) && !p.oemWords.has(t) && p.textBag.has(t),
	);
	if (rejectsKind) return attrs.length >= 1;
	return attrs.length >= 2 && attrs.some(hasDigit);
}

function specVerdict(p: ProductProfile, segments: Segment[]): { fit: SpecCheck[]; short: SpecCheck[] } {
	const byDim = new Map<string, SpecCheck[]>();
	for (const s of segments)
		for (const c of compareSpecs(p.quantities, s.quantities)) byDim.set(c.dimension, [...(byDim.get(c.dimension) ?? []), c]);
	const fit: SpecCheck[] = [];
	const short: SpecCheck[] = [];
	for (const checks of byDim.values()) {
		const ok = checks.find((c) => c.ok);
		if (ok) fit.push(ok);
		else if (checks[0]) short.push(checks[0]);
	}
	return { fit, short };
}

/** Share of a company's other products in a CPV division for the company to be in that trade (a stray code's test). */
const SELLS_IN_SHARE = 0.25;

/** A concept agreement this weak (two lone words read as neighbouring kinds) does not make an English word a cognate. */
const COGNATE_MIN_STRENGTH = 0.3;

const round = (x: number) => Math.round(x * 10) / 10;

/** Stage 2 for one pair. Pure and deterministic: the same views always give the same result. */
export function scorePair(product: ProductView, notice: NoticeView): PairScore {
	const p = productProfile(product);
	const n = noticeProfile(notice);
	const empty = { productId: product.productId, score: 0, matchedTerms: [], matchedCodes: [], matchedItems: [], namedMatch: false };
	if (p.excluded)
		return { ...empty, excluded: p.excluded, rationale: [{ feature: "excluded", points: 0, detail: `${p.excluded}: does not count` }] };

	const entries: RationaleEntry[] = [];
	const add = (feature: string, points: number, detail: string) => {
		if (points !== 0) entries.push({ feature, points: round(points), detail });
	};
	const terms = new Set<string>();
	const items = new Set<number>();

	// Product type: the best passage.
	let best: TypeMatch | null = null;
	const typeSegments: Segment[] = [];
	// The passages that state what is bought (title, item lines) where the product's head noun appears.
	const requirement: TypeMatch[] = [];
	const inDescription: TypeMatch[] = [];
	for (const seg of n.segments) {
		const t = typeMatch(p, seg);
		if (t.head) {
			typeSegments.push(seg);
			if (seg.itemIndex !== null) items.add(seg.itemIndex);
			(seg.kind === "description" ? inDescription : requirement).push(t);
		}
		if (t.strength > 0 && (!best || t.strength > best.strength)) best = t;
	}
	const stated = requirement.length > 0 ? requirement : inDescription;
	const oem = p.oemAliases.find((a) => n.runs.has(a)) ?? null;
	const identity = findIdentity(p, n, oem !== null || (best?.head ?? null) !== null);
	if (identity) {
		const key = compactKey(identity.key);
		for (const seg of n.segments)
			if (segmentRuns(seg).has(key)) {
				typeSegments.push(seg);
				if (seg.itemIndex !== null) items.add(seg.itemIndex);
			}
		add(
			identity.kind === "model" ? "model_mention" : identity.kind === "product line" ? "product_line_mention" : "model_partial_mention",
			identity.points,
			`notice names ${identity.kind} "${identity.key}"${identity.weak ? " (short key, nothing else confirms it)" : ""}`,
		);
		terms.add(identity.key);
	}
	const named = identity !== null && !identity.weak;
	const exactNamed = identity !== null && (identity.kind === "model" || identity.kind === "model base") && named;

	// The same kind of goods by CPV concept, across schemes and languages. Where both sides are coded
	// in one scheme, their own agreement is more precise than any translation and decides alone.
	const codes = bestAgreement(p.codes, n.codes);
	const sameScheme = p.codes.some((pc) => n.codes.some((nc) => nc.scheme === pc.scheme));
	const concept = sameScheme ? null : bestConceptAgreement(p.concepts, n.concepts);
	// The product's English type word in another language's text is a cognate only when that text
	// reads as the same kind of goods ("tablet" in Danish); otherwise it is a false friend ("van", "plan").
	if (
		best &&
		n.language !== "en" &&
		!(((concept?.depth ?? 0) >= 3 && (concept?.strength ?? 0) >= COGNATE_MIN_STRENGTH) || (codes?.points ?? 0) > 0)
	)
		best = null;
	if (best) {
		const pts = POINTS.typeMax * best.strength;
		const qualified = best.otherQualifier ? ` (as "${best.otherQualifier}"${p.modifier ? `, not "${p.modifier}"` : ""})` : "";
		const what = best.head
			? `"${best.head}"${best.modifier && p.modifier ? ` with "${p.modifier}"` : ""}${best.accessory ? " (only as what the line is for)" : ""}${qualified}`
			: "no head noun";
		add(
			"product_type_overlap",
			pts,
			`${SEGMENT_LABEL[best.segment.kind]} "${best.segment.text.slice(0, 90)}": ${what}, ${Math.round(best.coverage * 100)}% of its distinctive words in the product description`,
		);
		for (const t of best.covered.slice(0, 8)) terms.add(t);
		// How well the product's description supports the passages that state what is bought, at best.
		const closest = stated.reduce<TypeMatch | null>((a, t) => (!a || t.coverage > a.coverage ? t : a), null);
		if (closest && closest.coverage < POINTS.lowCoverageBelow && !named)
			add(
				"specialised_variant",
				POINTS.lowCoverage,
				`most of what the notice asks for (${distinctive(closest.segment, p)
					.filter((t) => !p.textBag.has(t))
					.slice(0, 5)
					.join(", ")}) is not in the product description`,
			);
		// An attribute value the product states the opposite of, in every passage that asks for the product.
		const conflicts = stated.map((t) => conflictingAttributes(t.segment.seq, p.textSeq));
		const first = conflicts[0]?.[0];
		if (!exactNamed && conflicts.length > 0 && conflicts.every((c) => c.length > 0) && first)
			add(
				"attribute_conflict",
				POINTS.attributeConflict,
				`notice asks for ${first.split(" vs ")[0]}, product is ${first.split(" vs ")[1]}`,
			);
	}

	const matchedCodes: string[] = [];
	if (codes) {
		add("code_agreement", codes.points, `${codes.scheme} ${codes.level} agrees (product ${codes.productCode}, notice ${codes.noticeCode})`);
		matchedCodes.push(`${codes.scheme}:${codes.noticeCode}`);
	}
	// Concept points count only what they add beyond the codes' own agreement.
	// In English the product's own words measure the kind directly and concepts complement them; in
	// another language the concepts are the only reading of the kind, and carry it alone.
	const conceptMax = n.language === "en" ? POINTS.conceptMax : POINTS.conceptMaxOtherLanguage;
	const conceptPoints = concept ? conceptMax * concept.strength : 0;
	// Codes of one scheme that agree say "the same kind" as surely as concepts do, on the same scale,
	// where no word of the notice reads as the product's type (the codes are then the only reading).
	// In English the product's words were looked for and not found: the codes then say as much as a
	// crosswalked concept would (a notice coded in CPV and one coded in UNSPSC for the same kind score alike).
	const codeKindShare = n.language === "en" ? POINTS.codeKindEnglishShare : 1;
	const codeKindPoints = sameScheme && codes && !best ? conceptMax * codes.kind * codeKindShare : 0;
	if (codes && codeKindPoints > codes.points && codeKindPoints >= conceptPoints)
		add("concept_agreement", codeKindPoints - codes.points, `${codes.scheme} ${codes.level} agrees: the same kind of goods`);
	else if (concept && conceptPoints > (codes?.points ?? 0)) {
		add(
			"concept_agreement",
			conceptPoints - (codes?.points ?? 0),
			(concept.member
				? `the notice's class of goods covers the product's kind (CPV ${concept.member}, filed under it by UNSPSC): `
				: `CPV ${concept.depth} digits agree${concept.contains ? " (the notice's kind includes the product)" : ""}: `) +
				`product ${concept.product.code} from ${concept.product.from}, notice ${concept.notice.code} from ${concept.notice.from}`,
		);
		matchedCodes.push(`CPV:${concept.notice.code}`);
	}
	const evidence = named || (best?.head ?? null) !== null || (codes?.points ?? 0) >= 12;
	if (oem && evidence) {
		add("oem_mention", POINTS.oemMention, `notice names the maker (${p.view.oemName})`);
		terms.add(p.view.oemName);
	}

	// Without the product's type word in the notice, a kind read from codes or labels is checked against the title and item lines.
	const kindOnly = concept !== null || codeKindPoints > 0;
	const specSegments = typeSegments.length > 0 ? typeSegments : kindOnly ? n.segments.filter((s) => s.kind !== "description") : [];
	const spec = specVerdict(p, specSegments);
	if (spec.short.length > 0 && !exactNamed) {
		const s = spec.short[0];
		if (s) add("spec_shortfall", POINTS.specShortfall, `notice requires ${s.required}, product offers ${s.offered}`);
	} else if (spec.fit.length > 0) add("spec_fit", POINTS.specFit, spec.fit.map((s) => `${s.offered} meets ${s.required}`).join("; "));

	if (best?.head && best.segment.kind === "item" && best.segment.countable && best.segment.nature === "goods")
		add(
			"goods_line",
			POINTS.goodsLine,
			`a countable goods line (${notice.items[best.segment.itemIndex ?? 0]?.quantity ?? "?"} ${notice.items[best.segment.itemIndex ?? 0]?.unit ?? ""})`.trim(),
		);
	if (n.flags.equalsInvited && best?.head) add("equals_invited", POINTS.equalsInvited, `equals are invited ("${n.flags.equalsInvited}")`);
	if (p.view.repStatus === "catalog") add("catalog_only", POINTS.catalogOnly, "catalog product, not carried");

	let score = Math.max(
		0,
		Math.min(
			100,
			entries.reduce((s, e) => s + e.points, 0),
		),
	);
	const scale = (feature: string, factor: number, detail: string) => {
		const after = score * factor;
		add(feature, after - score, detail);
		score = after;
	};

	// Why the notice may not be a purchase of this product, whatever the words say.
	const nature = n.nature.nature;
	if ((nature === "services" || nature === "construction") && !p.serviceLike)
		scale(
			`${nature}_not_goods`,
			nature === "services" ? FACTORS.services : FACTORS.construction,
			`the notice buys ${nature} (${n.nature.evidence}); mentioning the product is not buying it`,
		);
	else if (nature === "mixed" && best && best.segment.kind === "item" && best.segment.nature !== "goods" && !p.serviceLike)
		scale("service_line_only", FACTORS.serviceLine, `only a ${best.segment.nature} line matches`);
	if (n.flags.brandRestricted && !oem && !named)
		scale(
			"brand_only_other_brand",
			n.flags.equalsInvited ? FACTORS.brandOnlyOtherWithEquals : FACTORS.brandOnlyOther,
			`restricted to a brand ("${n.flags.brandRestricted}") that is not ${p.view.oemName}${n.flags.equalsInvited ? ", though some lines invite equals" : ""}`,
		);
	if (n.flags.marketResearch)
		scale("market_research", FACTORS.marketResearch, `market research, nothing bought yet ("${n.flags.marketResearch}")`);
	else if (notice.planningOnly)
		scale("market_research", FACTORS.marketResearch, "a prior information or planning notice: nothing is tendered yet");
	if (n.flags.refurbishedOnly && !p.refurbished)
		scale("refurbished_only", FACTORS.refurbishedOnly, `refurbished goods only (${n.flags.refurbishedOnly}); the product is new`);
	// The head noun for other goods ("VENTILATOR BATTERIES" to a VRLA battery): its code still agrees, the variant does not.
	const division = (concept?.product.code ?? p.concepts[0]?.code)?.slice(0, 2);
	const otherGoods =
		named || !division
			? null
			: best
				? (best.otherQualifier ?? goodsQualifierElsewhere(p, best, [...requirement, ...inDescription], division))
				: concept
					? titleForOtherGoods(n, division)
					: null;
	if (otherGoods && n.language === "en" && division && namesGoodsOutside(otherGoods, division))
		scale("other_goods_variant", FACTORS.otherGoodsQualifier, `the notice asks for the kind as it serves other goods ("${otherGoods}")`);
	else if (best?.head && !named && !(codes && codes.points > 0)) {
		// Only the head word agrees ("Privacy filters" filed under computer accessories for a dialysis filter), or the
		// passage qualifies it otherwise ("walk-in"), and the notice's own classification is another group of goods.
		// Or both sides' kinds are readings of that one word ("freezer"), not of either side's codes.
		const wordsOnly = !best.modifier && ((concept?.strength ?? 0) < COGNATE_MIN_STRENGTH || sameWordOnly(concept, best.head));
		const elsewhere = best.otherQualifier || wordsOnly ? classifiedElsewhere(p, n) : null;
		if (elsewhere)
			scale(
				"other_kind_variant",
				FACTORS.otherKindVariant,
				`the notice ${best.otherQualifier ? `qualifies the kind otherwise ("${best.otherQualifier}")` : "shares only a word with the product"}` +
					` and its own classification (${elsewhere.from}: CPV ${elsewhere.code}) is another group of goods`,
			);
	}
	// The kinds agree only where the product's own qualifier says it is not, and no passage names the product's
	// qualifier with the head: the head word is a homonym ("GENERATOR" filed as power generators).
	const homonym =
		!named &&
		!(best?.modifier ?? false) &&
		concept?.product.ruledOut === true &&
		(bestConceptAgreement(
			p.concepts.filter((c) => !c.ruledOut),
			n.concepts,
		)?.strength ?? 0) < COGNATE_MIN_STRENGTH;
	if (homonym && concept)
		scale(
			"homonym_kind",
			FACTORS.otherKindVariant,
			`the notice's kind (CPV ${concept.notice.code}) is a reading of ${concept.product.from} that the product's own qualifier rules out`,
		);
	const listedHead = requirement.some((t) => t.segment.kind === "item");
	const viaCode = concept !== null && (concept.notice.source === "code" || concept.notice.source === "crosswalk");
	if (!named && !listedHead && unlisted(p, n, viaCode))
		scale(
			"not_on_the_list",
			FACTORS.unlistedKind,
			`the notice lists ${n.lineConcepts.length} item lines under ${concept?.notice.from}; none of them names the product's kind`,
		);
	// Parts of the product's kind, not the kind ("Side Chair Components and Accessories").
	// The product named, and only as what other goods are for ("Batteries for IntelliVue MX450").
	const key = identity && named ? compactKey(identity.key) : null;
	const namedIn = key ? { key, segments: n.segments.filter((s) => segmentRuns(s).has(key)) } : undefined;
	const parts = partsOnly(
		p,
		n,
		stated.map((t) => t.segment),
		best?.head ?? stated[0]?.head ?? null,
		namedIn,
	);
	if (parts) scale("parts_not_goods", FACTORS.partsOnly, `the notice buys parts: ${parts}`);
	// A broad code that holds the product, and the notice's own words name another kind under it ("snøscooter" as specialist vehicles).
	const otherKind = named || best?.head ? null : wordsNameOtherKind(p, n, concept);
	if (otherKind && concept)
		scale(
			"words_name_other_kind",
			FACTORS.wordsNameOtherKind,
			`the notice's code (CPV ${concept.notice.code}) holds the product, but its words name another kind ` +
				`(${otherKind.from}: CPV ${otherKind.code})`,
		);
	// The kinds agree only through a code the publisher filed beside the purchase (one "Monitors" code among computer codes).
	const agreedCode =
		codes && codes.points >= conceptPoints
			? n.concepts.find((c) => c.from === `${codes.scheme} ${codes.noticeCode}`)
			: concept && conceptPoints > 0
				? concept.notice
				: undefined;
	const catalog = agreedCode || concept ? catalogOf(product.tenantId)?.contextFor(product.productId) : undefined;
	// A catalog that says nothing of the company's other products (none known, or none surely read) says nothing of its trade.
	const sellsIn = (division: string) => !catalog || catalog.largest(2) === 0 || catalog.share(division) >= SELLS_IN_SHARE;
	if (!named && agreedCode && strayCode(n, agreedCode, sellsIn))
		scale(
			"stray_code",
			FACTORS.strayCode,
			`the kinds agree only through ${agreedCode.from}, alone in its division among the notice's codes and not read in its words`,
		);
	// The kind read from one word of the product, through the notice's code, in a trade the company is not in.
	else if (!named && !best?.head && concept && conceptPoints > (codes?.points ?? 0) && loneWordOtherTrade(concept, sellsIn))
		scale(
			"other_trade",
			FACTORS.otherTrade,
			`the kinds agree only through ${concept.notice.from} and the product's word ${concept.product.from}; the company sells little in that division`,
		);
	if (!exactNamed) {
		const hit = n.flags.exclusions.find((ex) => exclusionHits(p, ex));
		if (hit) scale("rejected_kind", FACTORS.excludedKind, `the notice rejects products like this: "${hit.sentence.slice(0, 120)}"`);
	}

	entries.sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || (a.feature < b.feature ? -1 : 1));
	return {
		productId: product.productId,
		score: Math.round(Math.max(0, Math.min(100, score))),
		rationale: entries,
		matchedTerms: [...terms],
		matchedCodes,
		excluded: null,
		matchedItems: [...items].sort((a, b) => a - b),
		namedMatch: named,
		containedKind: concept?.contains ? { notice: concept.notice.code, product: concept.product.code } : null,
	};
}
