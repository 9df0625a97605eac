import { cpvInLine } from "../../../shared/taxonomy/codes.ts";
import { goodsDivision } from "../../../shared/taxonomy/label-index.ts";
import { containmentStrength, cpvDepth, sharedDigits } from "./concepts.ts";
import { noticeProfile, segmentRuns } from "./notice-profile.ts";
import { productProfile } from "./product-profile.ts";
import { scorePair } from "./score-pair.ts";
import type { NoticeView, PairScore, ProductView, RationaleEntry, TenantNoticeScore } from "./types.ts";
import { BREADTH, FACTORS } from "./weights.ts";

// Company level: the company's best product for the notice carries the score; other products
// that cover further lines of the notice add a little (a multi-lot buy the company can serve
// more fully); an all-or-none award whose leading item the company cannot supply takes it down.

function better(a: PairScore, b: PairScore, carried: (id: string) => boolean): boolean {
	if (a.score !== b.score) return a.score > b.score;
	if (carried(a.productId) !== carried(b.productId)) return carried(a.productId);
	return a.productId < b.productId;
}

/** Does the company have a product for the notice's leading request (title before "with", "and" ...)? */
function coversPrimary(notice: NoticeView, products: ProductView[], pairs: Map<string, PairScore>): boolean {
	const phrase = noticeProfile(notice).flags.primaryTitlePhrase;
	const seg = noticeProfile({ ...notice, noticeId: `${notice.noticeId}#lead`, title: phrase, description: "", items: [] }).segments[0];
	if (!seg) return false;
	const runs = segmentRuns(seg);
	for (const product of products) {
		const pair = pairs.get(product.productId);
		if (!pair || pair.score === 0) continue;
		const p = productProfile(product);
		if (p.heads.some((h) => seg.bag.has(h))) return true;
		if (p.oemAliases.some((a) => runs.has(a))) return true;
		if ([p.model.full, p.model.base, p.model.family, ...p.lineIds].some((k) => k && runs.has(k))) return true;
	}
	return false;
}

/** A notice's kind this broad (containment strength, see concepts.ts: about 200 CPV codes under it) is an umbrella. */
const UMBRELLA_BELOW = 0.85;

/** CPV digits of a class: readings that share them with the kind bought name the same field. */
const SAME_CLASS = 4;

/** A reading of the notice's words sure enough to say what it buys. */
const WORD_READING_MIN = 0.5;

/**
 * A notice that buys a whole kind ("vehicles", "computers") is one the company can serve the more
 * broadly the more of its own kinds that kind includes: cars, vans, pick-ups and minibuses under
 * motor vehicles. The further kinds (not in one line of descent with the best product's or each
 * other's) that products matching well are bought as part of, as CPV codes. Only where the notice's
 * words name nothing narrower or other than that kind: a notice coded "checking and testing
 * apparatus" whose description buys an analyser buys no microscopes and meters, however many.
 */
function furtherKinds(notice: NoticeView, best: PairScore, pairs: readonly PairScore[]): string[] {
	const whole = best.containedKind?.notice;
	if (!best.containedKind || !whole) return [];
	// An umbrella ("medical equipments", some 350 kinds) includes several kinds of any company in its field: it names none.
	if (cpvDepth(whole) <= 4 && containmentStrength(whole.slice(0, cpvDepth(whole))) < UMBRELLA_BELOW) return [];
	const words = noticeProfile(notice).concepts.filter(
		(c) => c.source !== "code" && c.source !== "crosswalk" && c.confidence >= WORD_READING_MIN && goodsDivision(c.code),
	);
	// A reading in the kind's own CPV class is the same field read less fully ("audio-visual materials" of "audio-visual equipment").
	if (words.some((w) => !(cpvInLine(w.code, whole) && w.depth <= cpvDepth(whole)) && sharedDigits(w.code, whole) < SAME_CLASS)) return [];
	const kinds = [best.containedKind.product];
	for (const pair of pairs) {
		const kind = pair.containedKind;
		if (pair.productId === best.productId || !kind || pair.score < BREADTH.minPairScore || !cpvInLine(kind.notice, whole)) continue;
		if (!kinds.some((k) => cpvInLine(k, kind.product))) kinds.push(kind.product);
	}
	return kinds.slice(1);
}

/**
 * Score one notice for one company from its products (discontinued products and those of
 * de-authorized partners are passed in and ignored). `products` may be the stage-1 candidates.
 */
export function scoreNoticeForTenant(products: readonly ProductView[], notice: NoticeView): TenantNoticeScore {
	const pairs = new Map<string, PairScore>();
	const usable: ProductView[] = [];
	for (const product of products) {
		const pair = scorePair(product, notice);
		if (pair.excluded) continue;
		pairs.set(product.productId, pair);
		usable.push(product);
	}
	const carried = new Set(usable.filter((p) => p.repStatus === "carried").map((p) => p.productId));
	let best: PairScore | null = null;
	for (const pair of pairs.values()) if (!best || better(pair, best, (id) => carried.has(id))) best = pair;
	if (!best || best.score === 0) return { score: 0, bestProduct: null, rationale: best ? best.rationale : [] };

	const bestView = usable.find((p) => p.productId === best.productId);
	if (!bestView) return { score: 0, bestProduct: null, rationale: [] };
	let score = best.score;
	const company: RationaleEntry[] = [];

	// Further lines of the notice that other products match well.
	const covered = new Set(best.matchedItems);
	let extra = 0;
	const sorted = [...pairs.values()].sort((a, b) => b.score - a.score || (a.productId < b.productId ? -1 : 1));
	for (const pair of sorted) {
		if (pair.productId === best.productId || pair.score < BREADTH.minPairScore) continue;
		for (const i of pair.matchedItems)
			if (!covered.has(i)) {
				covered.add(i);
				extra++;
			}
	}
	const kinds = furtherKinds(notice, best, sorted);
	const breadth = Math.min(BREADTH.max, (extra + kinds.length) * BREADTH.perLine);
	if (breadth > 0) {
		const after = Math.min(100, score + breadth);
		if (after > score)
			company.push({
				feature: "more_lines_covered",
				points: after - score,
				detail: [
					extra > 0 ? `other products match ${extra} more line(s) of the notice` : "",
					kinds.length > 0 ? `the kind the notice buys includes ${kinds.length} more of the company's kinds (CPV ${kinds.join(", ")})` : "",
				]
					.filter(Boolean)
					.join("; "),
			});
		score = after;
	}

	const flags = noticeProfile(notice).flags;
	if (flags.allOrNone && notice.items.length > 1 && !coversPrimary(notice, usable, pairs)) {
		const after = score * FACTORS.allOrNoneUncovered;
		company.push({
			feature: "all_or_none_main_item_missing",
			points: Math.round((after - score) * 10) / 10,
			detail: `all-or-none award ("${flags.allOrNone}") and no product for the leading item ("${flags.primaryTitlePhrase}")`,
		});
		score = after;
	}

	const rationale = [...best.rationale, ...company].sort(
		(a, b) => Math.abs(b.points) - Math.abs(a.points) || (a.feature < b.feature ? -1 : 1),
	);
	return {
		score: Math.round(Math.max(0, Math.min(100, score))),
		bestProduct: {
			productId: bestView.productId,
			name: bestView.name,
			model: bestView.model,
			oem: bestView.oemName,
			matchedTerms: best.matchedTerms,
			matchedCodes: best.matchedCodes,
		},
		rationale,
	};
}
