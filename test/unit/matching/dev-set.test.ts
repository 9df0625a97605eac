import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDevSet } from "../../../services/matching/method/eval/dev-set.ts";
import { evaluate } from "../../../services/matching/method/eval/evaluate.ts";

// Regression guard on the labeled dev set: floors slightly below the measured figures
// (digest F1 0.982, 0 traps, MAP 0.984; BM25 F1 0.273 when every match is sent, MAP 0.865).

const devDir = join(import.meta.dirname, "..", "..", "..", "..", "shared", "eval", "dev");

describe("dev set", () => {
	const set = loadDevSet(devDir);
	const e = evaluate(set);

	it("applies follow-ups: amendments update, cancellations cancel", () => {
		expect(set.notices).toHaveLength(120);
		expect(set.notices.filter((n) => n.cancelled)).toHaveLength(4);
		for (const t of e.results.values())
			for (const n of set.notices.filter((x) => x.cancelled)) expect(t.get(n.view.noticeId)?.score).toBe(0);
	});

	it("keeps digest F1 and MAP above their floors, with no trap in the digest", () => {
		expect(e.overall.digest.f1).toBeGreaterThanOrEqual(0.95);
		expect(e.overall.traps).toBe(0);
		expect(e.overall.map).toBeGreaterThanOrEqual(0.96);
		expect(e.overall.ndcg10).toBeGreaterThanOrEqual(0.95);
		for (const c of e.companies) expect(c.digest.f1, c.tenantId).toBeGreaterThanOrEqual(0.9);
	});

	it("beats the BM25 baseline, which it reproduces roughly", () => {
		const b = e.overall.bm25;
		expect(b.f1AllMatches).toBeGreaterThan(0.2);
		expect(b.f1AllMatches).toBeLessThan(0.35);
		expect(b.map).toBeGreaterThan(0.78);
		expect(b.map).toBeLessThan(0.92);
		expect(e.overall.map).toBeGreaterThan(b.map);
		expect(e.overall.digest.f1).toBeGreaterThan(b.bestF1);
	});

	it("applies what the service does after the method, and ranks nowhere a notice it keeps no record of", () => {
		// Halving every score (a barred company) empties the digest; keeping no record empties every ranking.
		const halved = evaluate(set, undefined, (_t, _n, scored) => ({ ...scored, score: scored.score / 2 }));
		expect(halved.overall.digest.tp + halved.overall.digest.fp).toBe(0);
		expect(halved.overall.map).toBeCloseTo(e.overall.map, 2);
		const none = evaluate(set, undefined, (_t, _n, scored) => ({ ...scored, score: 0 }));
		expect(none.overall.map).toBe(0);
		expect(none.overall.ndcg10).toBe(0);
	});
});
