import { describe, expect, it } from "vitest";
import {
	MAX_PHRASES,
	featureId,
	noticeFeatureIds,
	noticeFeatures,
	phraseKey,
	type FeatureInput,
} from "../../../services/matching/rules/features.ts";

const notice = (over: Partial<FeatureInput> = {}): FeatureInput => ({
	issuing_body: "Ministry of Health",
	title: "Supply of laboratory centrifuges",
	categories: [],
	bid_eligibility: "open",
	procurement_nature: "goods",
	...over,
});
const ids = (n: FeatureInput) => [...noticeFeatureIds(n)];

describe("notice features for learned rules", () => {
	it("normalizes the issuing body so spellings of one buyer agree", () => {
		expect(noticeFeatures(notice({ title: "" }))).toEqual([
			{ type: "issuing_body", key: "ministry of health", label: "Ministry of Health" },
		]);
		expect(ids(notice({ issuing_body: "  MINISTRY of  health. " }))).toContain("issuing_body|ministry of health");
		expect(ids(notice({ issuing_body: "", title: "" }))).toEqual([]);
	});

	it("reads each code at full length and, for UNSPSC and CPV, at its family level", () => {
		const f = ids(
			notice({
				title: "",
				categories: [
					{ scheme: "UNSPSC", code: "43222612" },
					{ scheme: "CPV", code: "33111000-1" },
					{ scheme: "NAICS", code: "334111" },
				],
			}),
		);
		expect(f).toEqual(
			expect.arrayContaining([
				"category_code|UNSPSC:43222612",
				"category_code|UNSPSC:4322*",
				"category_code|CPV:33111000",
				"category_code|CPV:331*",
				"category_code|NAICS:334111",
			]),
		);
		expect(f.filter((x) => x.startsWith("category_code|NAICS"))).toHaveLength(1); // no family for NAICS
		// A family-level code is its family: no second feature that says the same.
		expect(
			ids(notice({ title: "", categories: [{ scheme: "UNSPSC", code: "43220000" }] })).filter((x) => x.startsWith("category_code")),
		).toEqual(["category_code|UNSPSC:43220000"]);
		expect(
			ids(notice({ title: "", categories: [{ scheme: "UNSPSC", code: "not a code" }] })).filter((x) => x.startsWith("category_code")),
		).toEqual([]);
	});

	it("takes phrases as adjacent content words of the title, stemmed, without stop-words or boilerplate, bounded", () => {
		const phrases = (title: string) => noticeFeatures(notice({ title })).filter((f) => f.type === "phrase");
		expect(phrases("Supply of laboratory centrifuges").map((p) => p.key)).toEqual([phraseKey("laboratory centrifuge")]);
		expect(phrases("Preventive maintenance of the HVAC chillers").map((p) => p.label)).toEqual(["preventive maintenance", "hvac chillers"]);
		// Numbers, model numbers and procurement boilerplate are no phrase.
		expect(phrases("RFQ 2024-17 for C9300-48P switches, brand name or equal")).toEqual([]);
		// Plurals agree.
		expect(phrases("Laboratory centrifuge")[0]!.key).toBe(phrases("laboratory centrifuges")[0]!.key);
		const long = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november";
		expect(phrases(long)).toHaveLength(MAX_PHRASES);
	});

	it("names a set-aside or restricted competition and a services or construction nature", () => {
		expect(ids(notice({ bid_eligibility: "sdvosb" }))).toContain("set_aside|sdvosb");
		expect(ids(notice({ bid_eligibility: "restricted" }))).toContain("set_aside|restricted");
		expect(ids(notice({ bid_eligibility: "open" })).some((x) => x.startsWith("set_aside"))).toBe(false);
		expect(ids(notice({ bid_eligibility: "unknown" })).some((x) => x.startsWith("set_aside"))).toBe(false);
		expect(ids(notice({ procurement_nature: "services" }))).toContain("services_nature|services");
		expect(ids(notice({ procurement_nature: "construction" }))).toContain("services_nature|construction");
		expect(ids(notice({ procurement_nature: "goods" })).some((x) => x.startsWith("services_nature"))).toBe(false);
		expect(ids(notice({ procurement_nature: null, bid_eligibility: null }))).toEqual([
			"issuing_body|ministry of health",
			`phrase|${phraseKey("laboratory centrifuges")}`,
		]);
	});

	it("lists each feature once", () => {
		const f = noticeFeatures(
			notice({
				title: "laboratory centrifuges and laboratory centrifuges",
				categories: [
					{ scheme: "UNSPSC", code: "41103900" },
					{ scheme: "UNSPSC", code: "41103900" },
				],
			}),
		);
		expect(new Set(f.map(featureId)).size).toBe(f.length);
	});
});
