import type { Connection } from "mongoose";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { callInternal, internalAction, operationAction, type Caller, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import type { UpdateNotificationSettingsBody } from "../../shared/contract/settings.ts";
import { getNotificationSettings, updateNotificationSettings } from "../../shared/contract/settings-operations.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import { QUEUES, keepScheduled, payloadOf, scheduled, startWorker } from "../../shared/queue.ts";
import { JOBS } from "../../shared/contract/internal/queue-jobs.ts";
import { previewDigest, runDigest } from "./delivery.ts";
import { closeMailer } from "./mailer.ts";
import { notificationModels, type NotificationModels } from "./models.ts";
import { queueDueDigests } from "./scheduler.ts";
import { ensureSettings, getSettings, updateSettings } from "./settings.ts";

// notifications: each company's digest settings and the scheduled digest email.

interface State extends Record<string, any> {
	conn: Connection;
	m: NotificationModels;
	worker?: ReturnType<typeof startWorker>;
	stopScheduling?: () => void;
}

const contact = (caller: Caller, tenantId: string) => callInternal(caller, "auth-keys.contactEmail", { tenantId });

/** Every company gets default settings (and so digest slots) without having to change them. */
async function ensureAllSettings(m: NotificationModels, caller: Caller): Promise<number> {
	let after = "";
	let created = 0;
	for (;;) {
		const { ids } = await callInternal(caller, "auth-keys.tenantIds", { after, limit: 1000 });
		if (ids.length === 0) return created;
		created += await ensureSettings(m, ids);
		after = ids[ids.length - 1]!;
	}
}

/** How long the settings job waits for auth-keys to join before it fails (and runs again on schedule). */
const AUTH_KEYS_WAIT_MS = 60_000;

export const NotificationsService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "notifications",

	actions: {
		getSettings: operationAction(getNotificationSettings, async function (this: State, ctx: OpContext) {
			const { tenantId } = requireAuth(ctx);
			return getSettings(this.m, tenantId, (await contact(ctx, tenantId)).email);
		}),
		updateSettings: operationAction(
			updateNotificationSettings,
			async function (this: State, ctx: OpContext<{ body: UpdateNotificationSettingsBody }>) {
				const { tenantId } = requireAuth(ctx);
				return updateSettings(this.m, tenantId, ctx.params.body, (await contact(ctx, tenantId)).email);
			},
		),

		// --- Internal: the scheduler's steps, callable on their own (tests control time through `now`,
		// and keep to their own company with `tenantId`, since other files' companies share the cluster)
		queueDueDigests: internalAction("notifications.queueDueDigests", function (this: State, ctx) {
			return queueDueDigests(this.m, ctx.params.now ? new Date(ctx.params.now) : new Date(), ctx.params.tenantId);
		}),
		runDigest: internalAction("notifications.runDigest", async function (this: State, ctx) {
			const { tenantId, slot } = ctx.params;
			return { outcome: await runDigest(this.m, ctx, tenantId, new Date(slot), (await contact(ctx, tenantId)).name) };
		}),
		ensureSettings: internalAction("notifications.ensureSettings", function (this: State) {
			return ensureAllSettings(this.m, this.broker);
		}),
		previewDigest: internalAction("notifications.previewDigest", async function (this: State, ctx) {
			return previewDigest(this.m, ctx, ctx.params.tenantId, (await contact(ctx, ctx.params.tenantId)).name);
		}),
	},

	async started(this: State) {
		this.conn = await connectServiceDb("notifications");
		this.m = notificationModels(this.conn);
		await syncIndexes(this.conn);
		if (config().WORKERS === "off") return;
		const broker = this.broker as unknown as Caller;
		this.worker = startWorker(QUEUES.digests, async (job) => {
			switch (job.name) {
				case JOBS.digestTick.name:
					return queueDueDigests(this.m);
				case JOBS.ensureSettings.name:
					// At a cluster's start this runs as soon as notifications is up, often before auth-keys has joined.
					await this.broker.waitForServices(["auth-keys"], AUTH_KEYS_WAIT_MS);
					return ensureAllSettings(this.m, broker);
				case JOBS.sendDigest.name: {
					const { tenantId, slot } = payloadOf(JOBS.sendDigest, job);
					return runDigest(this.m, broker, tenantId, new Date(slot), (await contact(broker, tenantId)).name);
				}
				default:
					throw new Error(`unknown digest job ${job.name}`);
			}
		});
		// A digest that keeps failing is reported, never dropped silently.
		this.worker.worker.on("failed", (job, err) => {
			if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
				this.logger.error({ job: job.name, data: job.data, err: err.message }, "digest job failed after its last attempt");
		});
		this.stopScheduling = await keepScheduled(QUEUES.digests, [
			scheduled(JOBS.digestTick, { id: "digest-tick", everyMs: config().DIGEST_TICK_MS, data: {} }),
			scheduled(JOBS.ensureSettings, { id: "ensure-settings", everyMs: 10 * 60_000, data: {} }),
		]);
	},

	async stopped(this: State) {
		this.stopScheduling?.();
		await this.worker?.close();
		closeMailer();
		await this.conn?.close();
	},
};

export default NotificationsService;
