// A learned weighting of the scorer's own features (issue 16 step 9), kept in the scorer's form so that
// the rationale still reads as points: each additive feature's points times a fitted multiplier, each
// factor raised to a fitted power, summed, capped at 100 and scaled as stage 2 does, the company's best
// product carrying the score. The fit is a logistic regression of "grade 2" on that score,
// p = sigmoid(slope * (score - 60) / 10 + bias), with the bias fixed so that 60, the digest line, is where
// a digest item pays off (see DIGEST_ODDS), and an L2 pull of every weight towards its hand-set value
// (log multiplier 0, power 1), so that a feature the data says little about keeps what it had.
// Pure: the script (scripts/fit-matching.ts) reads the set and scores it; this module reads the rationale
// as features, fits, and measures. The scorer does not read any fit (the fold check has not passed, README).

import { averagePrecision, counts, f1, rankByScore } from "./eval/metrics.ts";
import type { RationaleEntry } from "./types.ts";
import { FACTORS } from "./weights.ts";

/** One candidate product's features under the hand-set weights: rationale points and the factors applied. */
export interface PairFeatures {
	points: Record<string, number>;
	factors: Record<string, number>;
	/**
	 * Evidence the scorer does not weigh (evidence.ts), each in 0..1: a model scales the pair's score by
	 * exp(sum of weight x value), every weight 0 under the hand-set scorer and pulled towards 0 by the fit.
	 */
	evidence?: Record<string, number>;
}

/** The factor each scaling feature applied under the hand-set weights (the rationale gives its effect, not its factor). */
export function factorOf(e: RationaleEntry): number | null {
	switch (e.feature) {
		case "services_not_goods":
			return FACTORS.services;
		case "construction_not_goods":
			return FACTORS.construction;
		case "service_line_only":
			return FACTORS.serviceLine;
		case "brand_only_other_brand":
			return e.detail.includes("invite equals") ? FACTORS.brandOnlyOtherWithEquals : FACTORS.brandOnlyOther;
		case "market_research":
			return FACTORS.marketResearch;
		case "refurbished_only":
			return FACTORS.refurbishedOnly;
		case "other_goods_variant":
			return FACTORS.otherGoodsQualifier;
		case "other_kind_variant":
		case "homonym_kind":
			return FACTORS.otherKindVariant;
		case "not_on_the_list":
			return FACTORS.unlistedKind;
		case "parts_not_goods":
			return FACTORS.partsOnly;
		case "words_name_other_kind":
			return FACTORS.wordsNameOtherKind;
		case "stray_code":
			return FACTORS.strayCode;
		case "other_trade":
			return FACTORS.otherTrade;
		case "rejected_kind":
			return FACTORS.excludedKind;
		case "all_or_none_main_item_missing":
			return FACTORS.allOrNoneUncovered;
		default:
			return null;
	}
}

/** A pair's rationale as features; `key` may name a feature more finely (by where it was read). */
export function pairFeatures(rationale: readonly RationaleEntry[], key: (e: RationaleEntry) => string = (e) => e.feature): PairFeatures {
	const f: PairFeatures = { points: {}, factors: {} };
	for (const e of rationale) {
		const factor = factorOf(e);
		const k = key(e);
		if (factor !== null) f.factors[k] = (f.factors[k] ?? 1) * factor;
		else f.points[k] = (f.points[k] ?? 0) + e.points;
	}
	return f;
}

/** One (company, notice) pair of a labeled set. */
export interface FitRow {
	tenantId: string;
	noticeId: string;
	grade: number;
	/** The stage-1 candidates' features (empty: nothing retrieved, score 0). */
	products: PairFeatures[];
	/** Company level, held as the hand-set scorer computed them: points for further lines and kinds ... */
	breadth: number;
	/** ... and the company's factors (all-or-none). */
	companyFactors: Record<string, number>;
	/** The engine halves a barred company's score (eligibility), after the method. */
	barredFactor: number;
	/** The engine keeps no record under this score (0: no such step). */
	recordMin: number;
}

export interface FitModel {
	points: Record<string, number>;
	factorPowers: Record<string, number>;
	/** Logit per 10 points around the digest line. */
	slope: number;
	/** Weights of the pairs' evidence (absent: 0, the hand-set scorer's). */
	evidence?: Record<string, number>;
}

