import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";

// The notifications service's own collections: each company's digest settings.

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
	},
	{ versionKey: false },
);
SettingsSchema.index({ next_digest_at: 1 });

export type SettingsDoc = InferSchemaType<typeof SettingsSchema> & { _id: string };

export interface NotificationModels {
	settings: Model<SettingsDoc>;
}

export function notificationModels(conn: Connection): NotificationModels {
	return { settings: conn.model("NotificationSettings", SettingsSchema, "settings") };
}
