import type { Connection } from "mongoose";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { z } from "zod";
import { notBuiltYet, validatedAction, type OpContext } from "../../shared/actions.ts";
import { config } from "../../shared/config.ts";
import { listRules, updateRule } from "../../shared/contract/settings-operations.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import { QUEUES, startWorker } from "../../shared/queue.ts";
import { MatchingEngine, type Caller } from "./engine.ts";
import { matchingModels, type MatchingModels } from "./models.ts";

// matching: consumes the catalog's indexing requests and ingestion's matching requests (both
// durable), runs staged matching and writes each company's opportunities. Learned rules come
// next (their routes still answer not_found; feedback requests wait in their queue meanwhile).

interface State extends Record<string, any> {
	conn: Connection;
	m: MatchingModels;
	engine: MatchingEngine;
	workers: Array<ReturnType<typeof startWorker>>;
}

const ProductJob = z.object({ tenantId: z.uuid(), productId: z.uuid(), version: z.string().min(1).max(64) });
const NoticeJob = z.object({ noticeId: z.uuid(), version: z.string().max(64).optional() });

export const MatchingService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "matching",

	actions: {
		listRules: notBuiltYet(listRules),
		updateRule: notBuiltYet(updateRule),

		// --- Internal: the jobs' work, callable directly by tests and operators
		matchProduct: validatedAction(ProductJob.strict(), function (this: State, ctx: OpContext<z.infer<typeof ProductJob>>) {
			return this.engine.onProduct(ctx.params.tenantId, ctx.params.productId, ctx.params.version);
		}),
		matchNotice: validatedAction(NoticeJob.strict(), function (this: State, ctx: OpContext<z.infer<typeof NoticeJob>>) {
			return this.engine.onNotice(ctx.params.noticeId);
		}),
	},

	async started(this: State) {
		this.conn = await connectServiceDb("matching");
		this.m = matchingModels(this.conn);
		await syncIndexes(this.conn);
		this.engine = new MatchingEngine(this.m, this.broker as unknown as Caller);
		await this.engine.sync();
		this.workers = [];
		if (config().WORKERS === "off") return;
		this.workers.push(
			startWorker(QUEUES.productIndex, async (job) => {
				const { tenantId, productId, version } = ProductJob.parse(job.data);
				return this.engine.onProduct(tenantId, productId, version);
			}),
			startWorker(QUEUES.noticeMatch, async (job) => this.engine.onNotice(NoticeJob.parse(job.data).noticeId)),
		);
		for (const w of this.workers) w.worker.on("failed", (job, err) => this.logger.warn({ queue: w.worker.name, job: job?.id, err: err.message }, "matching job failed"));
	},

	async stopped(this: State) {
		await Promise.all((this.workers ?? []).map((w) => w.close()));
		await this.conn?.close();
	},
};

export default MatchingService;
