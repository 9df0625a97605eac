import { config } from "../../shared/config.ts";
import type { DigestOutcome } from "../../shared/contract/internal/notifications-actions.ts";
import { isDuplicateKeyError } from "../../shared/mongo.ts";
import { sendMail } from "./mailer.ts";
import type { DeliveryDoc, NotificationModels } from "./models.ts";
import { renderHtml, renderText, subject, type DigestContent } from "./render.ts";
import { storedSettings } from "./settings.ts";
import { callInternal, type Caller } from "../../shared/actions.ts";

// Sending one company's digest for one slot, at most once. The delivery record is written
// (content frozen) before anything is sent; `sending` is claimed with a lease before the SMTP
// call. A send the SMTP server refused returns to `failed` and the job is retried with backoff.
// Once the server accepted the message, only the `sent` record is retried, never the send: it is
// written with its own backoff, and if the store still refuses it the slot stays `sending`, so
// the lease keeps every other attempt off, and this process finishes the record on a later
// attempt. A process that dies mid-send (or before it could record) leaves `sending`: after the
// lease that slot becomes `uncertain` and is reported, never re-sent, because the mail may have
// gone out.

const LEASE_MS = 5 * 60_000;
/** Tries at writing `sent` after the SMTP server accepted (delays 100 ms doubling: about 3 s in all). */
const MARK_TRIES = 6;
const MARK_FIRST_DELAY_MS = 100;

export class RetryLater extends Error {}

interface Accepted {
	sent_at: Date;
	message_id: string;
}

/**
 * Sends the SMTP server accepted whose `sent` record could not be written yet, by delivery id.
 * A later attempt in this process writes the record instead of treating the slot as in doubt.
 */
const acceptedUnrecorded = new Map<string, Accepted>();

export const deliveryId = (tenantId: string, slot: Date) => `${tenantId}|${slot.getTime()}`;

/** What the company's next digest would carry now, and to whom. */
async function nextContent(m: NotificationModels, ctx: Caller, tenantId: string) {
	const s = await storedSettings(m, tenantId);
	const content = await callInternal(ctx, "opportunities.digestCandidates", {
		tenantId,
		minScore: s.digest_min_score,
		maxItems: s.digest_max_items,
		amendmentPolicy: s.amendment_notification_policy,
	});
	const recipients = s.notification_emails.length
		? s.notification_emails
		: [(await callInternal(ctx, "auth-keys.contactEmail", { tenantId })).email].filter((e): e is string => !!e);
	return { settings: s, content, recipients };
}

const mailContent = (companyName: string | null, items: unknown[], updated: unknown[], timeZone: string): DigestContent => ({
	companyName,
	items: items as DigestContent["items"],
	updated: updated as DigestContent["updated"],
	timeZone,
	portalUrl: config().PORTAL_URL || config().PUBLIC_URL,
});

/** The next digest as it would be sent now, without sending or recording anything. */
export async function previewDigest(m: NotificationModels, ctx: Caller, tenantId: string, companyName: string | null) {
	const { settings, content, recipients } = await nextContent(m, ctx, tenantId);
	const c = mailContent(companyName, content.items, content.updated, settings.digest_tz);
	return {
		recipients,
		subject: subject(c),
		html: renderHtml(c),
		text: renderText(c),
		items: content.items.length,
		updated: content.updated.length,
	};
}

/** The slot's content: taken once, then read back from the record on every retry. */
async function frozenDelivery(m: NotificationModels, ctx: Caller, tenantId: string, slot: Date): Promise<DeliveryDoc> {
	const id = deliveryId(tenantId, slot);
	const existing = await m.deliveries.findById(id).lean<DeliveryDoc>();
	if (existing) return existing;
	const { content, recipients } = await nextContent(m, ctx, tenantId);
	const empty = content.items.length + content.updated.length === 0 || recipients.length === 0;
	try {
		return (
			await m.deliveries.create({
				_id: id,
				tenant_id: tenantId,
				slot,
				state: empty ? "empty" : "pending",
				items: content.items,
				updated: content.updated,
				recipients,
				created_at: new Date(),
			})
		).toObject() as DeliveryDoc;
	} catch (e) {
		if (isDuplicateKeyError(e)) return (await m.deliveries.findById(id).lean<DeliveryDoc>())!;
		throw e;
	}
}

