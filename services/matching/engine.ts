import type { CompanyProfile } from "../../shared/contract/catalog.ts";
import type { Signals } from "../../shared/contract/opportunities.ts";
import { newVersion, requestJobId } from "../../shared/outbox.ts";
import { QUEUES, removeJobs } from "../../shared/queue.ts";
import { judgeEligibility } from "./eligibility.ts";
import { NoticeIndex } from "./method/notice-index.ts";
import { ProductIndex } from "./method/product-index.ts";
import { scorePair } from "./method/score-pair.ts";
import { scoreNoticeForTenant } from "./method/score-tenant.ts";
import type { NoticeView, ProductView, TenantNoticeScore } from "./method/types.ts";
import type { Model } from "mongoose";
import type { IndexedNotice, MatchingModels, ResultDoc } from "./models.ts";
import { activeRules, applyRules, viewFeatureIds, type ActiveRule } from "./rules/apply.ts";
import { explainSignals } from "./signals/extract.ts";
import type { ProductIndexView } from "../../shared/contract/internal/catalog-actions.ts";
import type { MatchResult } from "../../shared/contract/internal/opportunities-actions.ts";
import { noticeView, productView, signalsInput } from "./views.ts";
import { callInternal, type Caller } from "../../shared/actions.ts";
import { sha256 } from "../../shared/hash.ts";
import type { Claims } from "../../shared/claims.ts";

// Staged matching as the service runs it. Stage 1 retrieves candidates from in-memory
// inverted indexes (never every product against every notice); stage 2 scores a company's
// candidate products against a notice. The indexes are rebuilt from this service's own
// collections and caught up incrementally before each job, so every worker process sees what
// any other indexed. Results go to the opportunities service, keyed by (company, notice).
// A company's active learned rules apply last, each time it is scored (rules/apply.ts).

/** Below this a match is not worth an opportunity record (the digest's own default is 60). */
export const RECORD_MIN_SCORE = 30;
/** A company barred from bidding (set-aside not held, restricted competition) keeps the match, scored down so that even a perfect match stays under the default digest threshold (60). */
export const BARRED_FACTOR = 0.5;
const SYNC_OVERLAP_MS = 5_000;
const RESCORE_BATCH = 200;
/** Products a bulk-lane job takes from its company's indexing backlog. */
const BACKLOG_BATCH = 100;
/** Backlog views read per job: enough for a full batch while another worker holds the first ones. */
const BACKLOG_READ = 3 * BACKLOG_BATCH;

export class MatchingEngine {
	/** One product index per company: a notice is matched company by company, as workers shard them. */
	private products = new Map<string, ProductIndex>();
	private notices = new NoticeIndex();
	private productSeq = 0;
	private noticeSeq = 0;
	/** The seq each document had when this process took it in: the overlap window re-reads only changes. */
	private seenProducts = new Map<string, number>();
	private seenNotices = new Map<string, number>();
	/** Per company, the largest seq a read of its products alone took in (sync with a tenantId). */
	private tenantSeq = new Map<string, number>();

	constructor(
		private readonly m: MatchingModels,
		private readonly call: Caller,
		/** Leases on backlog products, so that concurrent workers take different batches. */
		private readonly claims: Claims,
	) {}

	/**
	 * Catches the in-memory indexes up with what any process stored since the last sync: the
	 * notices, and every company's products, or with `tenantId` that company's only. A job about
	 * one company's products (its saves, a rule switched) scores it against notices and needs no
	 * other company's products; reading every company's recent changes there made each product
	 * save re-read every product saved in the last seconds (issue 17).
	 */
	async sync(tenantId?: string): Promise<void> {
		// What the last full read took is current for every company, this company's own reads since for it.
		const one = tenantId !== undefined && this.productSeq > 0 ? tenantId : undefined;
		const since = one === undefined ? this.productSeq : Math.max(this.productSeq, this.tenantSeq.get(one) ?? 0);
		const products = await this.changedSince(this.m.products, one === undefined ? {} : { tenant_id: one }, since, this.seenProducts);
		for (const p of products) this.takeProduct(p);
		const reached = products.reduce((max, p) => Math.max(max, p.seq), since);
		if (one === undefined) this.productSeq = reached;
		else this.tenantSeq.set(one, reached);
		const notices = await this.changedSince(this.m.notices, {}, this.noticeSeq, this.seenNotices);
		for (const n of notices) {
			if (n.open) {
				this.notices.upsert(n.view as NoticeView);
			} else {
				this.notices.remove(n._id);
			}
			this.noticeSeq = Math.max(this.noticeSeq, n.seq);
			this.seenNotices.set(n._id, n.seq);
		}
	}

