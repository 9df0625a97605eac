// Why: keeps the offline answerer's figures from sliding. The synthetic dev questions (at 45/45 and
// 15/15 when the answerer was rewritten) keep a floor of 0.95, the three sets written for this project
// over the same notices 0.9, and, where the real-notice set is built (eval/real is git-ignored), the
// tuning parts of eval/real-ask 0.85 each and 0.9 together. The measured-only part is reported by `npm run eval:ask`, never
// asserted here: a test on it would be tuning on it.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate, partsOf } from "../../../scripts/eval-ask.ts";

const dev = resolve(import.meta.dirname, "../../../../shared/eval/dev");
const heldout = ["heldout-questions.json", "heldout2-questions.json", "heldout3-questions.json"].map((f) =>
	resolve(import.meta.dirname, f),
);
const realAsk = resolve(import.meta.dirname, "../../../eval/real-ask");
const tuning = partsOf(realAsk).filter((p) => !p.measuredOnly && existsSync(p.notices));

const check = (file: string, notices: string, floor: number) => {
	const r = evaluate(file, notices);
	expect(r.answerableRight / r.answerable, JSON.stringify(r.misses, null, 1)).toBeGreaterThanOrEqual(floor);
	expect(r.unanswerableRight / r.unanswerable, JSON.stringify(r.misses, null, 1)).toBeGreaterThanOrEqual(floor);
};

describe.skipIf(!existsSync(resolve(dev, "notices.ocds.json")))("ask eval on the synthetic set", () => {
	it("answers the dev questions as well as before the rewrite", () => check(resolve(dev, "questions.json"), dev, 0.95));
	it.each(heldout)("answers at least 90%% of the questions of %s right", (file) => check(file, dev, 0.9));
});

// The later tuning parts (tune-f .. tune-k) were written to find what the answerer still misses, on notices
// nobody had asked about: each must stay at 0.85 or above, and all tuning questions together at 0.9.
// tune-i's questions on text past an item description's first 1,000 characters, lot titles and award criteria
// are answerable since ingestion keeps them (issue 18): it has the same floor as the others now.
// tune-k (issue 18's fourth round) held a lower floor while its Catalan/Spanish notice was read as English; since ask reads a
// notice in the language it declares (issue 18's fifth round) it has the same floor as the others.
// tune-l (issue 18's sixth round, first run 24/36 answerable) has the same floor since that round's fixes (32/36).
// tune-n (issue 18's eighth round: older Doffin notices, mostly Norwegian and Nynorsk text asked in English, Swedish and Danish;
// first run 24/45 answerable) held 0.75 after that round's fixes (34/45); since the ninth round read Nynorsk (39/45) it has the
// same floor as the others.
// tune-o (issue 18's tenth round: unanswerable questions whose notice states a near fact; first run 22/30 unanswerable) has the same
// floor since that round's fixes (26/30).
const FLOOR: Record<string, number> = {};

// Registered only where the real set is built: its notices are third-party files, never in a clean clone.
if (tuning.length > 0)
	describe("ask eval on the real set's tuning parts", () => {
		it.each(tuning)("answers at least 85% of part $name right", (part) => check(part.questions, part.notices, FLOOR[part.name] ?? 0.85));
		it("answers at least 90% of all tuning questions right", () => {
			const all = tuning.map((p) => evaluate(p.questions, p.notices));
			const sum = (f: (r: (typeof all)[number]) => number) => all.reduce((a, r) => a + f(r), 0);
			expect(sum((r) => r.answerableRight) / sum((r) => r.answerable)).toBeGreaterThanOrEqual(0.9);
			expect(sum((r) => r.unanswerableRight) / sum((r) => r.unanswerable)).toBeGreaterThanOrEqual(0.9);
		});
	});
