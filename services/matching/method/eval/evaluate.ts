import { Bm25 } from "../bm25.ts";
import { ProductIndex } from "../product-index.ts";
import { scoreNoticeForTenant } from "../score-tenant.ts";
import type { TenantNoticeScore } from "../types.ts";
import { DIGEST_MIN_SCORE } from "../weights.ts";
import type { DevSet } from "./dev-set.ts";
import { averagePrecision, bestThresholdF1, type Counts, counts, f1, ndcgAt, rankByScore } from "./metrics.ts";

// Runs stage 1 + stage 2 and the BM25 baseline over the labeled dev set and measures both the
// way a user meets them: what reaches the digest (F1 against grade >= 2, traps let through) and
// how the ranking orders notices (MAP, nDCG@10). Cancelled notices never reach a digest and
// count as grade 0.

export interface RankingFigures {
	map: number;
	ndcg10: number;
}

export interface CompanyFigures extends RankingFigures {
	tenantId: string;
	relevant: number;
	digest: Counts & { precision: number; recall: number; f1: number };
	/** Grade-0 rows (deliberate traps) that reached the digest. */
	traps: string[];
	/** Grade-1 rows that reached the digest (weak matches, counted as false positives). */
	weak: string[];
	/** Relevant notices left out of the digest. */
	missed: string[];
	bm25: RankingFigures & { f1AllMatches: number; matches: number };
}

export interface Evaluation {
	digestMinScore: number;
	companies: CompanyFigures[];
	overall: {
		digest: Counts & { precision: number; recall: number; f1: number };
		traps: number;
		map: number;
		ndcg10: number;
		bm25: { f1AllMatches: number; bestF1: number; bestThreshold: number; map: number; ndcg10: number };
	};
	/** tenant -> notice -> result, for reports and tests. */
	results: Map<string, Map<string, TenantNoticeScore>>;
	timing: { indexMs: number; scoreMs: number; candidates: number };
	/** Stage 1: grade >= 2 (company, notice) pairs where a relevant product was among the candidates. */
	stage1: { relevantPairs: number; retrieved: number };
}

const key = (tenant: string, notice: string) => `${tenant}\u0000${notice}`;

/**
 * What the service does with a company's score before a person sees it, beyond the method (the
 * engine's eligibility judgement, its record threshold): `--as-api` in eval-matching-offline.ts
 * passes the engine's own steps, so that offline figures are the API's.
 */
export type AfterScoring = (tenantId: string, noticeId: string, scored: TenantNoticeScore) => TenantNoticeScore;

