import type { Connection } from "mongoose";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { internalAction, operationAction, type Caller, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import { redisClaims, type Claims } from "../../shared/claims.ts";
import { config } from "../../shared/config.ts";
import { listRules, updateRule } from "../../shared/contract/settings-operations.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import { BULK_PRIORITY, QUEUES, payloadOf, startWorker } from "../../shared/queue.ts";
import { JOBS } from "../../shared/contract/internal/queue-jobs.ts";
import { MatchingEngine } from "./engine.ts";
import { warmMatchingMethod } from "./method/index.ts";
import { dropRetiredMatchingIndexes, matchingModels, type MatchingModels } from "./models.ts";
import { rekeyPhrases } from "./rules/rekey.ts";
import { LearnedRules } from "./rules/actions.ts";

// matching: consumes the catalog's indexing requests and ingestion's matching requests (both
// durable), runs staged matching and writes each company's opportunities; learns rules from
// feedback verdicts (durable too) and applies them when scoring (rules/).

interface State extends Record<string, any> {
	conn: Connection;
	m: MatchingModels;
	engine: MatchingEngine;
	claims: Claims;
	rules: LearnedRules;
	workers: Array<ReturnType<typeof startWorker>>;
}

/** How long a worker holds backlog products it took: longer than a batch takes under load; a dead worker's expire. */
const BACKLOG_LEASE_MS = 120_000;

export const MatchingService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "matching",

	actions: {
		listRules: operationAction(listRules, function (this: State, ctx: OpContext) {
			return this.rules.list(requireAuth(ctx).tenantId);
		}),
		updateRule: operationAction(updateRule, function (this: State, ctx: OpContext<{ id: string; body: { active: boolean } }>) {
			return this.rules.update(requireAuth(ctx).tenantId, ctx.params.id, ctx.params.body.active);
		}),

		// --- Internal: the jobs' work, callable directly by tests and operators
		matchProduct: internalAction("matching.matchProduct", function (this: State, ctx) {
			return this.engine.onProduct(ctx.params.tenantId, ctx.params.productId, ctx.params.version);
		}),
		matchNotice: internalAction("matching.matchNotice", function (this: State, ctx) {
			return this.engine.onNotice(ctx.params.noticeId);
		}),
		learnFeedback: internalAction("matching.learnFeedback", function (this: State, ctx) {
			return this.rules.learn(ctx.params);
		}),
		rescoreTenant: internalAction("matching.rescoreTenant", function (this: State, ctx) {
			return this.engine.rescoreTenant(ctx.params.tenantId);
		}),
	},

	async started(this: State) {
		this.conn = await connectServiceDb("matching");
		this.m = matchingModels(this.conn);
		await syncIndexes(this.conn);
		await dropRetiredMatchingIndexes(this.m);
		const rekeyed = await rekeyPhrases(this.conn, this.m);
		if (!rekeyed.skipped) this.logger.info(rekeyed, "learned phrase keys rewritten to the current stems");
		this.claims = redisClaims("matching-backlog", BACKLOG_LEASE_MS);
		this.engine = new MatchingEngine(this.m, this.broker as unknown as Caller, this.claims);
		await this.engine.sync();
		this.rules = new LearnedRules(this.m, this.engine, this.broker as unknown as Caller, this.logger);
		this.workers = [];
		if (config().WORKERS === "off") return;
		// The label tables the method builds on first use: paid here, not by the first match a worker runs.
		warmMatchingMethod();
		this.rules.outbox.startReconciler(config().OUTBOX_RECONCILE_MS, (e) => this.logger.warn({ err: e }, "rescore reconcile failed"));
		this.workers.push(
			startWorker(QUEUES.productIndex, async (job) => {
				const { tenantId, productId, version } = payloadOf(JOBS.indexProduct, job);
				return this.engine.onProduct(tenantId, productId, version, job.opts.priority === BULK_PRIORITY);
			}),
			startWorker(QUEUES.noticeMatch, async (job) => this.engine.onNotice(payloadOf(JOBS.matchNotice, job).noticeId)),
			startWorker(QUEUES.feedbackLearn, async (job) => this.rules.process(job)),
		);
		for (const w of this.workers)
			w.worker.on("failed", (job, err) =>
				this.logger.warn({ queue: w.worker.name, job: job?.id, err: err.message }, "matching job failed"),
			);
	},

	async stopped(this: State) {
		await this.rules?.outbox.stopReconciler();
		await Promise.all((this.workers ?? []).map((w) => w.close()));
		this.claims?.close();
		await this.conn?.close();
	},
};

export default MatchingService;
