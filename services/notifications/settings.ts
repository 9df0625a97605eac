import { iso } from "../../shared/contract/common.ts";
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings, type UpdateNotificationSettingsBody } from "../../shared/contract/settings.ts";
import type { NotificationModels, SettingsDoc } from "./models.ts";
import { nextDigestAt } from "./schedule.ts";

// Reading and changing a company's digest settings. A company that never changed them has
// the defaults; the first change stores a full document.

type Stored = Omit<NotificationSettings, "effective_recipients" | "last_digest_sent_at" | "next_digest_at"> & {
	last_digest_sent_at: Date | null;
};

async function stored(m: NotificationModels, tenantId: string): Promise<Stored> {
	const doc = await m.settings.findById(tenantId).lean<SettingsDoc>();
	if (!doc) return { ...DEFAULT_NOTIFICATION_SETTINGS, digest_days: [...DEFAULT_NOTIFICATION_SETTINGS.digest_days], notification_emails: [], last_digest_sent_at: null };
	return {
		digest_days: doc.digest_days,
		digest_hour: doc.digest_hour,
		digest_tz: doc.digest_tz,
		digest_min_score: doc.digest_min_score,
		digest_max_items: doc.digest_max_items,
		notification_emails: doc.notification_emails,
		amendment_notification_policy: doc.amendment_notification_policy as Stored["amendment_notification_policy"],
		last_digest_sent_at: doc.last_digest_sent_at ?? null,
	};
}

export function present(s: Stored, contactEmail: string | null, now = new Date()): NotificationSettings {
	const { last_digest_sent_at, ...rest } = s;
	return {
		...rest,
		effective_recipients: s.notification_emails.length ? s.notification_emails : contactEmail ? [contactEmail] : [],
		last_digest_sent_at: iso(last_digest_sent_at),
		next_digest_at: iso(nextDigestAt(s, now)),
	};
}

export async function getSettings(m: NotificationModels, tenantId: string, contactEmail: string | null): Promise<NotificationSettings> {
	return present(await stored(m, tenantId), contactEmail);
}

/**
 * Applies a partial change: only the fields sent are written (so two concurrent changes of
 * different fields both stand), defaults fill a first document; the next slot follows.
 */
export async function updateSettings(m: NotificationModels, tenantId: string, body: UpdateNotificationSettingsBody, contactEmail: string | null): Promise<NotificationSettings> {
	const now = new Date();
	const defaults = Object.fromEntries(Object.entries(DEFAULT_NOTIFICATION_SETTINGS).filter(([k]) => !(k in body)));
	await m.settings.updateOne({ _id: tenantId }, { $set: { ...body, updated_at: now }, $setOnInsert: defaults }, { upsert: true });
	const next = await stored(m, tenantId);
	await m.settings.updateOne({ _id: tenantId }, { $set: { next_digest_at: nextDigestAt(next, now) } });
	return present(next, contactEmail, now);
}
