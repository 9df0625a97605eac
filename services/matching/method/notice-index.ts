import { indexPrefixes } from "./codes.ts";
import { conceptKeys, coveredKeys, umbrellaKeys } from "./concepts.ts";
import { modelLikeRuns } from "./model-number.ts";
import { noticeProfile } from "./notice-profile.ts";
import { PostingIndex } from "./postings.ts";
import { productProfile } from "./product-profile.ts";
import { tokenize } from "./text.ts";
import type { NoticeView, ProductView } from "./types.ts";

// Stage 1 for a created or changed product: which open notices could be about it? Notices are
// indexed by the runs of tokens that can spell a model number, by their words (title and item
// lines apart from the description) and by code prefixes. A product probes with its model keys,
// product-line identifiers, head nouns, maker and codes. Very common words are skipped, so one
// probe never walks a large share of the collection.

export const NOTICE_KEY_WEIGHTS = { model: 10, line: 6, head: 4, headInDescription: 2, word: 1, oem: 2, concept: 4 } as const;

function codeWeight(prefix: string): number {
	const [scheme, code = ""] = prefix.split(":");
	if (scheme === "UNSPSC" || scheme === "CPV") return code.length >= 8 ? 4 : code.length >= 5 ? 3 : 2;
	return 2;
}

export interface NoticeCandidate {
	notice: NoticeView;
	retrieval: number;
}

export class NoticeIndex {
	private index = new PostingIndex<NoticeView>();

	constructor(
		readonly options: { maxCandidates: number; minRetrieval: number; maxWordShare: number; maxConceptShare: number } = {
			maxCandidates: 2000,
			minRetrieval: 4,
			maxWordShare: 0.25,
			maxConceptShare: 0.05,
		},
	) {}

	get size(): number {
		return this.index.size;
	}

	/** Posting entries walked by the last candidate query. */
	get lastVisited(): number {
		return this.index.lastVisited;
	}

	upsert(notice: NoticeView): void {
		const n = noticeProfile(notice);
		const keys = new Set<string>();
		for (const seg of n.segments) {
			const prefix = seg.kind === "description" ? "d:" : "t:";
			for (const t of seg.bag) keys.add(prefix + t);
			for (const r of modelLikeRuns(tokenize(seg.text))) keys.add(`r:${r}`);
		}
		for (const c of n.codes) for (const prefix of indexPrefixes(c)) keys.add(`c:${prefix}`);
		for (const c of n.concepts) for (const k of [...conceptKeys(c), ...umbrellaKeys(c)]) keys.add(k);
		this.index.put(notice.noticeId, notice, keys);
	}

	remove(noticeId: string): void {
		this.index.remove(noticeId);
	}

	/** The notices a product could be the subject of, best first (bounded; never a scan of all notices). */
	candidatesForProduct(product: ProductView, limit = this.options.maxCandidates): NoticeCandidate[] {
		const p = productProfile(product);
		if (p.excluded) return [];
		const probes = new Map<string, number>();
		const put = (key: string, w: number) => probes.set(key, Math.max(probes.get(key) ?? 0, w));
		for (const k of [p.model.full, p.model.base]) if (k) put(`r:${k}`, NOTICE_KEY_WEIGHTS.model);
		for (const k of [p.model.family, ...p.lineIds]) if (k) put(`r:${k}`, NOTICE_KEY_WEIGHTS.line);
		for (const h of p.compoundHead ? [...p.heads, p.compoundHead] : p.heads) {
			put(`t:${h}`, NOTICE_KEY_WEIGHTS.head);
			put(`d:${h}`, NOTICE_KEY_WEIGHTS.headInDescription);
		}
		if (p.modifier) put(`t:${p.modifier}`, NOTICE_KEY_WEIGHTS.word);
		for (const w of p.nameWords) put(`t:${w}`, NOTICE_KEY_WEIGHTS.word);
		for (const a of p.oemAliases)
			if (/^[a-z]+$/.test(a)) {
				put(`t:${a}`, NOTICE_KEY_WEIGHTS.oem);
				put(`d:${a}`, NOTICE_KEY_WEIGHTS.oem);
			}
		for (const c of p.codes) for (const prefix of indexPrefixes(c)) put(`c:${prefix}`, codeWeight(prefix));
		for (const c of p.concepts) for (const k of [...conceptKeys(c), ...coveredKeys(c)]) put(k, NOTICE_KEY_WEIGHTS.concept);
		// A broad CPV group ("computer equipment") is held by a large share of notices; narrower ones decide.
		const conceptCap = Math.max(200, Math.floor(this.index.size * this.options.maxConceptShare));
		const cap = Math.max(1000, Math.floor(this.index.size * this.options.maxWordShare));
		return this.index
			.gather(probes, {
				limit,
				minScore: this.options.minRetrieval,
				maxList: (key) =>
					key.startsWith("k:") || key.startsWith("u:")
						? conceptCap
						: key.startsWith("t:") || key.startsWith("d:")
							? cap
							: Number.POSITIVE_INFINITY,
			})
			.map((g) => ({ notice: g.doc, retrieval: g.score }));
	}
}
