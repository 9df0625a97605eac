import { iso } from "../../shared/contract/common.ts";
import {
	DEFAULT_NOTIFICATION_SETTINGS,
	type NotificationSettings,
	type UpdateNotificationSettingsBody,
} from "../../shared/contract/settings.ts";
import type { NotificationModels, SettingsDoc } from "./models.ts";
import { nextDigestAt } from "./schedule.ts";

// Reading and changing a company's digest settings. A company that never changed them has
// the defaults; the first change stores a full document.

type Stored = Omit<NotificationSettings, "effective_recipients" | "last_digest_sent_at" | "next_digest_at"> & {
	last_digest_sent_at: Date | null;
	/** The scheduler's next slot once a document exists (it may be a missed slot still to send). */
	next_digest_at?: Date | null;
};

export async function storedSettings(m: NotificationModels, tenantId: string): Promise<Stored> {
	const doc = await m.settings.findById(tenantId).lean<SettingsDoc>();
	if (!doc)
		return {
			...DEFAULT_NOTIFICATION_SETTINGS,
			digest_days: [...DEFAULT_NOTIFICATION_SETTINGS.digest_days],
			notification_emails: [],
			last_digest_sent_at: null,
		};
	return {
		digest_days: doc.digest_days,
		digest_hour: doc.digest_hour,
		digest_tz: doc.digest_tz,
		digest_min_score: doc.digest_min_score,
		digest_max_items: doc.digest_max_items,
		notification_emails: doc.notification_emails ?? [], // an upsert may store no empty list
		amendment_notification_policy: doc.amendment_notification_policy as Stored["amendment_notification_policy"],
		last_digest_sent_at: doc.last_digest_sent_at ?? null,
		next_digest_at: doc.next_digest_at ?? null,
	};
}

export function present(s: Stored, contactEmail: string | null, now = new Date()): NotificationSettings {
	const { last_digest_sent_at, next_digest_at, ...rest } = s;
	return {
		...rest,
		effective_recipients: s.notification_emails.length ? s.notification_emails : contactEmail ? [contactEmail] : [],
		last_digest_sent_at: iso(last_digest_sent_at),
		next_digest_at: iso(next_digest_at === undefined ? nextDigestAt(s, now) : next_digest_at),
	};
}

export async function getSettings(m: NotificationModels, tenantId: string, contactEmail: string | null): Promise<NotificationSettings> {
	return present(await storedSettings(m, tenantId), contactEmail);
}

/** Tries at writing the next slot before leaving it to the change that overtook this one. */
const NEXT_SLOT_TRIES = 5;

/**
 * Applies a partial change: only the fields sent are written (so two concurrent changes of
 * different fields both stand), defaults fill a first document; the next slot follows.
 */
export async function updateSettings(
	m: NotificationModels,
	tenantId: string,
	body: UpdateNotificationSettingsBody,
	contactEmail: string | null,
): Promise<NotificationSettings> {
	const now = new Date();
	const defaults = Object.fromEntries(Object.entries(DEFAULT_NOTIFICATION_SETTINGS).filter(([k]) => !(k in body)));
	await m.settings.updateOne(
		{ _id: tenantId },
		{ $set: { ...body, updated_at: now }, $setOnInsert: defaults, $inc: { rev: 1 } },
		{ upsert: true },
	);
	await writeNextSlot(m, tenantId, now);
	return present(await storedSettings(m, tenantId), contactEmail, now);
}

/**
 * Writes the next slot of the settings as stored, only while they are still as read (`rev`).
 * When another change lands in between, this write does nothing and is tried again on what is
 * stored then; the other change writes its own slot after its change too, so the last slot
 * written is always computed from the last settings.
 */
async function writeNextSlot(m: NotificationModels, tenantId: string, now: Date): Promise<void> {
	for (let i = 0; i < NEXT_SLOT_TRIES; i++) {
		const doc = await m.settings.findById(tenantId).lean<SettingsDoc>();
		if (!doc) return;
		const r = await m.settings.updateOne({ _id: tenantId, rev: doc.rev ?? null }, { $set: { next_digest_at: nextDigestAt(doc, now) } });
		if (r.matchedCount > 0) return;
	}
}

/** Gives every company without settings its default document, so its digest gets a slot. */
export async function ensureSettings(m: NotificationModels, tenantIds: string[], now = new Date()): Promise<number> {
	const have = new Set((await m.settings.find({ _id: { $in: tenantIds } }, { _id: 1 }).lean()).map((d) => d._id));
	let created = 0;
	for (const id of tenantIds.filter((t) => !have.has(t))) {
		const defaults = { ...DEFAULT_NOTIFICATION_SETTINGS, digest_days: [...DEFAULT_NOTIFICATION_SETTINGS.digest_days] };
		const r = await m.settings.updateOne(
			{ _id: id },
			{ $setOnInsert: { ...defaults, next_digest_at: nextDigestAt(defaults, now), updated_at: now } },
			{ upsert: true },
		);
		created += r.upsertedCount;
	}
	return created;
}