	private takeProduct(p: { _id: string; tenant_id: string; matchable: boolean; view: unknown; seq: number }): void {
		let index = this.products.get(p.tenant_id);
		if (!index) this.products.set(p.tenant_id, (index = new ProductIndex()));
		if (p.matchable) index.upsert(p.view as ProductView);
		else index.remove(p._id);
		this.seenProducts.set(p._id, p.seq);
	}

	/**
	 * Documents stored since `seq`, less an overlap (another process may store a smaller seq
	 * after this one read a larger): ids and seqs first, then only the documents not yet taken
	 * in at that seq, so a batch that shares one seq is not read again on every sync.
	 */
	private async changedSince<T extends { _id: string; seq: number }>(
		model: Model<T>,
		scope: Record<string, string>,
		seq: number,
		seen: ReadonlyMap<string, number>,
	): Promise<T[]> {
		if (seq === 0) return model.find(scope).sort({ seq: 1 }).lean<T[]>(); // the first sync takes everything
		const recent = await model.find({ ...scope, seq: { $gte: seq - SYNC_OVERLAP_MS } }, { seq: 1 }).lean<T[]>();
		const fresh = recent.filter((d) => seen.get(d._id) !== d.seq).map((d) => d._id);
		if (fresh.length === 0) return [];
		return (await model.find({ _id: { $in: fresh } }).lean<T[]>()).sort((a, b) => a.seq - b.seq);
	}

	/**
	 * A product was created or changed: re-match its company against the notices it may concern.
	 * With `withBacklog` (a job from the bulk lane: an import, a fanout) the job also takes a
	 * batch of the company's other products still waiting for indexing, so each affected notice is
	 * scored once for the whole batch; their own jobs are then removed from the queue (one already
	 * running elsewhere finds its product matched and only confirms).
	 */
	async onProduct(
		tenantId: string,
		productId: string,
		version: string,
		withBacklog = false,
	): Promise<{ notices: number; products: number }> {
		const stored = await this.m.products.findById(productId, { matched: 1 }).lean();
		if (stored?.matched && stored.matched >= version) {
			await callInternal(this.call, "catalog.markIndexed", { productId, version: stored.matched });
			return { notices: 0, products: 0 };
		}
		let views: ProductIndexView[];
		try {
			views = [await callInternal(this.call, "catalog.indexView", { productId, tenantId })];
		} catch (e) {
			if ((e as { type?: string }).type === "not_found") return { notices: 0, products: 0 };
			throw e;
		}
		const claimed = withBacklog ? await this.claimBacklog(tenantId, productId) : [];
		views.push(...claimed);
		try {
			const done = await this.matchProducts(tenantId, views);
			// Their own jobs would only find them done: spare each a run.
			await removeJobs(
				QUEUES.productIndex,
				claimed.map((v) => requestJobId(v.productId, v.version)),
			);
			return done;
		} finally {
			await this.claims.release(claimed.map(claimKey));
		}
	}

	/**
	 * Up to a batch of the company's other products waiting for indexing, leased to this worker:
	 * another worker reading the same backlog at the same moment leases the next ones.
	 */
	private async claimBacklog(tenantId: string, productId: string): Promise<ProductIndexView[]> {
		const { items } = await callInternal(this.call, "catalog.pendingIndexViews", { tenantId, limit: BACKLOG_READ });
		const others = items.filter((v) => v.productId !== productId);
		// Only as many as a batch needs, in order: a worker holding more would leave the other none.
		const claimed: ProductIndexView[] = [];
		for (let from = 0; claimed.length < BACKLOG_BATCH && from < others.length; ) {
			const next = others.slice(from, from + BACKLOG_BATCH - claimed.length);
			from += next.length;
			const ours = await this.claims.claim(next.map(claimKey));
			claimed.push(...next.filter((_, i) => ours[i]));
		}
		return claimed;
	}

