import { cpvLabel } from "../../../shared/taxonomy/index.ts";
import { goodsDivision } from "../../../shared/taxonomy/label-index.ts";
import { type Concept, type ConceptAgreement, inLineage } from "./concepts.ts";
import { type NoticeProfile, PURPOSE_CUT, type Segment } from "./notice-profile.ts";
import type { ProductProfile } from "./product-profile.ts";
import { compactRuns } from "./model-number.ts";
import { stem, stemSet, tokenize } from "./text.ts";

// Why this file exists: the checks that keep notices which do not buy the product out of a digest
// although its kind is named or coded (issue 16, precision): parts and accessories of the product's
// kind or of the named product, another kind named by the words under a broad code, the same head word
// as the only agreement, a code the publisher filed beside the purchase, and a kind read from one word
// of the product in a trade its company is not in. Each reads the notice's structure (its codes, its
// item lines) first and its words second; score-pair.ts applies them as factors (weights.ts).

// ---------------------------------------------------------------------------------------------
// Parts and accessories of the product's kind ("Side Chair Components and Accessories").

/** Nouns that, right after the product's head, say the passage buys parts of that kind of goods. */
const PART_NOUNS = stemSet("part parts component components accessory accessories spare spares subassembly subassemblies");
/**
 * Goods bought for other goods: the last noun of what a line names before its purpose ("Cables and
 * sensors for patient monitors", "Winter tires for panel vans"). A closed class (parts, consumables,
 * power and mounting things), unlike "furniture for the library: chairs" whose lead is a kind that holds
 * the product. The same nouns as score-pair's accessory nouns, with tyres, sensors and probes.
 */
const FOR_OTHER_GOODS = new Set([
	...PART_NOUNS,
	...stemSet(
		"pad battery batteries charger cable cord mount bracket case cover tip filter bulb lamp cartridge toner ink reagent consumable " +
			"holster strap cradle adapter electrode lens rotor tray sleeve stylus label ribbon protector tyre tire tyres tires sensor " +
			"sensors probe probes attachment attachments mounting refill kit",
	),
]);
/** Words that join two kinds ("chairs and accessories" buys chairs too). */
const JOINERS = new Set(["and", "or", "with", "plus", "&"]);

/** CPV codes whose English label says they are parts of other goods ("Parts of seats", "Spare parts for goods vehicles"). */
const partsCodeCache = new Map<string, boolean>();
export function isPartsCode(code: string): boolean {
	let known = partsCodeCache.get(code);
	if (known === undefined) {
		const label = cpvLabel(code, "en") ?? "";
		known =
			/^(?:[a-z]+\s+)*?(?:spare\s+)?parts\b/i.test(label) ||
			/\b(?:spare parts|parts (?:of|for)|accessories (?:of|for)|components (?:of|for))\b/i.test(label);
		partsCodeCache.set(code, known);
	}
	return known;
}

/**
 * How a passage names the product's head: "bare" (the kind itself is bought), "part" (the head only
 * qualifies a part noun right after it, "chair components", "chair replacement parts", or only says
 * what goods named before a purpose preposition are for, "Winter tires for panel vans") or null (not
 * named). "Chairs and accessories" names the head bare.
 */
export function headUse(seg: Pick<Segment, "text" | "kind">, head: string): "bare" | "part" | null {
	const words = tokenize(seg.text);
	if (!words.some((w) => stem(w) === head)) return null;
	const cut = seg.kind === "description" ? null : PURPOSE_CUT.exec(seg.text);
	if (cut) {
		const lead = tokenize(seg.text.slice(0, cut.index)).map(stem);
		const last = lead.at(-1);
		if (!lead.includes(head) && last !== undefined && FOR_OTHER_GOODS.has(last)) return "part";
	}
	let seen: "bare" | "part" | null = null;
	for (let i = 0; i < words.length; i++) {
		if (stem(words[i] ?? "") !== head) continue;
		const next = words[i + 1];
		const after = words[i + 2];
		const part =
			(next !== undefined && PART_NOUNS.has(stem(next))) ||
			(next !== undefined && !JOINERS.has(next) && after !== undefined && PART_NOUNS.has(stem(after)));
		if (!part) return "bare";
		seen = "part";
	}
	return seen;
}

/**
 * How a passage names the product itself (its model or product line, `key` compact): "part" when the words
 * right after it are goods bought for it ("MX450 batteries and cables", "Hilux replacement parts"), or what
 * it names before a purpose preposition is ("Batteries for IntelliVue MX450"); "bare" otherwise; null when
 * the key is not in it. The product's own head after its name ("MX450 patient monitors") is the product.
 */
