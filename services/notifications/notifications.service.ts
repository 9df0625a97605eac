import type { Connection } from "mongoose";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { operationAction, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import type { UpdateNotificationSettingsBody } from "../../shared/contract/settings.ts";
import { getNotificationSettings, updateNotificationSettings } from "../../shared/contract/settings-operations.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import { notificationModels, type NotificationModels } from "./models.ts";
import { getSettings, updateSettings } from "./settings.ts";

// notifications: each company's digest settings (the scheduled digest email comes with issue 6).

interface State extends Record<string, any> {
	conn: Connection;
	m: NotificationModels;
}

/** The account contact email: where the digest goes when no recipient is configured. */
async function contactEmail(ctx: OpContext, tenantId: string): Promise<string | null> {
	return (await ctx.call<{ email: string | null }, { tenantId: string }>("auth-keys.contactEmail", { tenantId })).email;
}

export const NotificationsService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "notifications",

	actions: {
		getSettings: operationAction(getNotificationSettings, async function (this: State, ctx: OpContext) {
			const { tenantId } = requireAuth(ctx);
			return getSettings(this.m, tenantId, await contactEmail(ctx, tenantId));
		}),
		updateSettings: operationAction(updateNotificationSettings, async function (this: State, ctx: OpContext<{ body: UpdateNotificationSettingsBody }>) {
			const { tenantId } = requireAuth(ctx);
			return updateSettings(this.m, tenantId, ctx.params.body, await contactEmail(ctx, tenantId));
		}),
	},

	async started(this: State) {
		this.conn = await connectServiceDb("notifications");
		this.m = notificationModels(this.conn);
		await syncIndexes(this.conn);
	},

	async stopped(this: State) {
		await this.conn?.close();
	},
};

export default NotificationsService;
