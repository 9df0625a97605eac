import { randomUUID } from "node:crypto";

// A learned rule as the matching service stores it, for tests that seed a company's rules
// directly (e.g. right up to the active-rule cap) instead of through many verdicts.
export function learnedRuleDoc(tenantId: string, i: number, active: boolean, now = Date.now()) {
	return {
		_id: randomUUID(),
		tenant_id: tenantId,
		rule_type: "issuing_body",
		key: `buyer ${i}`,
		label: `Buyer ${i}`,
		description: `Lower the score of notices from Buyer ${i}: 3 of your verdicts said not relevant`,
		evidence_count: 3,
		active,
		set_by: "learning",
		created_at: new Date(now - 100_000 + i * 1000),
		updated_at: new Date(now),
	};
}
