// More evidence per (product, notice) pair, for the weight fit (issue 16 step 10). Most pairs near the digest
// line carry one scored feature alone, `concept_agreement`, so no weighting of today's features can tell a
// relevant one from a non-relevant one (README, step 9). This reads what that agreement rests on, and what else
// the notice says about the product's kind, as numbers in 0..1 that the fit script (scripts/fit-matching.ts)
// can weigh. A side record: the scorer does not read it, so no score moves. Cheap: it reads the two cached
// profiles and compares a few concepts, no text is read again.

import { type Concept, bestConceptAgreement, cpvBreadth, sharedDigits } from "./concepts.ts";
import { noticeProfile } from "./notice-profile.ts";
import { productProfile } from "./product-profile.ts";
import type { NoticeView, ProductView } from "./types.ts";

/** Evidence names, fixed so that the fit and the tests read the same record. */
export const EVIDENCE = [
	/** The agreeing concepts share a CPV class (4 digits) or more. */
	"ev_class",
	/** ... a category (5 digits) or more. */
	"ev_category",
	/** ... a full code (6+ digits). */
	"ev_code",
	/** The notice's kind includes the product's (it buys a group or class the product is in). */
	"ev_contains",
	/** The notice's class label covers the product's kind in another CPV branch (umbrella.ts). */
	"ev_umbrella",
	/** How broad the notice's agreeing concept is: log2 of the CPV codes under it, over 9 (512 codes). */
	"ev_breadth",
	/** The notice's agreeing concept is its own code (any scheme) rather than a reading of its words. */
	"ev_notice_code",
	/** ... a code of another scheme read through a crosswalk. */
	"ev_notice_crosswalk",
	/** The product's agreeing concept is its own code (or a crosswalk of it) rather than its name's words. */
	"ev_product_code",
	/** The notice's title or an item line, in its own language, surely (>= 0.5) names the product's class (4 digits). */
	"ev_words_name_kind",
	/** ... the title does. */
	"ev_title_names_kind",
	/** Share of the notice's item lines whose own readings are in line with the product's kinds (3+ digits). */
	"ev_line_share",
	/** The notice is not in English (its words cannot overlap the product's). */
	"ev_other_language",
	/** How many item lines the notice lists: log2(1 + lines) over 6. */
	"ev_lines",
	/** How many CPV divisions the notice's sure readings span beyond the first, over 4 (a diffuse purchase). */
	"ev_divisions",
	/** The product's head noun (its type) is a word of the notice anywhere, description included. */
	"ev_head_anywhere",
] as const;
export type EvidenceName = (typeof EVIDENCE)[number];
export type Evidence = Record<EvidenceName, number>;

const SURE = 0.5;
const fromWords = (c: Concept) => c.source === "title" || c.source === "item";
const fromCode = (c: Concept) => c.source === "code" || c.source === "crosswalk";
/** Two concepts in one line of descent down to `digits` (the shorter one's depth counts as a prefix). */
const inLine = (a: Concept, b: Concept, digits: number) =>
	sharedDigits(a.code, b.code) >= Math.min(digits, a.depth, b.depth) && Math.min(a.depth, b.depth) >= Math.min(digits, 3);

/** The evidence of one pair (every name present, 0 where it does not apply). */
export function pairEvidence(product: ProductView, notice: NoticeView): Evidence {
	const p = productProfile(product);
	const n = noticeProfile(notice);
	const e = Object.fromEntries(EVIDENCE.map((k) => [k, 0])) as Evidence;
	const a = bestConceptAgreement(p.concepts, n.concepts);
	if (a) {
		e.ev_class = a.depth >= 4 ? 1 : 0;
		e.ev_category = a.depth >= 5 ? 1 : 0;
		e.ev_code = a.depth >= 6 ? 1 : 0;
		e.ev_contains = a.contains ? 1 : 0;
		e.ev_umbrella = a.member ? 1 : 0;
		const prefix = a.notice.code.slice(0, Math.max(3, Math.min(4, a.notice.depth)));
		e.ev_breadth = a.notice.depth >= 5 && !a.member ? 0 : Math.min(1, Math.log2(Math.max(1, cpvBreadth(prefix))) / 9);
		e.ev_notice_code = fromCode(a.notice) ? 1 : 0;
		e.ev_notice_crosswalk = a.notice.source === "crosswalk" ? 1 : 0;
		e.ev_product_code = fromCode(a.product) ? 1 : 0;
	}
	const kinds = p.concepts.filter((c) => !c.ruledOut);
	const names = (c: Concept, digits: number) => kinds.some((k) => inLine(k, c, digits));
	const sureWords = n.concepts.filter((c) => fromWords(c) && c.confidence >= SURE);
	e.ev_words_name_kind = sureWords.some((c) => names(c, 4)) ? 1 : 0;
	e.ev_title_names_kind = sureWords.some((c) => c.source === "title" && names(c, 4)) ? 1 : 0;
	const lines = n.lineConcepts.filter((l) => l.length > 0);
	if (lines.length > 0) e.ev_line_share = lines.filter((l) => l.some((c) => names(c, 3))).length / lines.length;
	e.ev_other_language = n.language === "en" ? 0 : 1;
	e.ev_lines = Math.min(1, Math.log2(1 + n.view.items.length) / 6);
	const divisions = new Set(n.concepts.filter((c) => c.confidence >= SURE).map((c) => c.code.slice(0, 2)));
	e.ev_divisions = Math.min(1, Math.max(0, divisions.size - 1) / 4);
	e.ev_head_anywhere = p.heads.some((h) => n.bag.has(h)) ? 1 : 0;
	return e;
}
