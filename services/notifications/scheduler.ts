import { JOBS } from "../../shared/contract/internal/queue-jobs.ts";
import { enqueueJob } from "../../shared/queue.ts";
import type { NotificationModels, SettingsDoc } from "./models.ts";
import { nextDigestAt } from "./schedule.ts";

// Every tick: each company whose slot has come gets one digest job for that slot (the job id
// names company and slot, so two schedulers or a repeated tick add it once), then its next
// slot is written (only by whoever still sees the old slot and the settings as read).

export async function queueDueDigests(m: NotificationModels, now = new Date(), tenantId?: string): Promise<number> {
	const due = await m.settings
		.find({ ...(tenantId ? { _id: tenantId } : {}), next_digest_at: { $ne: null, $lte: now } })
		.limit(1000)
		.lean<SettingsDoc[]>();
	let queued = 0;
	for (const s of due) {
		const slot = s.next_digest_at!;
		const retries = { attempts: 6, backoff: { type: "exponential", delay: 30_000 } };
		if (!(await enqueueJob(JOBS.sendDigest, { tenantId: s._id, slot: slot.toISOString() }, `digest_${s._id}_${slot.getTime()}`, retries)))
			continue;
		// A slot missed while the service was down is sent once, then the schedule resumes from now.
		const after = new Date(Math.max(slot.getTime(), now.getTime()));
		// Only while the settings are as read: a change that landed meanwhile writes its own next slot.
		await m.settings.updateOne(
			{ _id: s._id, next_digest_at: slot, rev: s.rev ?? null },
			{ $set: { next_digest_at: nextDigestAt(s, after) } },
		);
		queued++;
	}
	return queued;
}
