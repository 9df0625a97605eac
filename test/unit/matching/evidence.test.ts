// Why: the evidence record of issue 16 step 10 (services/matching/method/evidence.ts) is what the weight fit
// learns from beyond the scorer's features; each entry must say what it claims (where the kind agreement was
// read, how deep and broad it is, what the notice's own words say), and reading it must move no score.
// Also the fit's evidence weights (fit.ts): 0 is the hand-set scorer, and a weight the labels call for is found.

import { describe, expect, it } from "vitest";
import { EVIDENCE, pairEvidence } from "../../../services/matching/method/evidence.ts";
import { DIGEST_ODDS, type FitRow, IDENTITY, fitModel, pairFeatures, scoreRow } from "../../../services/matching/method/fit.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { fitRow as row, notice, product } from "./fixtures.ts";

const laptop = () =>
	product({
		name: "Dell Latitude 5440 business laptop",
		model: "Latitude 5440",
		oemName: "Dell",
		description: "14-inch business notebook.",
		commodityCodes: ["43211503"],
		specs: [],
	});

describe("evidence of a pair", () => {
	it("a Norwegian notice coded in CPV for laptops: a full-code agreement of the notice's code and the product's crosswalk", () => {
		const n = notice({
			title: "Rammeavtale IT-utstyr",
			description: "",
			categories: [],
			language: "no",
			items: [{ description: "Bærbare PC-er", quantity: 200, unit: "stk", classification: { scheme: "CPV", code: "30213100" } }],
		});
		const e = pairEvidence(laptop(), n);
		expect(Object.keys(e).sort()).toEqual([...EVIDENCE].sort());
		expect(e.ev_other_language).toBe(1);
		expect(e.ev_notice_code).toBe(1);
		expect(e.ev_notice_crosswalk).toBe(0);
		expect(e.ev_product_code).toBe(1);
		expect(e.ev_class).toBe(1);
		expect(e.ev_category).toBe(1);
		expect(e.ev_code).toBe(1);
		// A full code is not a breadth.
		expect(e.ev_breadth).toBe(0);
		for (const x of Object.values(e)) expect(x >= 0 && x <= 1).toBe(true);
	});

	it("a notice that buys a whole group: containment, its breadth, and words that name the kind or not", () => {
		// A title that names nothing the labels know: the code alone says what is bought.
		const group = notice({
			title: "Supply of equipment",
			description: "",
			language: "en",
			categories: [{ scheme: "CPV", code: "30200000" }],
			items: [],
		});
		const g = pairEvidence(laptop(), group);
		expect(g.ev_contains).toBe(1);
		expect(g.ev_class).toBe(0);
		// "Computer equipment" holds some 130 CPV codes: log2(134) / 9 is about 0.78.
		expect(g.ev_breadth).toBeGreaterThan(0.6);
		expect(g.ev_breadth).toBeLessThan(0.9);
		expect(g.ev_other_language).toBe(0);
		const named = notice({
			title: "Supply of portable computers",
			description: "",
			language: "en",
			categories: [{ scheme: "CPV", code: "30200000" }],
			items: [
				{ description: "Portable computers", quantity: 40, unit: "each" },
				{ description: "Office chairs", quantity: 40, unit: "each" },
			],
		});
		const w = pairEvidence(laptop(), named);
		expect(w.ev_title_names_kind).toBe(1);
		expect(w.ev_words_name_kind).toBe(1);
		// One of the two lines reads as the product's kind, the chairs do not.
		expect(w.ev_line_share).toBeCloseTo(0.5);
		expect(w.ev_lines).toBeGreaterThan(g.ev_lines);
		expect(w.ev_divisions).toBeGreaterThan(0);
	});

	it("a pair with no agreement of kinds carries none of the agreement's evidence", () => {
		const e = pairEvidence(laptop(), notice({ title: "Supply of road salt", description: "", categories: [], items: [], language: "en" }));
		for (const k of ["ev_class", "ev_contains", "ev_notice_code", "ev_product_code", "ev_words_name_kind", "ev_head_anywhere"] as const)
			expect(e[k]).toBe(0);
	});

	it("reading the evidence moves no score", () => {
		const p = laptop();
		const n = notice({
			title: "Supply of laptop computers",
			description: "",
			categories: [{ scheme: "CPV", code: "30213100" }],
			items: [],
		});
		const before = scorePair(p, n);
		pairEvidence(p, n);
		expect(scorePair(p, n)).toEqual(before);
	});
});

describe("evidence weights in the fit", () => {
	it("weight 0 (the hand-set scorer) leaves every score as it was", () => {
		const pair = pairFeatures(scorePair(laptop(), notice()).rationale);
		const plain = row({ products: [pair] });
		const withEvidence = row({ products: [{ ...pair, evidence: { ev_class: 1, ev_lines: 0.5 } }] });
		expect(scoreRow(withEvidence, IDENTITY)).toBe(scoreRow(plain, IDENTITY));
		expect(scoreRow(withEvidence, { ...IDENTITY, evidence: { ev_class: 0 } })).toBe(scoreRow(plain, IDENTITY));
		// A weight scales the pair by exp(weight x value).
		const fifty = row({ products: [{ points: { concept_agreement: 50 }, factors: {}, evidence: { ev_class: 1 } }] });
		expect(scoreRow(fifty, { ...IDENTITY, evidence: { ev_class: Math.log(1.3) } })).toBe(65);
	});

	it("finds the weight of evidence that tells relevant pairs from others at one score, and keeps the scorer's own weights when asked", () => {
		// Every pair scores 55 on one feature; relevant ones carry the evidence more often than not.
		let s = 11;
		const u = () => {
			s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
			return s / 2 ** 32;
		};
		const rows: FitRow[] = [];
		for (let i = 0; i < 1200; i++) {
			const has = u() < 0.5;
			const z = (has ? 1.5 : -1) + Math.log(DIGEST_ODDS);
			rows.push(
				row({
					noticeId: `n${i}`,
					grade: u() < 1 / (1 + Math.exp(-z)) ? 2 : 0,
					products: [{ points: { concept_agreement: 55 }, factors: {}, evidence: has ? { ev_words_name_kind: 1 } : {} }],
				}),
			);
		}
		const m = fitModel(rows, { lambda: 0.01, evidenceOnly: true, steps: 800 });
		expect(m.evidence?.ev_words_name_kind ?? 0).toBeGreaterThan(0.1);
		expect(m.points.concept_agreement).toBe(1);
		const strong = fitModel(rows, { lambda: 1e6, evidenceOnly: true, steps: 300 });
		expect(Math.abs(strong.evidence?.ev_words_name_kind ?? 1)).toBeLessThan(0.01);
	});
});
