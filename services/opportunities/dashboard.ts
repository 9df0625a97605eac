import type { Dashboard } from "../../shared/contract/opportunities.ts";
import { OPPORTUNITY_STATUSES } from "../../shared/contract/opportunities.ts";
import type { OpportunityModels } from "./models.ts";
import { SCORE_BANDS } from "./records.ts";

// GET /dashboard: counts with $match + $group ($sum only), the rest in TypeScript.

const DAY = 24 * 3600_000;

export async function dashboard(m: OpportunityModels, tenantId: string, lastIngestion: Dashboard["last_ingestion"]): Promise<Dashboard> {
	const now = new Date();
	const live = { tenant_id: tenantId, supported: true, archived_at: null };
	const [byStatus, byBand, archived, next7, next30] = await Promise.all([
		m.opportunities.aggregate<{ _id: string; n: number }>([{ $match: live }, { $group: { _id: "$status", n: { $sum: 1 } } }]),
		m.opportunities.aggregate<{ _id: string; n: number }>([{ $match: live }, { $group: { _id: "$score_band", n: { $sum: 1 } } }]),
		m.opportunities.countDocuments({ tenant_id: tenantId, supported: true, archived_at: { $ne: null } }),
		upcoming(m, tenantId, now, 7),
		upcoming(m, tenantId, now, 30),
	]);
	const counts = <K extends string>(keys: readonly K[], rows: Array<{ _id: string; n: number }>) =>
		Object.fromEntries(keys.map((k) => [k, rows.find((r) => r._id === k)?.n ?? 0])) as Record<K, number>;
	return {
		counts_by_status: counts(OPPORTUNITY_STATUSES, byStatus),
		archived,
		counts_by_score_band: counts(SCORE_BANDS, byBand),
		upcoming_deadlines: { next_7_days: next7, next_30_days: next30 },
		last_ingestion: lastIngestion,
		generated_at: now.toISOString(),
	};
}

function upcoming(m: OpportunityModels, tenantId: string, now: Date, days: number): Promise<number> {
	return m.opportunities.countDocuments({
		tenant_id: tenantId,
		supported: true,
		archived_at: null,
		status: { $in: ["new", "notified", "interested"] },
		deadline: { $gte: now, $lte: new Date(now.getTime() + days * DAY) },
	});
}