/** Marks the slot's opportunities notified and the settings' last send (idempotent). */
async function record(m: NotificationModels, ctx: Caller, d: DeliveryDoc): Promise<void> {
	if (d.recorded_at) return;
	const ids = (xs: unknown[]) => xs.map((x) => (x as { id: string }).id);
	await callInternal(ctx, "opportunities.markNotified", {
		tenantId: d.tenant_id,
		newIds: ids(d.items),
		updatedIds: ids(d.updated),
		at: (d.sent_at ?? d.slot).toISOString(),
	});
	await m.settings.updateOne(
		{ _id: d.tenant_id, $or: [{ last_digest_sent_at: null }, { last_digest_sent_at: { $lt: d.sent_at } }] },
		{ $set: { last_digest_sent_at: d.sent_at } },
	);
	await m.deliveries.updateOne({ _id: d._id }, { $set: { recorded_at: new Date() } });
}

/** Runs a write until the store takes it, waiting a little longer after each refusal. */
async function withBackoff<T>(write: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await write();
		} catch (e) {
			if (attempt >= MARK_TRIES) throw e;
			await new Promise((r) => setTimeout(r, MARK_FIRST_DELAY_MS * 2 ** (attempt - 1)));
		}
	}
}

/** Records a send the SMTP server accepted (an `uncertain` slot too: this process knows), then its effects. */
async function recordAccepted(m: NotificationModels, ctx: Caller, id: string, accepted: Accepted): Promise<"sent" | "already_sent"> {
	let marked;
	try {
		marked = await withBackoff(() =>
			m.deliveries.updateOne(
				{ _id: id, state: { $in: ["sending", "uncertain"] } },
				{ $set: { state: "sent", sent_at: accepted.sent_at, message_id: accepted.message_id, last_error: null, sending_until: null } },
			),
		);
	} catch (e) {
		throw new Error(`the digest was sent but could not be recorded; it will not be sent again: ${(e as Error).message}`, { cause: e });
	}
	acceptedUnrecorded.delete(id);
	await record(m, ctx, (await m.deliveries.findById(id).lean<DeliveryDoc>())!);
	return marked.modifiedCount ? "sent" : "already_sent";
}

export async function runDigest(
	m: NotificationModels,
	ctx: Caller,
	tenantId: string,
	slot: Date,
	companyName: string | null,
): Promise<DigestOutcome> {
	const d = await frozenDelivery(m, ctx, tenantId, slot);
	if (d.state === "empty") return "empty";
	if (d.state === "sent") {
		await record(m, ctx, d);
		return "already_sent";
	}
	const accepted = acceptedUnrecorded.get(d._id);
	if (accepted) return recordAccepted(m, ctx, d._id, accepted);
	if (d.state === "uncertain") return "uncertain";
	if (d.state === "sending") {
		if (d.sending_until && d.sending_until.getTime() > Date.now()) throw new RetryLater("another attempt is sending this digest");
		await m.deliveries.updateOne(
			{ _id: d._id, state: "sending" },
			{ $set: { state: "uncertain", last_error: "a send was interrupted; not re-sent to avoid a duplicate" } },
		);
		return "uncertain";
	}
	const claimed = await m.deliveries.updateOne(
		{ _id: d._id, state: { $in: ["pending", "failed"] } },
		{ $set: { state: "sending", sending_until: new Date(Date.now() + LEASE_MS) }, $inc: { attempts: 1 } },
	);
	if (claimed.modifiedCount === 0) throw new RetryLater("the delivery changed state meanwhile");

	const content = mailContent(companyName, d.items, d.updated, (await storedSettings(m, tenantId)).digest_tz);
	let messageId: string;
	try {
		const mail = { to: d.recipients, subject: subject(content), text: renderText(content), html: renderHtml(content) };
		messageId = await sendMail({ ...mail, messageId: `<digest.${tenantId}.${slot.getTime()}@oms>` });
	} catch (e) {
		await m.deliveries.updateOne(
			{ _id: d._id, state: "sending" },
			{ $set: { state: "failed", sending_until: null, last_error: String((e as Error).message).slice(0, 500) } },
		);
		throw e;
	}
	// From here on the mail is out: whatever fails, this slot is never claimed for sending again.
	const sent = { sent_at: new Date(), message_id: messageId };
	acceptedUnrecorded.set(d._id, sent);
	await recordAccepted(m, ctx, d._id, sent);
	return "sent";
}
