import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";

// The notifications service's own collections: each company's digest settings and deliveries.

const SettingsSchema = new Schema(
	{
		_id: { type: String, required: true }, // the tenant id: one settings document per company
		digest_days: { type: [Number], required: true },
		digest_hour: { type: Number, required: true },
		digest_tz: { type: String, required: true },
		digest_min_score: { type: Number, required: true },
		digest_max_items: { type: Number, required: true },
		notification_emails: { type: [String], default: [] },
		amendment_notification_policy: { type: String, required: true },
		last_digest_sent_at: { type: Date, default: null },
		next_digest_at: { type: Date, default: null },
		updated_at: { type: Date, required: true },
		/**
		 * Raised by every change of the settings: next_digest_at is written only while it is still
		 * the one read, so a slot computed from settings another change replaced never lands last.
		 * No default (an upsert's defaults would clash with its $inc); absent on older documents.
		 */
		rev: { type: Number },
	},
	{ versionKey: false },
);
SettingsSchema.index({ next_digest_at: 1 });

/**
 * One record per (company, slot), written before anything is sent: the slot's content is
 * frozen in it and its state says how far delivery got, so a retried or duplicated job never
 * sends the same slot twice.
 */
const DeliverySchema = new Schema(
	{
		_id: { type: String, required: true }, // `${tenantId}|${slot ms}`
		tenant_id: { type: String, required: true },
		slot: { type: Date, required: true },
		state: { type: String, required: true, enum: ["pending", "sending", "sent", "empty", "failed", "uncertain"] },
		items: { type: [Schema.Types.Mixed], default: [] },
		updated: { type: [Schema.Types.Mixed], default: [] },
		recipients: { type: [String], default: [] },
		attempts: { type: Number, default: 0 },
		last_error: { type: String, default: null },
		sending_until: { type: Date, default: null },
		message_id: { type: String, default: null },
		sent_at: { type: Date, default: null },
		/** Set once the opportunities were marked notified (after a successful send). */
		recorded_at: { type: Date, default: null },
		created_at: { type: Date, required: true },
	},
	{ versionKey: false, minimize: false },
);
DeliverySchema.index({ tenant_id: 1, slot: -1 });

export type SettingsDoc = InferSchemaType<typeof SettingsSchema> & { _id: string };
export type DeliveryDoc = InferSchemaType<typeof DeliverySchema> & { _id: string };

export interface NotificationModels {
	settings: Model<SettingsDoc>;
	deliveries: Model<DeliveryDoc>;
}

export function notificationModels(conn: Connection): NotificationModels {
	return {
		settings: conn.model("NotificationSettings", SettingsSchema, "settings"),
		deliveries: conn.model("Delivery", DeliverySchema, "deliveries"),
	};
}
