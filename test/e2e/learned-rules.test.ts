import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { learnedRuleDoc } from "../support/rules.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_FACTOR } from "../../services/matching/rules/apply.ts";
import { ruleModels, type RuleModels } from "../../services/matching/rules/models.ts";
import { MAX_ACTIVE_RULES } from "../../services/matching/rules/propose.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { expectError } from "../support/catalog.ts";
import { notice } from "../support/opportunities.ts";
import { waitFor } from "../support/processes.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Company, type Stack } from "../support/stack.ts";

// Learned rules on the real stack: the catalog saved over HTTP, notices matched by matching's
// own queue workers, verdicts given over HTTP and learned by the feedbackLearn worker, rules
// read and switched over HTTP, and the scores they change read back over HTTP.

interface Seller extends Company {
	key: string;
}

let stack: Stack;
let acme: Seller;
let globex: Seller;
let conn: Connection;
let store: RuleModels;
const BODY = "Ministry of Health";
const opp: Record<string, string> = {};
const feedbackIds: string[] = [];
let ruleId: string;

async function seller(name: string): Promise<Seller> {
	const company = await companyWithSession(stack, name);
	const key = (
		await apiKey(stack, company, [
			"opportunities:read",
			"opportunities:write",
			"settings:read",
			"settings:write",
			"profile:read",
			"profile:write",
		])
	).secret;
	const partner = (await api(stack, "POST", "/products/partners", { key, body: { name: "Cisco" } })).body;
	const product = await api(stack, "POST", "/products", {
		key,
		body: {
			oem_partner_id: partner.id,
			name: "Cisco Catalyst 9300 48-port PoE+ Switch, Network Advantage",
			model: "C9300-48P-A",
			description: "Stackable enterprise access switch with 48 Gigabit PoE+ ports and modular uplinks.",
		},
	});
	expect(product.status, JSON.stringify(product.body)).toBe(201);
	return { ...company, key };
}

/** The company's opportunity whose title is `title`, once matching has written it. */
const opportunityTitled = (c: Seller, title: string) =>
	waitFor(`${c.tenantId}'s opportunity "${title}"`, async () => {
		const items = (await api(stack, "GET", `/opportunities?limit=100&q=${encodeURIComponent(title)}`, { key: c.key })).body.items as any[];
		return items.find((i) => i.title === title)?.id as string | undefined;
	});
const detail = async (c: Seller, id: string) => (await api(stack, "GET", `/opportunities/${id}`, { key: c.key })).body;
const rules = async (c: Seller) => {
	const res = await api(stack, "GET", "/settings/rules", { key: c.key });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body.rules as any[];
};
const title = (site: string) => `Cisco Catalyst 9300 C9300-48P-A network switches for ${site}`;

beforeAll(async () => {
	stack = await startStack();
	conn = await connectServiceDb("matching");
	store = ruleModels(conn);
	acme = await seller("Acme Networks");
	globex = await seller("Globex Networks");
	for (const site of ["Northern Hospital", "Southern Hospital", "Eastern Hospital"])
		await notice(stack, { title: title(site), issuing_body: BODY });
	for (const site of ["Northern Hospital", "Southern Hospital", "Eastern Hospital"]) opp[site] = await opportunityTitled(acme, title(site));
});
afterAll(async () => {
	await conn?.close();
	await stack?.stop();
	await dropTestDatabases();
});