	/** Stores the products' views, re-scores the notices they may concern, and marks them matched and indexed. */
	private async matchProducts(tenantId: string, views: ProductIndexView[]): Promise<{ notices: number; products: number }> {
		const seq = Date.now();
		const batch = views.map((v) => ({ v, view: productView(v) }));
		await this.m.products.bulkWrite(
			batch.map(({ v, view }) => ({
				updateOne: {
					filter: { _id: v.productId },
					update: { $set: { tenant_id: tenantId, version: v.version, view, matchable: v.matchable, seq } },
					upsert: true,
				},
			})),
		);
		await this.sync(tenantId);
		// Stage 2 of each product alone decides where its company needs re-scoring: notices where
		// it can count, and those whose result it was part of.
		const affected = new Set<string>();
		for (const { v, view } of batch) {
			if (!v.matchable) continue;
			for (const c of this.notices.candidatesForProduct(view))
				if (scorePair(view, c.notice).score >= RECORD_MIN_SCORE) affected.add(c.notice.noticeId);
		}
		const ids = batch.map(({ v }) => v.productId);
		for (const r of await this.m.results.find({ tenant_id: tenantId, product_ids: { $in: ids } }, { notice_id: 1 }).lean())
			affected.add(r.notice_id);
		const profile = await this.profile(tenantId);
		const rules = await activeRules(this.m, tenantId);
		const noticeIds = [...affected];
		for (let i = 0; i < noticeIds.length; i += RESCORE_BATCH) {
			const chunk = noticeIds.slice(i, i + RESCORE_BATCH);
			const [notices, previous] = await Promise.all([
				this.m.notices.find({ _id: { $in: chunk } }).lean<IndexedNotice[]>(),
				this.previousResults(chunk.map((n) => resultId(tenantId, n))),
			]);
			for (const n of notices) {
				await this.rescore(
					tenantId,
					n.view as NoticeView,
					(n.signals as Signals) ?? null,
					profile,
					n.open,
					rules,
					previous.get(resultId(tenantId, n._id)) ?? null,
				);
			}
		}
		// Matched only now: a crash before this line leaves the products to their own jobs.
		await this.m.products.bulkWrite(
			batch.map(({ v }) => ({ updateOne: { filter: { _id: v.productId, version: v.version }, update: { $set: { matched: v.version } } } })),
		);
		await callInternal(this.call, "catalog.markManyIndexed", {
			items: batch.map(({ v }) => ({ productId: v.productId, version: v.version })),
		});
		return { notices: affected.size, products: batch.length };
	}

	/** A notice was created or amended: match it against every company whose products it may concern. */
	async onNotice(noticeId: string): Promise<{ tenants: number }> {
		const n = await callInternal(this.call, "opportunities.noticeForMatching", { id: noticeId });
		const { signals, explanation } = explainSignals(signalsInput(n));
		const view = noticeView(n, signals, explanation.bid_eligibility.rule);
		const open = n.source_status === "open";
		const seq = Date.now();
		await this.m.notices.updateOne(
			{ _id: noticeId },
			{ $set: { version: n.version ?? "none", open, view, signals, seq } },
			{ upsert: true },
		);
		await this.sync();
		const tenants = new Set<string>();
		if (open) for (const [tenantId, index] of this.products) if (index.candidatesForNotice(view).length) tenants.add(tenantId);
		const previous = new Map((await this.m.results.find({ notice_id: noticeId }).lean<ResultDoc[]>()).map((r) => [r.tenant_id, r]));
		for (const tenantId of previous.keys()) tenants.add(tenantId);
		for (const tenantId of tenants)
			await this.rescore(
				tenantId,
				view,
				signals,
				await this.profile(tenantId),
				open,
				await activeRules(this.m, tenantId),
				previous.get(tenantId) ?? null,
			);
		if (n.version) await callInternal(this.call, "opportunities.markNoticeMatched", { id: noticeId, version: n.version });
		return { tenants: tenants.size };
	}

	/**
	 * Scores a company's opportunities again with its current products and rules: all of them, or
	 * those whose notice has the given feature (a rule switched on or off). Idempotent: the same
	 * products and rules give the same scores.
	 */
	async rescoreTenant(tenantId: string, feature?: string): Promise<{ rescored: number }> {
		await this.sync(tenantId);
		const profile = await this.profile(tenantId);
		const rules = await activeRules(this.m, tenantId);
		let after = "";
		let rescored = 0;
		for (;;) {
			const batch = await this.m.results
				.find({ tenant_id: tenantId, _id: { $gt: after } }, { notice_id: 1 })
				.sort({ _id: 1 })
				.limit(RESCORE_BATCH)
				.lean();
			if (batch.length === 0) break;
			after = batch.at(-1)!._id;
			const [notices, previous] = await Promise.all([
				this.m.notices.find({ _id: { $in: batch.map((r) => r.notice_id) } }).lean<IndexedNotice[]>(),
				this.previousResults(batch.map((r) => r._id)),
			]);
			for (const stored of notices) {
				const view = stored.view as NoticeView;
				const signals = (stored.signals as Signals) ?? null;
				if (feature && !viewFeatureIds(view, signals).has(feature)) continue;
				await this.rescore(tenantId, view, signals, profile, stored.open, rules, previous.get(resultId(tenantId, stored._id)) ?? null);
				rescored++;
			}
		}
		return { rescored };
	}

