import { describe, expect, it } from "vitest";
import {
	MAX_ACTIVE_RULES,
	MAX_RULES,
	PROPOSE_AT,
	decide,
	describeRule,
	narrowerNet,
	netEvidence,
	tally,
	type RuleState,
} from "../../../services/matching/rules/propose.ts";

const neg = (verdict = "not_relevant", features: string[] = []) => ({ polarity: "negative" as const, verdict, features });
const pos = (features: string[] = []) => ({ polarity: "positive" as const, verdict: "relevant", features });
const few = { active: 0, total: 0 };

describe("evidence", () => {
	it("counts negative verdicts net of relevant ones", () => {
		const t = tally([neg(), neg("wrong_product"), neg(), pos()]);
		expect(t).toEqual({ negative: 3, positive: 1, verdicts: { not_relevant: 2, wrong_product: 1 } });
		expect(netEvidence(t)).toBe(2);
		expect(netEvidence(tally([pos(), pos(), neg()]))).toBe(0);
	});

	it("describes a rule in words", () => {
		expect(describeRule("issuing_body", "Ministry of Health", tally([neg(), neg(), neg()]))).toBe(
			"Lower the score of notices from Ministry of Health: 3 of your verdicts said not relevant",
		);
		expect(describeRule("services_nature", "services", tally([neg("not_eligible"), neg(), pos()]))).toBe(
			"Lower the score of services contracts (not a purchase of goods): 2 of your verdicts said not relevant or not eligible; 1 said relevant",
		);
		expect(describeRule("phrase", "preventive maintenance", tally([neg("wrong_product")]))).toMatch(
			/title says "preventive maintenance": 1 of your verdicts said wrong product$/,
		);
	});
});

describe("proposal", () => {
	const three = tally([neg(), neg(), neg()]);

	it(`proposes a rule at ${PROPOSE_AT} net verdicts, switched on except for phrases`, () => {
		expect(decide("issuing_body", "ministry of health", "Ministry of Health", tally([neg(), neg()]), null, few)).toEqual({ kind: "none" });
		expect(decide("issuing_body", "ministry of health", "Ministry of Health", tally([neg(), neg(), neg(), pos()]), null, few)).toEqual({
			kind: "none",
		});
		const d = decide("issuing_body", "ministry of health", "Ministry of Health", three, null, few);
		expect(d).toEqual({
			kind: "create",
			state: {
				active: true,
				set_by: "learning",
				evidence_count: 3,
				description: expect.stringMatching(/^Lower the score of notices from Ministry of Health/),
			},
		});
		for (const type of ["category_code", "set_aside", "services_nature"] as const)
			expect(decide(type, "k", "k", three, null, few)).toMatchObject({ kind: "create", state: { active: true } });
		expect(decide("phrase", "laboratory centrifuge", "laboratory centrifuges", three, null, few)).toMatchObject({
			kind: "create",
			state: { active: false },
		});
	});

	it("respects the caps: no proposal past MAX_RULES, proposals switched off at MAX_ACTIVE_RULES", () => {
		expect(decide("issuing_body", "x", "X", three, null, { active: 10, total: MAX_RULES })).toEqual({ kind: "skip", reason: "rule_cap" });
		expect(decide("issuing_body", "x", "X", three, null, { active: MAX_ACTIVE_RULES, total: MAX_ACTIVE_RULES })).toMatchObject({
			kind: "create",
			state: { active: false },
		});
	});

	it("proposes a code family only when it explains more verdicts than one code of it", () => {
		const docs = [
			neg("not_relevant", ["category_code|UNSPSC:43222612", "category_code|UNSPSC:4322*"]),
			neg("not_relevant", ["category_code|UNSPSC:43222612", "category_code|UNSPSC:4322*"]),
			neg("not_relevant", ["category_code|UNSPSC:43222612", "category_code|UNSPSC:4322*"]),
		];
		expect(narrowerNet("category_code|UNSPSC:4322*", docs)).toBe(3);
		expect(decide("category_code", "UNSPSC:4322*", "UNSPSC family 4322", tally(docs), null, few, 3)).toEqual({
			kind: "skip",
			reason: "narrower_code_explains_it",
		});
		const spread = [...docs.slice(0, 2), neg("not_relevant", ["category_code|UNSPSC:43222699", "category_code|UNSPSC:4322*"])];
		expect(narrowerNet("category_code|UNSPSC:4322*", spread)).toBe(2);
		expect(decide("category_code", "UNSPSC:4322*", "UNSPSC family 4322", tally(spread), null, few, 2)).toMatchObject({
			kind: "create",
			state: { active: true },
		});
	});

	it("keeps a learned rule in line with its evidence, and a person's switch against it", () => {
		const learned: RuleState = {
			active: true,
			set_by: "learning",
			evidence_count: 3,
			description: describeRule("issuing_body", "X", three),
		};
		expect(decide("issuing_body", "x", "X", three, learned, { active: 1, total: 1 })).toEqual({ kind: "none" }); // a replay changes nothing
		const four = tally([neg(), neg(), neg(), neg()]);
		expect(decide("issuing_body", "x", "X", four, learned, { active: 1, total: 1 })).toEqual({
			kind: "update",
			set: { evidence_count: 4, description: expect.stringContaining("4 of your verdicts") },
			activeChanged: false,
		});
		const withdrawn = tally([neg(), neg(), neg(), pos()]);
		expect(decide("issuing_body", "x", "X", withdrawn, learned, { active: 1, total: 1 })).toMatchObject({
			kind: "update",
			set: { active: false, evidence_count: 2 },
			activeChanged: true,
		});
		const off: RuleState = { ...learned, active: false, set_by: "person" };
		expect(decide("issuing_body", "x", "X", four, off, { active: 0, total: 1 })).toMatchObject({
			kind: "update",
			set: { evidence_count: 4 },
			activeChanged: false,
		});
		const on: RuleState = { ...learned, set_by: "person", evidence_count: 2 };
		expect(decide("issuing_body", "x", "X", tally([neg(), neg()]), on, { active: 1, total: 1 })).toMatchObject({
			kind: "update",
			activeChanged: false,
		});
		// A learned rule that is off does not come back on past the active cap.
		const waiting: RuleState = { ...learned, active: false, evidence_count: 2 };
		expect(decide("issuing_body", "x", "X", three, waiting, { active: MAX_ACTIVE_RULES, total: 60 })).toMatchObject({
			kind: "update",
			activeChanged: false,
			set: { evidence_count: 3 },
		});
	});
});
