import { describe, expect, it } from "vitest";
import { compactKey, compactRuns, keyStrength, modelKeys } from "../../../services/matching/method/model-number.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { features, notice, product } from "./fixtures.ts";

describe("model-number normalization", () => {
	it("reduces every spelling to one compact key", () => {
		const key = compactKey("NX7400-48P-A");
		expect(key).toBe("nx740048pa");
		expect(compactKey("NX740048PA")).toBe(key);
		expect(compactKey("nx7400 48p a")).toBe(key);
		expect(compactKey("NX7400/48P/A")).toBe(key);
		expect(compactKey("ＮＸ７４００－４８Ｐ－Ａ")).toBe(key); // full-width forms
	});

	it("derives a base without a short suffix and a family from the first segment", () => {
		expect(modelKeys("NX7400-48P-A")).toMatchObject({ full: "nx740048pa", base: "nx740048p", family: "nx7400" });
		expect(modelKeys("QB204TS/00")).toMatchObject({ full: "qb204ts00", base: "qb204ts" });
		expect(modelKeys(null).full).toBeNull();
	});

	it("treats short and all-digit keys as weak and very short ones as unusable", () => {
		expect(keyStrength("nx740048pa")).toBe("strong");
		expect(keyStrength("w110")).toBe("weak");
		expect(keyStrength("1377")).toBe("weak");
		expect(keyStrength("3123000063")).toBe("strong");
		expect(keyStrength("ab")).toBe("none");
		expect(keyStrength("abc")).toBe("none");
	});

	it("finds a model in text whatever its spacing and punctuation", () => {
		for (const text of ["NX7400-48P-A", "nx7400 48p a", "NX740048PA", "(NX7400-48P-A) or equal"]) {
			const runs = compactRuns(
				text
					.toLowerCase()
					.split(/[^a-z0-9]+/)
					.filter(Boolean),
			);
			expect(runs.has("nx740048pa"), text).toBe(true);
		}
	});

	it("scores an exact model mention in any spelling", () => {
		const p = product();
		for (const spelled of ["NX7400-48P-A", "nx7400 48p a", "NX740048PA"]) {
			const r = scorePair(
				p,
				notice({ items: [{ description: `Switch, ${spelled} or equal`, quantity: 4, unit: "each", classification: null }] }),
			);
			expect(features(r), spelled).toContain("model_mention");
		}
	});

	it("does not match a model inside a longer part number", () => {
		const p = product({ model: "ZR-4410" });
		const r = scorePair(p, notice({ description: "Replace part ZR-4410X7 on the existing chiller." }));
		expect(features(r)).not.toContain("model_mention");
	});

	it("gives a short or all-digit model little weight when nothing else points at the product", () => {
		const p = product({
			name: "Calder 1377 Fume Extractor",
			model: "1377",
			oemName: "Calder Labs",
			description: "Benchtop fume extractor.",
			commodityCodes: [],
		});
		const unrelated = notice({
			title: "Office chairs",
			description: "Invoice 1377 refers to the previous order of chairs.",
			items: [],
			categories: [],
		});
		const r = scorePair(p, unrelated);
		const mention = r.rationale.find((e) => e.feature === "model_mention");
		expect(mention?.points ?? 0).toBeLessThan(20);
		expect(r.score).toBeLessThan(20);
		const supported = notice({ title: "Fume extractors", description: "Calder 1377 or equal.", items: [], categories: [] });
		expect(scorePair(p, supported).rationale.find((e) => e.feature === "model_mention")?.points).toBe(42);
	});
});