/**
 * Odds that a pair at the digest line is a digest item, fixed rather than fitted: the threshold that maximises
 * F1 on calibrated probabilities is at p = F1 / 2 (Lipton et al. 2014); at the F1 of about 0.75 sought, p = 0.375.
 */
export const DIGEST_ODDS = 0.375 / 0.625;
const BIAS = Math.log(DIGEST_ODDS);
const LINE = 60;
/** Width (points) of the smooth cap at 100 used while fitting. */
const CAP_SOFTNESS = 4;

export const IDENTITY: FitModel = { points: {}, factorPowers: {}, slope: 1 };

const softplus = (x: number) => (x > 30 ? x : Math.log1p(Math.exp(x)));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const round1 = (x: number) => Math.round(x * 10) / 10;
const clamp = (x: number) => Math.max(0, Math.min(100, x));
/** The scale a model's evidence weights put on a pair (1 without any). */
const evidenceScale = (p: PairFeatures, m: FitModel) => {
	if (!m.evidence || !p.evidence) return 1;
	let z = 0;
	for (const [f, x] of Object.entries(p.evidence)) z += (m.evidence[f] ?? 0) * x;
	return Math.exp(z);
};

/** The company's score for a row under a model, as the scorer and the engine compute it (rounded as they round). */
export function scoreRow(row: FitRow, m: FitModel): number {
	let best = 0;
	for (const p of row.products) {
		let s = 0;
		for (const [f, x] of Object.entries(p.points)) s += round1(x * (m.points[f] ?? 1));
		s = clamp(s);
		for (const [f, v] of Object.entries(p.factors)) s *= v ** (m.factorPowers[f] ?? 1);
		s *= evidenceScale(p, m);
		best = Math.max(best, Math.round(clamp(s)));
	}
	if (best === 0) return 0;
	let s = Math.min(100, best + row.breadth);
	for (const [f, v] of Object.entries(row.companyFactors)) s *= v ** (m.factorPowers[f] ?? 1);
	const raw = Math.round(clamp(s));
	if (raw < row.recordMin) return 0;
	return Math.round(raw * row.barredFactor);
}

/** The features a set of rows uses: additive ones and scaling ones (each with how many rows they appear in). */
export function featureNames(rows: readonly FitRow[]): {
	points: Map<string, number>;
	factors: Map<string, number>;
	evidence: Map<string, number>;
} {
	const points = new Map<string, number>();
	const factors = new Map<string, number>();
	const evidence = new Map<string, number>();
	for (const r of rows) {
		const seenP = new Set<string>();
		const seenF = new Set<string>(Object.keys(r.companyFactors));
		const seenE = new Set<string>();
		for (const p of r.products) {
			for (const f of Object.keys(p.points)) seenP.add(f);
			for (const f of Object.keys(p.factors)) seenF.add(f);
			for (const [f, x] of Object.entries(p.evidence ?? {})) if (x !== 0) seenE.add(f);
		}
		for (const f of seenP) points.set(f, (points.get(f) ?? 0) + 1);
		for (const f of seenF) factors.set(f, (factors.get(f) ?? 0) + 1);
		for (const f of seenE) evidence.set(f, (evidence.get(f) ?? 0) + 1);
	}
	return { points, factors, evidence };
}

export interface FitOptions {
	/** L2 pull towards the hand-set weights (on log multipliers and powers - 1), summed over the weights. */
	lambda: number;
	steps?: number;
	learningRate?: number;
	/** Features seen in fewer rows than this keep their hand-set weight. */
	minRows?: number;
	/** Keep the scorer's own weights as they are and fit only the evidence weights (and the slope). */
	evidenceOnly?: boolean;
}

/** Log loss of the rows under a model, with the smooth cap (what the fit minimises, without the pull). */
export function logLoss(rows: readonly FitRow[], m: FitModel): number {
	let loss = 0;
	for (const r of rows) {
		const z = m.slope * ((smoothScore(r, m, null) - LINE) / 10) + BIAS;
		loss += softplus(z) - (r.grade >= 2 ? z : 0);
	}
	return loss / Math.max(1, rows.length);
}

/** Gradients of the loss by log multiplier and by power (the slope enters only the logit, fitModel handles it). */
interface Grad {
	points: Map<string, number>;
	powers: Map<string, number>;
	evidence: Map<string, number>;
}

