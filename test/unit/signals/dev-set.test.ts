import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEV_DIR, evaluate, loadDevSet } from "../../../scripts/eval-signals.ts";

// Regression guard on the labeled dev set: floors a little below the measured figures
// (measured at the time of writing: bid_eligibility 0.992, requires_manufacturer 1.0,
// requires_oem_documentation 1.0, certifications exact 1.0 / item F1 1.0, procurement_nature 0.992,
// category token Jaccard 0.48). The floors catch regressions; they are not targets to tune to.
const available = existsSync(path.join(DEV_DIR, "signals.json"));

describe.skipIf(!available)("signals on the dev set (regression floors)", () => {
	it("stays above the floors for every field", () => {
		const cases = loadDevSet();
		expect(cases.length).toBe(120);
		const r = evaluate(cases);
		expect(r.accuracy.bid_eligibility).toBeGreaterThanOrEqual(0.95);
		expect(r.accuracy.requires_manufacturer).toBeGreaterThanOrEqual(0.97);
		expect(r.accuracy.requires_oem_documentation).toBeGreaterThanOrEqual(0.95);
		expect(r.accuracy.mandatory_certifications_exact).toBeGreaterThanOrEqual(0.92);
		expect(r.certifications.f1).toBeGreaterThanOrEqual(0.93);
		expect(r.accuracy.procurement_nature).toBeGreaterThanOrEqual(0.95);
		expect(r.category.mean_jaccard).toBeGreaterThanOrEqual(0.35);
	});
});