export function namedUse(seg: Pick<Segment, "text" | "kind">, key: string, heads: readonly string[]): "bare" | "part" | null {
	const tokens = tokenize(seg.text);
	let end = -1;
	for (let i = 0; i < tokens.length && end < 0; i++) {
		let run = "";
		for (let j = i; j < Math.min(tokens.length, i + 4); j++) {
			run += tokens[j];
			if (run === key) {
				end = j;
				break;
			}
			if (!key.startsWith(run)) break;
		}
	}
	if (end < 0) return null;
	const cut = seg.kind === "description" ? null : PURPOSE_CUT.exec(seg.text);
	if (cut) {
		const lead = tokenize(seg.text.slice(0, cut.index));
		const last = stem(lead.at(-1) ?? "");
		if (!compactRuns(lead).has(key) && FOR_OTHER_GOODS.has(last) && !heads.includes(last)) return "part";
	}
	const goodsFor = (w: string | undefined) => w !== undefined && FOR_OTHER_GOODS.has(stem(w)) && !heads.includes(stem(w));
	const next = tokens[end + 1];
	const after = tokens[end + 2];
	if (goodsFor(next) || (next !== undefined && !JOINERS.has(next) && !heads.includes(stem(next)) && goodsFor(after))) return "part";
	return "bare";
}

/**
 * The notice buys parts or accessories of the product's kind, not the kind: every passage that states
 * what is bought and names the product's head names it as what its parts or accessories are for, or
 * every sure reading of the notice's own classification is a parts code while the product is none.
 * Where the product is named (`named`), the passages that name its model or line decide alone.
 * Returns the reason, or null.
 */
export function partsOnly(
	p: ProductProfile,
	n: NoticeProfile,
	stated: readonly Segment[],
	head: string | null,
	named?: { key: string; segments: readonly Segment[] },
): string | null {
	if (p.concepts.some((c) => isPartsCode(c.code))) return null;
	if (named) {
		// The product named: what the passages that name it buy decides, the kind's words and codes do not.
		const said = named.segments.filter((s) => s.kind !== "description");
		const uses = (said.length > 0 ? said : named.segments).map((s) => namedUse(s, named.key, p.heads));
		return uses.length > 0 && uses.every((u) => u === "part")
			? `"${named.segments[0]?.text.slice(0, 60)}" names the product only as what the goods are for`
			: null;
	}
	if (head !== null && stated.length > 0) {
		const uses = stated.map((s) => headUse(s, head));
		if (uses.every((u) => u === "part"))
			return `"${stated[0]?.text.slice(0, 60)}" names the kind only as what its parts or accessories are for`;
		if (uses.some((u) => u === "bare")) return null;
	}
	const filed = n.concepts.filter((c) => (c.source === "code" || c.source === "crosswalk") && c.confidence >= 0.5);
	if (filed.length > 0 && filed.every((c) => isPartsCode(c.code)))
		return `the notice is classified as parts (${filed[0]?.from}: CPV ${filed[0]?.code})`;
	return null;
}

// ---------------------------------------------------------------------------------------------
// A broad code that includes the product, and words that name another kind inside it.

/** A reading of the notice's words sure enough to say which kind a broad code means. */
const WORD_READING_MIN = 0.5;
/** CPV digits a word reading must have to name a kind (a class). */
const WORD_READING_DEPTH = 4;

/**
 * The notice's kind includes the product's only through a code ("specialist vehicles" holds minibuses),
 * while the title or an item line names, surely, a kind of goods that is not the product's ("snøscooter",
 * read as motor scooters, under "specialist vehicles"), in the code's own division (a word read into
 * another division is more likely a misreading or what the goods are for: "ADAPTÉ" of a French bus title
 * read as adaptors), and no reading of its words is in a line of descent with the product's kind. The
 * code files the purchase broadly; the words say what it is. Returns the word reading, or null.
 */
export function wordsNameOtherKind(p: ProductProfile, n: NoticeProfile, concept: ConceptAgreement | null): Concept | null {
	if (!concept || !concept.contains || concept.depth >= concept.product.depth) return null;
	if (concept.notice.source !== "code" && concept.notice.source !== "crosswalk") return null;
	const words = n.concepts.filter((c) => c.source !== "code" && c.source !== "crosswalk" && goodsDivision(c.code));
	// The product's kinds at a class or finer (a division, "transport equipment", is no kind to contradict).
	const kinds = [concept.product, ...p.concepts.filter((q) => q.depth >= WORD_READING_DEPTH)];
	if (words.some((w) => kinds.some((q) => inLineage(q, w)))) return null;
	// What the title and item lines name (the description also tells of the buyer and its uses: "politi").
	const other = words.find(
		(w) =>
			(w.source === "title" || w.source === "item") &&
			w.confidence >= WORD_READING_MIN &&
			w.depth >= WORD_READING_DEPTH &&
			w.code.slice(0, 2) === concept.notice.code.slice(0, 2),
	);
	return other ?? null;
}