/**
 * The company's score for a row with a smooth cap (for gradients), and, when `g` is given, adds
 * `dLoss/dScore * dScore/dWeight` to it (log multipliers; powers). Returns the score.
 */
function smoothScore(r: FitRow, m: FitModel, g: { grad: Grad; dS: number } | null): number {
	let best = -1;
	let bestIdx = -1;
	let bestParts: { capped: number; dCap: number; scale: number } | null = null;
	r.products.forEach((p, i) => {
		let t = 0;
		for (const [f, x] of Object.entries(p.points)) t += x * (m.points[f] ?? 1);
		const over = (t - 100) / CAP_SOFTNESS;
		const capped = t <= 0 ? 0 : t - CAP_SOFTNESS * softplus(over);
		const dCap = t <= 0 ? 0 : 1 - sigmoid(over);
		let scale = evidenceScale(p, m);
		for (const [f, v] of Object.entries(p.factors)) scale *= v ** (m.factorPowers[f] ?? 1);
		const s = Math.max(0, capped) * scale;
		if (s > best) {
			best = s;
			bestIdx = i;
			bestParts = { capped: Math.max(0, capped), dCap: capped > 0 ? dCap : 0, scale };
		}
	});
	if (bestIdx < 0 || best <= 0 || !bestParts) return 0;
	const parts: { capped: number; dCap: number; scale: number } = bestParts;
	const withBreadth = best + r.breadth;
	const open = withBreadth < 100 ? 1 : 0;
	let s = Math.min(100, withBreadth);
	let company = 1;
	for (const [f, v] of Object.entries(r.companyFactors)) company *= v ** (m.factorPowers[f] ?? 1);
	s *= company * r.barredFactor;
	if (g) {
		const p = r.products[bestIdx];
		if (!p) return s;
		const dBest = g.dS * open * company * r.barredFactor;
		for (const [f, x] of Object.entries(p.points)) {
			const mult = m.points[f] ?? 1;
			g.grad.points.set(f, (g.grad.points.get(f) ?? 0) + dBest * parts.scale * parts.dCap * x * mult);
		}
		for (const [f, v] of Object.entries(p.factors))
			g.grad.powers.set(f, (g.grad.powers.get(f) ?? 0) + dBest * parts.capped * parts.scale * Math.log(v));
		for (const [f, x] of Object.entries(p.evidence ?? {}))
			g.grad.evidence.set(f, (g.grad.evidence.get(f) ?? 0) + dBest * parts.capped * parts.scale * x);
		for (const [f, v] of Object.entries(r.companyFactors)) g.grad.powers.set(f, (g.grad.powers.get(f) ?? 0) + g.dS * s * Math.log(v));
	}
	return s;
}

/**
 * Fits multipliers, powers and the slope by full-batch gradient descent (Adam) from the hand-set weights.
 * Deterministic. Features in fewer than `minRows` rows are left out of the model (hand-set).
 */
