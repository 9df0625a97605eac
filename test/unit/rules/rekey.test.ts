// Why: a company's learned phrase rules must survive the change of stemmer (issue 16). Keys
// written by the old plural folding are rewritten once, against the real store, and a rule that
// folds onto another keeps the one a person set.
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../../shared/config.ts";
import { phraseKey } from "../../../services/matching/rules/features.ts";
import { ruleModels, type RuleModels } from "../../../services/matching/rules/models.ts";
import { rekeyPhrases } from "../../../services/matching/rules/rekey.ts";

let conn: mongoose.Connection;
let m: RuleModels;

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_rekey` }).asPromise();
	await conn.dropDatabase();
	m = ruleModels(conn);
	await m.rules.syncIndexes();
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

const rule = (id: string, key: string, label: string, setBy: "learning" | "person") => ({
	_id: id,
	tenant_id: "t1",
	rule_type: "phrase",
	key,
	label,
	description: `title says "${label}"`,
	evidence_count: 2,
	active: true,
	set_by: setBy,
	created_at: new Date(),
	updated_at: new Date(),
});

describe("rekeyPhrases", () => {
	it("rewrites old phrase keys of rules and evidence to the current stems, once", async () => {
		await m.rules.create([
			rule("r1", "laboratory centrifuge", "laboratory centrifuges", "learning"),
			rule("r2", "battery charger", "battery chargers", "learning"),
			rule("r3", "batterie charger", "batteries charger", "person"),
			{ ...rule("r4", "ministry of health", "Ministry of Health", "learning"), rule_type: "issuing_body" },
		]);
		await m.evidence.create({
			_id: "f1",
			tenant_id: "t1",
			opportunity_id: "o1",
			notice_id: "n1",
			verdict: "not_relevant",
			polarity: "negative",
			features: ["phrase|laboratory centrifuge", "issuing_body|ministry of health"],
			updated_at: new Date(),
		});

		const first = await rekeyPhrases(conn, m);
		expect(first.skipped).toBe(false);
		const rules = await m.rules.find({}, { key: 1, set_by: 1 }).sort({ _id: 1 }).lean();
		expect(rules.find((r) => r._id === "r1")?.key).toBe(phraseKey("laboratory centrifuges"));
		// r2 and r3 fold onto one key: the person's rule stays.
		expect(rules.filter((r) => r.key === phraseKey("battery chargers")).map((r) => r._id)).toEqual(["r3"]);
		expect(rules.find((r) => r._id === "r4")?.key).toBe("ministry of health");
		const ev = await m.evidence.findById("f1").lean();
		expect(ev?.features).toEqual([`phrase|${phraseKey("laboratory centrifuges")}`, "issuing_body|ministry of health"]);

		expect((await rekeyPhrases(conn, m)).skipped).toBe(true);
	});
});