describe("learning from verdicts", () => {
	it("proposes an active issuing-body rule after three not_relevant verdicts, and a switched-off phrase rule", async () => {
		expect(await rules(acme)).toEqual([]);
		for (const site of ["Northern Hospital", "Southern Hospital", "Eastern Hospital"]) {
			const res = await api(stack, "POST", `/opportunities/${opp[site]}/feedback`, {
				key: acme.key,
				body: { verdict: "not_relevant", reason: "We do not sell to this ministry" },
			});
			expect(res.status, JSON.stringify(res.body)).toBe(201);
			feedbackIds.push(res.body.id);
		}
		// One job proposes every rule the third verdict completes: wait for the last of them (phrases sort after issuing_body).
		const all = await waitFor("the proposals", async () => {
			const xs = await rules(acme);
			return xs.some((r) => r.rule_type === "issuing_body" && r.evidence_count === 3) &&
				xs.some((r) => r.rule_type === "phrase" && /network switches/.test(r.description))
				? xs
				: undefined;
		});
		const rule = all.find((r) => r.rule_type === "issuing_body");
		expect(rule).toEqual({
			id: expect.any(String),
			rule_type: "issuing_body",
			description: "Lower the score of notices from Ministry of Health: 3 of your verdicts said not relevant",
			evidence_count: 3,
			created_at: expect.stringMatching(/Z$/),
			active: true,
		});
		ruleId = rule.id;
		// The shared title words are a proposal a person has to switch on.
		expect(all.filter((r) => r.rule_type === "phrase").length).toBeGreaterThan(0);
		expect(all.filter((r) => r.rule_type === "phrase").every((r) => r.active === false && r.evidence_count === 3)).toBe(true);
		expect(all.map((r) => r.created_at)).toEqual([...all.map((r) => r.created_at)].sort().reverse());
		expect(await rules(globex)).toEqual([]);
	});

	it("lowers the score of a new notice from that body (score_source rule) for that company only; off restores it, on lowers it again", async () => {
		const t = title("Western Clinic");
		await notice(stack, { title: t, issuing_body: BODY });
		const mine = await opportunityTitled(acme, t);
		const theirs = await opportunityTitled(globex, t);
		const plain = await detail(globex, theirs);
		expect(plain.score_source).toBe("matcher");
		expect(plain.score).toBeGreaterThan(30);
		const lowered = Math.round(plain.score * RULE_FACTOR);
		const ruled = await waitFor("the rule to lower the score", async () => {
			const d = await detail(acme, mine);
			return d.score_source === "rule" ? d : undefined;
		});
		expect(ruled.score).toBe(lowered);
		expect(ruled.rationale[0]).toEqual({
			feature: "learned_rule",
			points: lowered - plain.score,
			detail: expect.stringContaining("Ministry of Health"),
		});

		const off = await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: acme.key, body: { active: false } });
		expect(off.status, JSON.stringify(off.body)).toBe(200);
		expect(off.body).toMatchObject({ id: ruleId, active: false, evidence_count: 3, rule_type: "issuing_body" });
		const restored = await waitFor("the score to be restored", async () => {
			const d = await detail(acme, mine);
			return d.score_source === "matcher" ? d : undefined;
		});
		expect(restored.score).toBe(plain.score);
		expect(restored.rationale.some((r: any) => r.feature === "learned_rule")).toBe(false);
		// The dismissed opportunities the verdicts were about are restored too.
		await waitFor("a dismissed opportunity restored", async () =>
			(await detail(acme, opp["Northern Hospital"]!)).score_source === "matcher" ? true : undefined,
		);

		const on = await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: acme.key, body: { active: true } });
		expect(on.body.active).toBe(true);
		await waitFor("the score to be lowered again", async () => ((await detail(acme, mine)).score === lowered ? true : undefined));
		expect((await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: acme.key, body: { active: true } })).body.active).toBe(true); // idempotent
		expect((await detail(globex, theirs)).score).toBe(plain.score);
	});

	it("changes nothing when a feedback job is replayed", async () => {
		const t = title("Western Clinic");
		const mine = await opportunityTitled(acme, t);
		const before = {
			rules: await rules(acme),
			opportunity: await detail(acme, mine),
			stored: await store.rules.find({ tenant_id: acme.tenantId }).lean(),
		};
		for (const feedbackId of feedbackIds) {
			const r = await stack.broker.call<any, object>("matching.learnFeedback", { tenantId: acme.tenantId, feedbackId });
			expect(r).toEqual({ created: 0, updated: 0, rescore: 0 });
		}
		await new Promise((r) => setTimeout(r, 300));
		expect(await rules(acme)).toEqual(before.rules);
		expect(await store.rules.find({ tenant_id: acme.tenantId }).lean()).toEqual(before.stored);
		expect(await detail(acme, mine)).toEqual(before.opportunity);
		expect(await store.evidence.countDocuments({ tenant_id: acme.tenantId })).toBe(3);
	});

	it("counts a changed verdict once, against the rule, and keeps a person's switch", async () => {
		const res = await api(stack, "POST", `/opportunities/${opp["Eastern Hospital"]}/feedback`, {
			key: acme.key,
			body: { verdict: "relevant" },
		});
		expect(res.status).toBe(201);
		// 2 not_relevant left, 1 relevant: net 1. The rule was last switched by a person, so it stays on.
		const rule = await waitFor("the evidence to drop", async () =>
			(await rules(acme)).find((r) => r.id === ruleId && r.evidence_count === 1),
		);
		expect(rule.active).toBe(true);
		expect(rule.description).toBe(
			"Lower the score of notices from Ministry of Health: 2 of your verdicts said not relevant; 1 said relevant",
		);
		expect(await store.evidence.countDocuments({ tenant_id: acme.tenantId })).toBe(3);
	});
});

