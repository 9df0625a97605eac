// Why: learning took the company's rule lock (two writes) and counted its rules (two counts) for
// every verdict, though only switching a rule on needs either (issue 17: a tenth of a verdict's
// statements). Checked against the real store: evidence that switches nothing on settles
// without the lock, and a rule that must be switched on still is, under it, within the cap.
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../../shared/config.ts";
import { ruleModels, type RuleModels } from "../../../services/matching/rules/models.ts";
import { MAX_ACTIVE_RULES, reconsiderRules } from "../../../services/matching/rules/propose.ts";

let conn: mongoose.Connection;
let m: RuleModels;

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_reconsider` }).asPromise();
	await conn.dropDatabase();
	m = ruleModels(conn);
	await Promise.all([m.rules.syncIndexes(), m.evidence.syncIndexes()]);
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

const FEATURE = "issuing_body|ministry of load";
const labels = new Map([[FEATURE, { type: "issuing_body", key: "ministry of load", label: "Ministry of Load" }]]);

/** A verdict's evidence on the feature. */
async function verdict(tenant: string, id: string, polarity: "negative" | "positive"): Promise<void> {
	await m.evidence.create({
		_id: id,
		tenant_id: tenant,
		opportunity_id: `o-${id}`,
		notice_id: `n-${id}`,
		verdict: polarity === "negative" ? "not_relevant" : "relevant",
		polarity,
		features: [FEATURE],
		updated_at: new Date(),
	});
}

/** reconsiderRules with a lock that counts how often it is taken. */
async function reconsider(tenant: string) {
	let locks = 0;
	const r = await reconsiderRules(m, tenant, [FEATURE], labels as never, async (fn) => {
		locks++;
		return fn();
	});
	return { ...r, locks };
}

describe("reconsiderRules and the company's rule lock", () => {
	it("settles evidence below the proposal line without the lock, and proposes under it", async () => {
		await verdict("t1", "a", "negative");
		await verdict("t1", "b", "negative");
		expect(await reconsider("t1")).toMatchObject({ created: 0, locks: 0 });
		await verdict("t1", "c", "negative");
		const third = await reconsider("t1");
		expect(third).toMatchObject({ created: 1, locks: 1 });
		expect(third.toRescore).toHaveLength(1);
		// A fourth verdict only moves the count: no lock.
		await verdict("t1", "d", "negative");
		expect(await reconsider("t1")).toMatchObject({ created: 0, updated: 1, locks: 0 });
		expect((await m.rules.findOne({ tenant_id: "t1" }).lean())?.evidence_count).toBe(4);
		// Verdicts the other way switch it off, again without the lock.
		for (const id of ["e", "f"]) await verdict("t1", id, "positive");
		const off = await reconsider("t1");
		expect(off).toMatchObject({ updated: 1, locks: 0 });
		expect((await m.rules.findOne({ tenant_id: "t1" }).lean())?.active).toBe(false);
	});

	it("still keeps the active-rule cap: a rule that would be switched on past it is created switched off", async () => {
		const now = new Date();
		await m.rules.insertMany(
			Array.from({ length: MAX_ACTIVE_RULES }, (_, i) => ({
				_id: `r${i}`,
				tenant_id: "t2",
				rule_type: "category_code",
				key: `cpv:${i}`,
				label: `code ${i}`,
				description: `notices classified code ${i}`,
				evidence_count: 3,
				active: true,
				set_by: "learning",
				created_at: now,
				updated_at: now,
			})),
		);
		for (const id of ["g", "h", "i"]) await verdict("t2", `t2-${id}`, "negative");
		const r = await reconsider("t2");
		expect(r).toMatchObject({ created: 1, locks: 1, toRescore: [] });
		expect((await m.rules.findOne({ tenant_id: "t2", key: "ministry of load" }).lean())?.active).toBe(false);
	});
});
