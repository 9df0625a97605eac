import { describe, expect, it } from "vitest";
import { RULE_FACTOR, applyRules, viewFeatureIds, type ActiveRule } from "../../../services/matching/rules/apply.ts";
import type { NoticeView } from "../../../services/matching/method/types.ts";
import { phraseKey } from "../../../services/matching/rules/features.ts";

const view: NoticeView = {
	noticeId: "n1",
	title: "Preventive maintenance of laboratory centrifuges",
	description: "",
	items: [],
	categories: [{ scheme: "UNSPSC", code: "41103900" }],
	issuingBody: "Ministry of Health",
};
const rule = (id: string, rule_type: string, key: string): ActiveRule => ({ id, rule_type, key, description: `rule ${id}` });

describe("applying active rules", () => {
	const features = viewFeatureIds(view, { bid_eligibility: "sdvosb", procurement_nature: "services" } as never);

	it("reads the stored notice view and its signals as the evidence side does", () => {
		expect([...features].sort()).toEqual(
			[
				"category_code|UNSPSC:41103900",
				"category_code|UNSPSC:4110*",
				"issuing_body|ministry of health",
				`phrase|${phraseKey("laboratory centrifuges")}`,
				`phrase|${phraseKey("preventive maintenance")}`,
				"services_nature|services",
				"set_aside|sdvosb",
			].sort(),
		);
		// Without signals, the view's own nature estimate stands in.
		expect(viewFeatureIds({ ...view, procurementNature: "construction" }, null)).toContain("services_nature|construction");
	});

	it("leaves a notice no rule applies to alone", () => {
		expect(applyRules(80, features, [rule("a", "issuing_body", "army corps")])).toEqual({ score: 80, notes: [], applied: [] });
		expect(applyRules(80, features, [])).toEqual({ score: 80, notes: [], applied: [] });
	});

	it(`multiplies the score by ${RULE_FACTOR} once, however many rules apply, and says why`, () => {
		const one = applyRules(81, features, [rule("a", "issuing_body", "ministry of health")]);
		expect(one).toEqual({
			score: 41,
			notes: [{ feature: "learned_rule", points: -40, detail: "rule a" }],
			applied: [expect.objectContaining({ id: "a" })],
		});
		const two = applyRules(80, features, [
			rule("a", "issuing_body", "ministry of health"),
			rule("b", "category_code", "UNSPSC:4110*"),
			rule("c", "phrase", "other thing"),
		]);
		expect(two.score).toBe(40);
		expect(two.notes).toEqual([
			{ feature: "learned_rule", points: -40, detail: "rule a" },
			{ feature: "learned_rule", points: 0, detail: "rule b" },
		]);
	});

	it("is a function of the matcher's score, so removing the rule restores it", () => {
		const rules = [rule("a", "services_nature", "services")];
		expect(applyRules(70, features, rules).score).toBe(35);
		expect(applyRules(70, features, []).score).toBe(70);
	});
});