	private async profile(tenantId: string): Promise<CompanyProfile | null> {
		try {
			return await callInternal(this.call, "catalog.profileFor", { tenantId });
		} catch {
			return null; // eligibility is judged without it rather than not at all
		}
	}

	private async previousResults(ids: string[]): Promise<Map<string, ResultDoc>> {
		return new Map((await this.m.results.find({ _id: { $in: ids } }).lean<ResultDoc[]>()).map((r) => [r._id, r]));
	}

	/**
	 * One company against one notice: its candidate products scored, the result written. Only a
	 * changed result is sent and stored (a replayed job, or a new product that moves nothing,
	 * writes nothing), which keeps bulk imports from rewriting every opportunity they touch.
	 */
	private async rescore(
		tenantId: string,
		notice: NoticeView,
		signals: Signals | null,
		profile: CompanyProfile | null,
		open: boolean,
		rules: readonly ActiveRule[],
		previous: ResultDoc | null,
	): Promise<void> {
		const candidates = open
			? (this.products
					.get(tenantId)
					?.candidatesForNotice(notice)
					.map((c) => c.product) ?? [])
			: [];
		const scored: TenantNoticeScore = candidates.length
			? scoreNoticeForTenant(candidates, notice)
			: { score: 0, bestProduct: null, rationale: [] };
		const id = resultId(tenantId, notice.noticeId);
		const supported = scored.bestProduct !== null && scored.score >= RECORD_MIN_SCORE;
		if (!supported && !previous) return;
		const best = scored.bestProduct;
		const eligibility = judgeEligibility(signals, profile, best !== null, notice.openCall === true);
		const raw = Math.round(scored.score);
		const eligible = eligibility.barred ? Math.round(raw * BARRED_FACTOR) : raw;
		const eligibilityNotes = eligibility.reasons.map((r, i) => ({
			feature: "eligibility",
			points: i === 0 && eligibility.barred ? eligible - raw : 0,
			detail: r,
		}));
		// Learned rules only move a supported match (an unsupported one keeps its last score).
		const learned =
			supported && rules.length
				? applyRules(eligible, viewFeatureIds(notice, signals), rules)
				: { score: eligible, notes: [], applied: [] };
		const score = learned.score;
		const result: Omit<MatchResult, "matchVersion"> = {
			tenantId,
			noticeId: notice.noticeId,
			supported,
			score: supported ? score : (previous?.score ?? null),
			score_source: learned.applied.length ? "rule" : "matcher",
			product_match: best
				? {
						product_id: best.productId,
						name: best.name,
						model: best.model,
						oem: best.oem,
						matched_terms: best.matchedTerms,
						matched_codes: best.matchedCodes,
					}
				: {},
			product_match_name: best?.name ?? null,
			rationale: [
				...learned.notes,
				...eligibilityNotes.filter((n) => n.points < 0),
				...scored.rationale,
				...eligibilityNotes.filter((n) => n.points === 0),
			].slice(0, 50),
			eligible: eligibility.eligible,
			signals,
			signal_source: signals ? "heuristic" : null,
			extraction_signal_source: "heuristic",
		};
		const recorded = sha256(JSON.stringify(result));
		if (recorded !== previous?.recorded)
			await callInternal(this.call, "opportunities.recordMatch", { ...result, matchVersion: newVersion() });
		const productIds = candidates.map((p) => p.productId);
		if (recorded === previous?.recorded && sameIds(productIds, previous.product_ids)) return;
		await this.m.results.updateOne(
			{ _id: id },
			{
				$set: {
					tenant_id: tenantId,
					notice_id: notice.noticeId,
					score: result.score,
					product_ids: productIds,
					supported,
					recorded,
					updated_at: new Date(),
				},
			},
			{ upsert: true },
		);
	}
}

const resultId = (tenantId: string, noticeId: string) => `${tenantId}|${noticeId}`;
const claimKey = (v: ProductIndexView) => `${v.productId}:${v.version}`;
const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