// ---------------------------------------------------------------------------------------------
// The same word on both sides, and nothing else.

/**
 * The kinds agree only because the product's head word and a word of the notice are the same label
 * word ("freezer" of an ultra-low laboratory freezer and of a "Walk-In Fridge and Freezer"): both
 * concepts are readings of that one word, not of codes, and it is the word the passage names as the
 * product's head (a "biosafety cabinet" matched as "BSC" is not read through "cabinet" alone).
 */
export function sameWordOnly(concept: ConceptAgreement | null, head: string | null): boolean {
	if (!concept || head === null) return false;
	const textual = (c: Concept) => c.source !== "code" && c.source !== "crosswalk";
	const word = `"${head}"`;
	return textual(concept.product) && textual(concept.notice) && concept.product.from === word && concept.notice.from === word;
}

// ---------------------------------------------------------------------------------------------
// A publisher's stray code.

/** Least codes a notice must carry for one of them to stand out from the rest. */
const STRAY_MIN_CODES = 3;
/** A reading of the notice's words this sure in the stray code's division backs the code. */
const STRAY_WORD_MIN = 0.3;

/**
 * A code the publisher filed beside the purchase rather than for it: not the main code, alone in its CPV
 * division among at least three codes (the main one and at least one other in another division), and no
 * word of the notice read in that division, while the company sells nothing in the main code's division
 * (`sellsIn`, from its catalog). "IT-klientudstyr" coded computers, printers, phones and one "Monitors" of
 * patient-monitoring systems for its PC screens: the screen is what "monitorer" meant, and a medical
 * reseller sells no computers.
 */
export function strayCode(n: NoticeProfile, agreed: Concept, sellsIn: (division: string) => boolean = () => false): boolean {
	if (agreed.source !== "code" && agreed.source !== "crosswalk") return false;
	// One published code may read as several concepts (a crosswalk's readings): count codes, not readings.
	const byCode = new Map<string, Set<string>>();
	for (const c of n.concepts)
		if (c.source === "code" || c.source === "crosswalk") byCode.set(c.from, (byCode.get(c.from) ?? new Set()).add(c.code.slice(0, 2)));
	if (byCode.size < STRAY_MIN_CODES) return false;
	const [main] = byCode.keys();
	const division = agreed.code.slice(0, 2);
	if (agreed.from === main || byCode.get(main ?? "")?.has(division)) return false;
	for (const [from, divisions] of byCode) if (from !== agreed.from && divisions.has(division)) return false;
	const mainDivisions = byCode.get(main ?? "") ?? new Set<string>();
	// A company that sells the main code's kind of goods reads the other code as part of the purchase: an AV framework
	// coded audio-visual equipment with one display-screen code buys screens from an AV reseller.
	if ([...mainDivisions].some(sellsIn)) return false;
	const withMain = [...byCode.values()].filter((d) => [...d].some((x) => mainDivisions.has(x))).length;
	if (withMain < 2) return false;
	return !n.concepts.some(
		(c) => c.source !== "code" && c.source !== "crosswalk" && c.confidence >= STRAY_WORD_MIN && c.code.slice(0, 2) === division,
	);
}

// ---------------------------------------------------------------------------------------------
// A kind read from one word of the product, in a trade its company is not in.

/**
 * The kinds agree only through the notice's code and a kind read from one word of the product's name
 * ("freezer" of an ultra-low laboratory freezer, read as the domestic appliance), and the company does not
 * trade in the notice's division (`sellsIn`, from its catalog): a laboratory supplier's freezer and a
 * ministry's "Electrical domestic appliances" share the word, not the trade. The caller applies it only where
 * no passage names the product's type and the product is not named.
 */
export function loneWordOtherTrade(concept: ConceptAgreement | null, sellsIn: (division: string) => boolean): boolean {
	if (!concept) return false;
	const { product, notice } = concept;
	if (notice.source !== "code" && notice.source !== "crosswalk") return false;
	if (product.source !== "name" && product.source !== "description") return false;
	if (!/^"[^" ]+"$/.test(product.from)) return false;
	return !sellsIn(notice.code.slice(0, 2));
}
