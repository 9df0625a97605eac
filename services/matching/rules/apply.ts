import type { Signals } from "../../../shared/contract/opportunities.ts";
import type { NoticeView, RationaleEntry } from "../method/types.ts";
import { featureId, noticeFeatureIds, type FeatureInput } from "./features.ts";
import type { RuleModels } from "./models.ts";

// What an active rule does to a score. Applied by the engine each time it scores a company
// against a notice, after eligibility, from the rules stored at that moment: nothing of a rule's
// effect is stored apart from the result, so re-scoring after a rule is switched off gives back
// exactly the matcher's score.

/**
 * The score of a notice that active rules apply to is multiplied by this, however many apply:
 * a learned dislike halves a match (a 90 drops under the default digest threshold of 60) but
 * never hides it, and several rules on one notice are one reason, not a compounding penalty.
 */
export const RULE_FACTOR = 0.5;

export interface ActiveRule {
	id: string;
	rule_type: string;
	key: string;
	description: string;
}

export interface RuleEffect {
	score: number;
	/** One `learned_rule` entry per applied rule; the first carries the change, the others 0. */
	notes: RationaleEntry[];
	applied: ActiveRule[];
}

export function applyRules(score: number, features: ReadonlySet<string>, rules: readonly ActiveRule[]): RuleEffect {
	const applied = rules.filter((r) => features.has(featureId({ type: r.rule_type, key: r.key })));
	if (applied.length === 0) return { score, notes: [], applied };
	const lowered = Math.round(score * RULE_FACTOR);
	const notes = applied.map((r, i) => ({ feature: "learned_rule", points: i === 0 ? lowered - score : 0, detail: r.description }));
	return { score: lowered, notes, applied };
}

/** The features input of a notice as matching stores it (its view and extracted signals). */
export function viewFeatures(view: NoticeView, signals: Signals | null): FeatureInput {
	return {
		issuing_body: view.issuingBody,
		title: view.title,
		categories: view.categories,
		bid_eligibility: signals?.bid_eligibility ?? null,
		procurement_nature: signals?.procurement_nature ?? view.procurementNature ?? null,
	};
}

export const viewFeatureIds = (view: NoticeView, signals: Signals | null): Set<string> => noticeFeatureIds(viewFeatures(view, signals));

/** The company's active rules, oldest first (so a rationale lists them in a stable order). */
export async function activeRules(m: RuleModels, tenantId: string): Promise<ActiveRule[]> {
	const docs = await m.rules
		.find({ tenant_id: tenantId, active: true }, { rule_type: 1, key: 1, description: 1, created_at: 1 })
		.sort({ created_at: 1, _id: 1 })
		.lean();
	return docs.map((d) => ({ id: d._id, rule_type: d.rule_type, key: d.key, description: d.description }));
}