export function fitModel(rows: readonly FitRow[], opts: FitOptions): FitModel {
	const steps = opts.steps ?? 1500;
	const lr = opts.learningRate ?? 0.03;
	const names = featureNames(rows);
	const minRows = opts.minRows ?? 3;
	const pNames = [...names.points]
		.filter(([, n]) => n >= minRows)
		.map(([f]) => f)
		.sort();
	const fNames = [...names.factors]
		.filter(([, n]) => n >= minRows)
		.map(([f]) => f)
		.sort();
	const eNames = [...names.evidence]
		.filter(([, n]) => n >= minRows)
		.map(([f]) => f)
		.sort();
	// Parameters: log multipliers, powers, evidence weights, log slope.
	const nP = pNames.length;
	const nF = fNames.length;
	const theta = [...pNames.map(() => 0), ...fNames.map(() => 1), ...eNames.map(() => 0), 0];
	const mom = theta.map(() => 0);
	const vel = theta.map(() => 0);
	const model = (): FitModel => ({
		points: Object.fromEntries(pNames.map((f, i) => [f, Math.exp(theta[i] ?? 0)])),
		factorPowers: Object.fromEntries(fNames.map((f, i) => [f, theta[nP + i] ?? 1])),
		...(eNames.length > 0 ? { evidence: Object.fromEntries(eNames.map((f, i) => [f, theta[nP + nF + i] ?? 0])) } : {}),
		slope: Math.exp(theta.at(-1) ?? 0),
	});
	const n = Math.max(1, rows.length);
	for (let step = 1; step <= steps; step++) {
		const m = model();
		const grad: Grad = { points: new Map(), powers: new Map(), evidence: new Map() };
		let dLogSlope = 0;
		for (const r of rows) {
			const s0 = smoothScore(r, m, null);
			const x = (s0 - LINE) / 10;
			const z = m.slope * x + BIAS;
			const dz = (sigmoid(z) - (r.grade >= 2 ? 1 : 0)) / n;
			dLogSlope += dz * m.slope * x;
			smoothScore(r, m, { grad, dS: (dz * m.slope) / 10 });
		}
		const g = [
			...pNames.map((f, i) => (opts.evidenceOnly ? 0 : (grad.points.get(f) ?? 0) + (2 * opts.lambda * (theta[i] ?? 0)) / n)),
			...fNames.map((f, i) => (opts.evidenceOnly ? 0 : (grad.powers.get(f) ?? 0) + (2 * opts.lambda * ((theta[nP + i] ?? 1) - 1)) / n)),
			...eNames.map((f, i) => (grad.evidence.get(f) ?? 0) + (2 * opts.lambda * (theta[nP + nF + i] ?? 0)) / n),
			dLogSlope,
		];
		for (let i = 0; i < theta.length; i++) {
			const gi = g[i] ?? 0;
			mom[i] = 0.9 * (mom[i] ?? 0) + 0.1 * gi;
			vel[i] = 0.999 * (vel[i] ?? 0) + 0.001 * gi * gi;
			const mh = (mom[i] ?? 0) / (1 - 0.9 ** step);
			const vh = (vel[i] ?? 0) / (1 - 0.999 ** step);
			theta[i] = (theta[i] ?? 0) - (lr * mh) / (Math.sqrt(vh) + 1e-8);
		}
		// A factor stays a factor: a power below 0 would turn a penalty into a bonus.
		for (let i = nP; i < nP + nF; i++) theta[i] = Math.max(0, theta[i] ?? 1);
	}
	return model();
}

export interface FoldFigures {
	f1: number;
	precision: number;
	recall: number;
	map: number;
	digest: number;
	/** Digest items graded 0 (or not graded: grade 0 for that company). */
	grade0: number;
}

/** Digest F1 at the line (pooled over companies), MAP (mean over companies, unrecorded notices unranked), grade-0 items. */
export function figures(rows: readonly FitRow[], m: FitModel, line = LINE): FoldFigures {
	const byTenant = new Map<string, FitRow[]>();
	for (const r of rows) byTenant.set(r.tenantId, [...(byTenant.get(r.tenantId) ?? []), r]);
	const pooled = { tp: 0, fp: 0, fn: 0 };
	const aps: number[] = [];
	let digestSize = 0;
	let grade0 = 0;
	for (const rs of byTenant.values()) {
		const scores = new Map(rs.map((r) => [r.noticeId, scoreRow(r, m)]));
		const relevant = new Set(rs.filter((r) => r.grade >= 2).map((r) => r.noticeId));
		const digest = new Set(rs.filter((r) => (scores.get(r.noticeId) ?? 0) >= line).map((r) => r.noticeId));
		const c = counts(digest, relevant);
		pooled.tp += c.tp;
		pooled.fp += c.fp;
		pooled.fn += c.fn;
		digestSize += digest.size;
		grade0 += rs.filter((r) => r.grade === 0 && digest.has(r.noticeId)).length;
		aps.push(averagePrecision(rankByScore(new Map([...scores].filter(([, s]) => s > 0))), relevant));
	}
	const f = f1(pooled);
	return { ...f, map: aps.reduce((a, b) => a + b, 0) / Math.max(1, aps.length), digest: digestSize, grade0 };
}

/** A model as data (a header saying what wrote it, multipliers, powers), for a scorer to read once a fit passes the fold check. */
export function toWeightsFile(
	m: FitModel,
	about: string,
): {
	about: string;
	points: Record<string, number>;
	factorPowers: Record<string, number>;
	evidence?: Record<string, number>;
	slope: number;
} {
	const r3 = (x: number) => Math.round(x * 1000) / 1000;
	const round = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).map(([f, v]) => [f, r3(v)]));
	return {
		about,
		points: round(m.points),
		factorPowers: round(m.factorPowers),
		...(m.evidence ? { evidence: round(m.evidence) } : {}),
		slope: r3(m.slope),
	};
}