export function evaluate(set: DevSet, digestMinScore = DIGEST_MIN_SCORE, after?: AfterScoring): Evaluation {
	const cancelled = new Set(set.notices.filter((n) => n.cancelled).map((n) => n.view.noticeId));
	const grade = new Map<string, number>();
	for (const q of set.qrels) grade.set(key(q.tenantId, q.noticeId), q.cancelled || cancelled.has(q.noticeId) ? 0 : q.grade);

	// Stage 1 indexes: one per company, as the matching workers shard them.
	const t0 = performance.now();
	const indexes = new Map<string, ProductIndex>();
	for (const t of set.tenants) {
		const idx = new ProductIndex();
		for (const p of t.products) idx.upsert(p);
		indexes.set(t.tenantId, idx);
	}
	const indexMs = performance.now() - t0;

	const results = new Map<string, Map<string, TenantNoticeScore>>();
	let candidates = 0;
	const t1 = performance.now();
	const grades = new Map(set.qrels.map((q) => [key(q.tenantId, q.noticeId), q.grade]));
	const stage1 = { relevantPairs: 0, retrieved: 0 };
	for (const t of set.tenants) {
		const idx = indexes.get(t.tenantId);
		const perNotice = new Map<string, TenantNoticeScore>();
		for (const n of set.notices) {
			if (n.cancelled || !idx) {
				perNotice.set(n.view.noticeId, {
					score: 0,
					bestProduct: null,
					rationale: [{ feature: "cancelled", points: 0, detail: "tender cancelled" }],
				});
				continue;
			}
			const found = idx.candidatesForNotice(n.view);
			candidates += found.length;
			if ((grades.get(key(t.tenantId, n.view.noticeId)) ?? 0) >= 2) {
				stage1.relevantPairs++;
				if (found.length > 0) stage1.retrieved++;
			}
			const scored = scoreNoticeForTenant(
				found.map((c) => c.product),
				n.view,
			);
			perNotice.set(n.view.noticeId, after ? after(t.tenantId, n.view.noticeId, scored) : scored);
		}
		results.set(t.tenantId, perNotice);
	}
	const scoreMs = performance.now() - t1;

	const bm25 = new Bm25(
		set.notices.map((n) => ({
			id: n.view.noticeId,
			text: [n.view.title, n.view.description, ...n.view.items.map((i) => i.description)].join("\n"),
		})),
	);

	const companies: CompanyFigures[] = [];
	const pooled: Counts = { tp: 0, fp: 0, fn: 0 };
	const pooledBm25All: Counts = { tp: 0, fp: 0, fn: 0 };
	const pooledBm25Scores = new Map<string, number>();
	const pooledRelevant = new Set<string>();
	let traps = 0;
	for (const t of set.tenants) {
		const perNotice = results.get(t.tenantId) ?? new Map<string, TenantNoticeScore>();
		const ids = set.notices.map((n) => n.view.noticeId);
		const gradeOf = (id: string) => grade.get(key(t.tenantId, id)) ?? 0;
		const relevant = new Set(ids.filter((id) => gradeOf(id) >= 2));
		const grades = new Map(ids.map((id) => [id, gradeOf(id)]));
		const scores = new Map(ids.map((id) => [id, perNotice.get(id)?.score ?? 0]));
		const digest = new Set(ids.filter((id) => !cancelled.has(id) && (scores.get(id) ?? 0) >= digestMinScore));
		const c = counts(digest, relevant);
		pooled.tp += c.tp;
		pooled.fp += c.fp;
		pooled.fn += c.fn;
		const trapIds = set.qrels.filter((q) => q.tenantId === t.tenantId && q.grade === 0 && digest.has(q.noticeId)).map((q) => q.noticeId);
		traps += trapIds.length;
		// As the API: a notice the service keeps no record of is in no list, so it ranks nowhere.
		const ranking = rankByScore(after ? new Map([...scores].filter(([, s]) => s > 0)) : scores);

		// Baseline: every product name as a saved search; the company's score is its best query's.
		const bmScores = new Map<string, number>(ids.map((id) => [id, 0]));
		for (const p of t.products)
			for (const [id, s] of bm25.search(p.name)) if (!cancelled.has(id) && s > (bmScores.get(id) ?? 0)) bmScores.set(id, s);
		const matches = new Set(ids.filter((id) => (bmScores.get(id) ?? 0) > 0));
		const bc = counts(matches, relevant);
		pooledBm25All.tp += bc.tp;
		pooledBm25All.fp += bc.fp;
		pooledBm25All.fn += bc.fn;
		for (const [id, s] of bmScores) pooledBm25Scores.set(key(t.tenantId, id), s);
		for (const id of relevant) pooledRelevant.add(key(t.tenantId, id));
		const bmRanking = rankByScore(bmScores);

		companies.push({
			tenantId: t.tenantId,
			relevant: relevant.size,
			digest: { ...c, ...f1(c) },
			traps: trapIds,
			weak: [...digest].filter((id) => gradeOf(id) === 1),
			missed: [...relevant].filter((id) => !digest.has(id)),
			map: averagePrecision(ranking, relevant),
			ndcg10: ndcgAt(ranking, grades, 10),
			bm25: {
				f1AllMatches: f1(bc).f1,
				matches: matches.size,
				map: averagePrecision(bmRanking, relevant),
				ndcg10: ndcgAt(bmRanking, grades, 10),
			},
		});
	}
	const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
	const best = bestThresholdF1(pooledBm25Scores, pooledRelevant);
	return {
		digestMinScore,
		companies,
		overall: {
			digest: { ...pooled, ...f1(pooled) },
			traps,
			map: mean(companies.map((c) => c.map)),
			ndcg10: mean(companies.map((c) => c.ndcg10)),
			bm25: {
				f1AllMatches: f1(pooledBm25All).f1,
				bestF1: best.f1,
				bestThreshold: best.threshold,
				map: mean(companies.map((c) => c.bm25.map)),
				ndcg10: mean(companies.map((c) => c.bm25.ndcg10)),
			},
		},
		results,
		stage1,
		timing: { indexMs, scoreMs, candidates },
	};
}
