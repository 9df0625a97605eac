// Why: learned phrase rules and the evidence behind them are keyed by stems. When the stemmer
// changed (issue 16: shared/text's Snowball stems replaced a hand-written plural folding), keys
// stored before would never meet a notice again and a company's learned rules would silently stop
// working. This rewrites them once per database, marked done in `migrations`.
import type { Connection } from "mongoose";
import { phraseKey } from "./features.ts";
import type { RuleModels } from "./models.ts";

// Renamed whenever the stems change (the second: words folded before stemming), so stored keys are rewritten again.
const MIGRATION_ID = "phrase-keys-snowball-folded";
const PHRASE = "phrase|";

interface MigrationDoc {
	_id: string;
	done_at: Date;
}

const isDuplicateKey = (e: unknown): boolean => (e as { code?: number } | null)?.code === 11000;

/** Rewrites stored phrase keys to the current stems; returns how many rules and evidence documents changed. */
export async function rekeyPhrases(conn: Connection, m: RuleModels): Promise<{ rules: number; evidence: number; skipped: boolean }> {
	const migrations = conn.collection<MigrationDoc>("migrations");
	if (await migrations.findOne({ _id: MIGRATION_ID })) return { rules: 0, evidence: 0, skipped: true };
	let rules = 0;
	// A rule's label holds the words as the title wrote them: its new key is exact.
	for (const rule of await m.rules.find({ rule_type: "phrase" }, { _id: 1, key: 1, label: 1, set_by: 1, tenant_id: 1 }).lean()) {
		const key = phraseKey(rule.label.toLowerCase());
		if (key === rule.key) continue;
		try {
			await m.rules.updateOne({ _id: rule._id }, { $set: { key } });
			rules++;
		} catch (e) {
			if (!isDuplicateKey(e)) throw e;
			// Two old keys fold to one new key ("battery" and "batteries" were apart): keep the one a person set, else the first.
			const other = await m.rules.findOne({ tenant_id: rule.tenant_id, rule_type: "phrase", key }, { set_by: 1 }).lean();
			if (rule.set_by === "person" && other?.set_by !== "person") {
				await m.rules.deleteOne({ _id: other?._id });
				await m.rules.updateOne({ _id: rule._id }, { $set: { key } });
			} else await m.rules.deleteOne({ _id: rule._id });
			rules++;
		}
	}
	// Evidence keeps only keys; the old stems were the words with plural endings folded, which the
	// current stemmer folds to the same stems as the words themselves.
	let evidence = 0;
	for (const doc of await m.evidence.find({ features: { $regex: /^phrase\|/ } }, { _id: 1, features: 1 }).lean()) {
		const features = [...new Set(doc.features.map((f) => (f.startsWith(PHRASE) ? PHRASE + phraseKey(f.slice(PHRASE.length)) : f)))];
		if (features.length === doc.features.length && features.every((f, i) => f === doc.features[i])) continue;
		await m.evidence.updateOne({ _id: doc._id }, { $set: { features } });
		evidence++;
	}
	await migrations.updateOne({ _id: MIGRATION_ID }, { $setOnInsert: { done_at: new Date() } }, { upsert: true });
	return { rules, evidence, skipped: false };
}