describe("the rule cap", () => {
	it(`refuses to switch on a rule when ${MAX_ACTIVE_RULES} are already on`, async () => {
		const capped = await companyWithSession(stack, "Capped Co");
		const key = (await apiKey(stack, capped, ["settings:read", "settings:write"])).secret;
		const doc = (i: number, active: boolean) => learnedRuleDoc(capped.tenantId, i, active);
		const seeded = Array.from({ length: MAX_ACTIVE_RULES }, (_, i) => doc(i, true));
		const waiting = doc(MAX_ACTIVE_RULES, false);
		await store.rules.insertMany([...seeded, waiting]);

		const listed = (await api(stack, "GET", "/settings/rules", { key })).body.rules;
		expect(listed).toHaveLength(MAX_ACTIVE_RULES + 1);
		expect(listed[0].id).toBe(waiting._id); // newest first

		expectError(await api(stack, "PATCH", `/settings/rules/${waiting._id}`, { key, body: { active: true } }), 409, "rule_cap_reached");
		expect((await api(stack, "PATCH", `/settings/rules/${seeded[0]!._id}`, { key, body: { active: true } })).status).toBe(200); // already on: no-op
		expect((await api(stack, "PATCH", `/settings/rules/${seeded[0]!._id}`, { key, body: { active: false } })).body.active).toBe(false);
		const now_on = await api(stack, "PATCH", `/settings/rules/${waiting._id}`, { key, body: { active: true } });
		expect(now_on.status, JSON.stringify(now_on.body)).toBe(200);
		expect(now_on.body.active).toBe(true);
	});
});

describe("access", () => {
	it("keeps each company's rules to itself", async () => {
		expectError(await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: globex.key, body: { active: false } }), 404, "not_found");
		expectError(await api(stack, "PATCH", `/settings/rules/${randomUUID()}`, { key: acme.key, body: { active: false } }), 404, "not_found");
		expect((await rules(acme)).find((r) => r.id === ruleId).active).toBe(true);
		expect(await rules(globex)).toEqual([]);
	});

	it("validates the path and the body", async () => {
		expectError(await api(stack, "PATCH", "/settings/rules/abc", { key: acme.key, body: { active: false } }), 400, "validation_failed");
		expectError(
			await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: acme.key, body: { active: "no" } }),
			400,
			"validation_failed",
		);
		expectError(
			await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: acme.key, body: { active: false, rule_type: "phrase" } }),
			400,
			"validation_failed",
		);
		expectError(await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: acme.key, body: {} }), 400, "validation_failed");
	});

	it("needs settings:read to list and settings:write to switch", async () => {
		const reader = (await apiKey(stack, acme, ["settings:read"])).secret;
		const other = (await apiKey(stack, acme, ["opportunities:read"])).secret;
		expect((await api(stack, "GET", "/settings/rules", { key: reader })).status).toBe(200);
		const denied = await api(stack, "PATCH", `/settings/rules/${ruleId}`, { key: reader, body: { active: false } });
		expectError(denied, 403, "insufficient_scope");
		expect(denied.body.message).toContain("settings:write");
		expectError(await api(stack, "GET", "/settings/rules", { key: other }), 403, "insufficient_scope");
		expect((await api(stack, "GET", "/settings/rules", { cookie: acme.cookie })).status).toBe(200);
	});
});
