// The learned weighting of issue 16 step 9 (services/matching/method/fit.ts): that it reads the scorer's
// rationale back into the scorer's own score, recovers weights it was given, and measures as the offline
// evaluation does.

import { describe, expect, it } from "vitest";
import {
	DIGEST_ODDS,
	type FitRow,
	IDENTITY,
	factorOf,
	figures,
	fitModel,
	logLoss,
	pairFeatures,
	scoreRow,
} from "../../../services/matching/method/fit.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { FACTORS } from "../../../services/matching/method/weights.ts";
import { features, fitRow as row, notice, product } from "./fixtures.ts";

/** A deterministic uniform sequence (LCG), so that the synthetic labels are the same on every run. */
function uniform(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

/** Rows labelled by a known model: points a x1.5, b x0.6, factor c (0.5) squared, one logit per 10 points. */
function synthetic(count: number): FitRow[] {
	const u = uniform(7);
	const rows: FitRow[] = [];
	for (let i = 0; i < count; i++) {
		const a = 60 * u();
		const b = 60 * u();
		const c = u() < 0.3;
		const score = Math.min(100, 1.5 * a + 0.6 * b) * (c ? 0.25 : 1);
		const p = 1 / (1 + Math.exp(-((score - 60) / 10 + Math.log(DIGEST_ODDS))));
		rows.push(
			row({
				noticeId: `n${i}`,
				grade: u() < p ? 2 : 0,
				products: [{ points: { a, b }, factors: c ? { c: 0.5 } : {} }],
			}),
		);
	}
	return rows;
}

describe("learned weighting", () => {
	it("recovers the multipliers, the factor's power and the slope that labelled the data", () => {
		const rows = synthetic(3000);
		const m = fitModel(rows, { lambda: 0.01 });
		// Each fitted weight within 10% of the one that labelled the data (3,000 noisy labels; the fit lands within 5%).
		const found: [number | undefined, number][] = [
			[m.points.a, 1.5],
			[m.points.b, 0.6],
			[m.factorPowers.c, 2],
			[m.slope, 1],
		];
		for (const [fitted, truth] of found) expect(Math.abs((fitted ?? 0) / truth - 1)).toBeLessThan(0.1);
		expect(logLoss(rows, m)).toBeLessThan(logLoss(rows, IDENTITY));
	});

	it("keeps the hand-set weights when the pull towards them is strong, and a factor never becomes a bonus", () => {
		const rows = synthetic(400);
		const pulled = fitModel(rows, { lambda: 1e6 });
		expect(pulled.points.a).toBeCloseTo(1, 1);
		expect(pulled.factorPowers.c).toBeCloseTo(1, 1);
		// Labels that reward the factor: the power stops at 0 (factor 1), it does not turn negative.
		const inverted = rows.map((r) => ({ ...r, grade: r.products[0]?.factors.c ? 2 : 0 }));
		expect(fitModel(inverted, { lambda: 0.01, steps: 800 }).factorPowers.c).toBeGreaterThanOrEqual(0);
	});

	it("reads a pair's rationale back into the scorer's own score: points add up, factors scale", () => {
		const ours = product();
		const services = notice({
			title: "Maintenance Services for Norvik Access Switches (Labor Only)",
			description: "The contractor shall maintain the existing Norvik Stratus 7400 access switches.",
			items: [{ description: "Switch maintenance and repair services", quantity: 12, unit: "month" }],
		});
		for (const n of [notice(), services, notice({ title: "Sources Sought - PoE+ Access Switches" })]) {
			const pair = scorePair(ours, n);
			expect(scoreRow(row({ products: [pairFeatures(pair.rationale)] }), IDENTITY)).toBe(pair.score);
		}
		const scaled = pairFeatures(scorePair(ours, services).rationale);
		expect(features(scorePair(ours, services))).toContain("services_not_goods");
		expect(scaled.factors.services_not_goods).toBe(FACTORS.services);
		expect(factorOf({ feature: "product_type_overlap", points: 40, detail: "" })).toBeNull();
	});

	it("applies the company level and the engine's steps as the evaluation does", () => {
		const pair = { points: { product_type_overlap: 50 }, factors: {} };
		expect(scoreRow(row({ products: [pair], breadth: 6 }), IDENTITY)).toBe(56);
		expect(scoreRow(row({ products: [pair], companyFactors: { all_or_none_main_item_missing: 0.5 } }), IDENTITY)).toBe(25);
		expect(scoreRow(row({ products: [pair], barredFactor: 0.5 }), IDENTITY)).toBe(25);
		expect(scoreRow(row({ products: [pair], recordMin: 60 }), IDENTITY)).toBe(0);
		expect(scoreRow(row({ products: [pair] }), { ...IDENTITY, points: { product_type_overlap: 3 } })).toBe(100);
	});

	it("measures digest F1 at the line, MAP over the recorded notices, and grade-0 items", () => {
		const at = (noticeId: string, grade: number, points: number) =>
			row({ noticeId, grade, products: [{ points: { x: points }, factors: {} }] });
		// Ranking r1 (2), r2 (0), r3 (2, under the line), r4 (2, unrecorded: score 0).
		const rows = [at("r1", 2, 90), at("r2", 0, 70), at("r3", 2, 40), at("r4", 2, 0)];
		const f = figures(rows, IDENTITY);
		expect(f.digest).toBe(2);
		expect(f.grade0).toBe(1);
		expect(f.precision).toBeCloseTo(0.5);
		expect(f.recall).toBeCloseTo(1 / 3);
		expect(f.map).toBeCloseTo((1 + 2 / 3) / 3);
	});
});
