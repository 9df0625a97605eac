import type { OpportunityModels } from "./models.ts";

// Deadlines pass: notices still open past their deadline are closed at the source, and the
// opportunities nobody acted on (new or only notified) expire. Idempotent, run on a schedule.

export async function closePastDeadlines(m: OpportunityModels, now = new Date()): Promise<{ notices: number; opportunities: number }> {
	const past = await m.notices
		.find({ source_status: "open", deadline: { $ne: null, $lt: now } }, { _id: 1 })
		.limit(5000)
		.lean();
	if (past.length === 0) return { notices: 0, opportunities: 0 };
	const ids = past.map((n) => n._id);
	const notices = await m.notices.updateMany(
		{ _id: { $in: ids }, source_status: "open" },
		{ $set: { source_status: "closed", updated_at: now } },
	);
	await m.opportunities.updateMany({ notice_id: { $in: ids } }, { $set: { source_status: "closed", updated_at: now } });
	const expired = await m.opportunities.updateMany(
		{ notice_id: { $in: ids }, status: { $in: ["new", "notified"] } },
		{ $set: { status: "expired", updated_at: now } },
	);
	return { notices: notices.modifiedCount, opportunities: expired.modifiedCount };
}
