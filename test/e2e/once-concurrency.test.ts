import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { learnedRuleDoc } from "../support/rules.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleModels, type RuleModels } from "../../services/matching/rules/models.ts";
import { MAX_ACTIVE_RULES } from "../../services/matching/rules/propose.ts";
import { opportunityModels, type OpportunityModels } from "../../services/opportunities/models.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { expectError } from "../support/catalog.ts";
import { match, notice } from "../support/opportunities.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// No lost updates under concurrent requests (issue 15): each case sends many requests at once
// over HTTP to the real stack and then checks what the store holds. Each failed before its fix:
// two current verdicts or a status from another verdict than the current one, and more active
// rules than the cap. (Digest settings: once-settings.test.ts.)

let stack: Stack;
let oppConn: Connection;
let matchingConn: Connection;
let opps: OpportunityModels;
let rules: RuleModels;

beforeAll(async () => {
	stack = await startStack();
	oppConn = await connectServiceDb("opportunities");
	matchingConn = await connectServiceDb("matching");
	opps = opportunityModels(oppConn);
	rules = ruleModels(matchingConn);
});
afterAll(async () => {
	await oppConn?.close();
	await matchingConn?.close();
	await stack?.stop();
	await dropTestDatabases();
});

const VERDICTS = ["relevant", "not_relevant", "not_eligible", "wrong_product"] as const;
const STATUS_AFTER: Record<string, string> = {
	relevant: "interested",
	not_relevant: "dismissed",
	not_eligible: "dismissed",
	wrong_product: "dismissed",
};

describe("concurrent verdicts on one opportunity", () => {
	it("leave exactly one current verdict, and the opportunity's status is that verdict's", async () => {
		const company = await companyWithSession(stack, "Once Verdicts");
		const key = (await apiKey(stack, company, ["opportunities:read", "opportunities:write"])).secret;
		for (let round = 0; round < 10; round++) {
			const id = await match(stack, company.tenantId, await notice(stack, { title: `Once verdicts ${round}` }), { score: 80 });
			// Relevant and dismissing verdicts alternate, so a status from another verdict shows.
			const verdicts = Array.from({ length: 20 }, (_, i) => (i % 2 ? "relevant" : VERDICTS[1 + ((i / 2 + round) % 3)]!));
			const answers = await Promise.all(
				verdicts.map((verdict) => api(stack, "POST", `/opportunities/${id}/feedback`, { key, body: { verdict } })),
			);
			for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);

			const current = await opps.feedback.find({ tenant_id: company.tenantId, opportunity_id: id, superseded_at: null }).lean();
			expect(
				current.map((f) => f.verdict),
				`round ${round}`,
			).toHaveLength(1);
			expect(await opps.feedback.countDocuments({ tenant_id: company.tenantId, opportunity_id: id })).toBe(verdicts.length);
			const opportunity = await api(stack, "GET", `/opportunities/${id}`, { key });
			expect(opportunity.body.status, `round ${round}: current verdict ${current[0]!.verdict}`).toBe(STATUS_AFTER[current[0]!.verdict]);
			// The current verdict's own answer said it was current.
			expect(answers.filter((a) => a.body.superseded_at === null).map((a) => a.body.id)).toContain(current[0]!._id);

			// A later verdict, alone, supersedes the current one.
			const later = await api(stack, "POST", `/opportunities/${id}/feedback`, { key, body: { verdict: "relevant" } });
			expect(later.body).toMatchObject({ superseded_at: null, opportunity_status: "interested" });
			const after = await opps.feedback.find({ tenant_id: company.tenantId, opportunity_id: id, superseded_at: null }).lean();
			expect(after.map((f) => f._id)).toEqual([later.body.id]);
		}
	}, 120_000); // 10 rounds of 20 concurrent verdicts: about 25 s on two busy cores
});

describe("concurrent switches against the active-rule cap", () => {
	it("let exactly one rule on when one place is left", async () => {
		const company = await companyWithSession(stack, "Once Rules");
		const key = (await apiKey(stack, company, ["settings:read", "settings:write"])).secret;
		const doc = (i: number, active: boolean) => learnedRuleDoc(company.tenantId, i, active);
		const on = Array.from({ length: MAX_ACTIVE_RULES - 1 }, (_, i) => doc(i, true));
		const off = Array.from({ length: 10 }, (_, i) => doc(MAX_ACTIVE_RULES + i, false));
		await rules.rules.insertMany([...on, ...off]);

		const answers = await Promise.all(off.map((r) => api(stack, "PATCH", `/settings/rules/${r._id}`, { key, body: { active: true } })));
		const switched = answers.filter((a) => a.status === 200);
		expect(switched, JSON.stringify(answers.map((a) => a.status))).toHaveLength(1);
		for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, "rule_cap_reached");
		expect(await rules.rules.countDocuments({ tenant_id: company.tenantId, active: true })).toBe(MAX_ACTIVE_RULES);

		// One switched off and many switched on at once: never more than the cap, and each answer true to the store.
		const offAgain = off.filter((r) => r._id !== switched[0]!.body.id);
		const mixed = await Promise.all([
			api(stack, "PATCH", `/settings/rules/${on[0]!._id}`, { key, body: { active: false } }),
			...offAgain.map((r) => api(stack, "PATCH", `/settings/rules/${r._id}`, { key, body: { active: true } })),
		]);
		expect(mixed[0]!.status).toBe(200);
		const nowOn = mixed.slice(1).filter((a) => a.status === 200).length;
		expect(nowOn).toBeLessThanOrEqual(1);
		expect(await rules.rules.countDocuments({ tenant_id: company.tenantId, active: true })).toBe(MAX_ACTIVE_RULES - 1 + nowOn);
	});
});
