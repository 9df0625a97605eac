import type { Connection } from "mongoose";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { internalAction, operationAction, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import type { FeedbackBody, OpportunityListQuery } from "../../shared/contract/opportunities.ts";
import {
	archiveOpportunity,
	getDashboard,
	getOpportunity,
	listOpportunities,
	sendFeedback,
	unarchiveOpportunity,
} from "../../shared/contract/opportunities-operations.ts";
import { Admission } from "../../shared/admission.ts";
import { config } from "../../shared/config.ts";
import { notFound } from "../../shared/errors.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import { Outbox } from "../../shared/outbox.ts";
import { QUEUES, keepScheduled, payloadOf, scheduled, startWorker } from "../../shared/queue.ts";
import { JOBS, type LearnFeedbackJob, type MatchNoticeJob } from "../../shared/contract/internal/queue-jobs.ts";
import { closePastDeadlines } from "./expiry.ts";
import { dashboard } from "./dashboard.ts";
import { ingestNotice, lastIngestion, recordRun } from "./ingest.ts";
import { feedsFromEnv, poll, type FeedConfig } from "./pollers.ts";
import { digestCandidates, markNotified } from "./digest.ts";
import { feedbackForLearning } from "./learning.ts";
import { listOpportunities as list } from "./listing.ts";
import { recordMatch } from "./matches.ts";
import { opportunityModels, type FeedbackDoc, type NoticeDoc, type OpportunityModels } from "./models.ts";
import { noticeForMatching, noticeForReading, putNotice } from "./notices.ts";
import { findOwned, recordFeedback, setArchived, toFeedback } from "./pipeline.ts";
import { toDetail } from "./records.ts";

// opportunities: notices, each company's opportunities, archive, feedback and the dashboard.

interface State extends Record<string, any> {
	conn: Connection;
	m: OpportunityModels;
	noticeOutbox: Outbox<NoticeDoc, typeof MatchNoticeJob>;
	feedbackOutbox: Outbox<FeedbackDoc, typeof LearnFeedbackJob>;
	/** Its contract operations run to completion, a pool's worth at a time (shared/admission.ts). */
	admission: Admission;
	upkeep?: ReturnType<typeof startWorker>;
	stopScheduling?: () => void;
}

export const OpportunitiesService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "opportunities",

	actions: {
		// --- The contract's operations
		list: operationAction(listOpportunities, function (this: State, ctx: OpContext<OpportunityListQuery>) {
			return list(this.m, requireAuth(ctx).tenantId, ctx.params);
		}),
		get: operationAction(getOpportunity, async function (this: State, ctx: OpContext<{ id: string }>) {
			return toDetail(await findOwned(this.m, requireAuth(ctx).tenantId, ctx.params.id));
		}),
		archive: operationAction(archiveOpportunity, function (this: State, ctx: OpContext<{ id: string }>) {
			return setArchived(this.m, requireAuth(ctx).tenantId, ctx.params.id, true);
		}),
		unarchive: operationAction(unarchiveOpportunity, function (this: State, ctx: OpContext<{ id: string }>) {
			return setArchived(this.m, requireAuth(ctx).tenantId, ctx.params.id, false);
		}),
		sendFeedback: operationAction(sendFeedback, async function (this: State, ctx: OpContext<{ id: string; body: FeedbackBody }>) {
			const auth = requireAuth(ctx);
			const { feedback, status } = await recordFeedback(this.m, auth.tenantId, auth.userId, ctx.params.id, ctx.params.body);
			await this.feedbackOutbox.send(feedback);
			return toFeedback(feedback, status);
		}),
		dashboard: operationAction(getDashboard, async function (this: State, ctx: OpContext) {
			return dashboard(this.m, requireAuth(ctx).tenantId, await lastIngestion(this.m));
		}),

		// --- Internal: ingestion and matching write through these (never routed)
		putNotice: internalAction("opportunities.putNotice", async function (this: State, ctx) {
			const { notice, created, changed } = await putNotice(this.m, ctx.params);
			if (changed) await this.noticeOutbox.send(notice);
			return { id: notice._id, created, changed };
		}),
		ingestNotices: internalAction("opportunities.ingestNotices", async function (this: State, ctx) {
			const outcomes = [];
			for (const n of ctx.params.notices) {
				const { notice, ...o } = await ingestNotice(this.m, n);
				if (notice) await this.noticeOutbox.send(notice);
				outcomes.push({ ...o, source: n.source, source_id: n.source_id });
			}
			return { outcomes };
		}),
		recordIngestionRun: internalAction("opportunities.recordIngestionRun", async function (this: State, ctx) {
			await recordRun(this.m, ctx.params.source, ctx.params.outcome, ctx.params.summary);
			return { ok: true as const };
		}),
		recordMatch: internalAction("opportunities.recordMatch", function (this: State, ctx) {
			return recordMatch(this.m, ctx.params);
		}),
		askContext: internalAction("opportunities.askContext", async function (this: State, ctx) {
			const opp = await findOwned(this.m, ctx.params.tenantId, ctx.params.id);
			const notice = await this.m.notices.findById(opp.notice_id).lean<NoticeDoc>();
			return { opportunity: toDetail(opp), notice: notice ? noticeForReading(notice) : null };
		}),
		noticeForMatching: internalAction("opportunities.noticeForMatching", async function (this: State, ctx) {
			const n = await this.m.notices.findById(ctx.params.id).lean<NoticeDoc>();
			if (!n) throw notFound("Notice");
			return noticeForMatching(n);
		}),
		digestCandidates: internalAction("opportunities.digestCandidates", function (this: State, ctx) {
			return digestCandidates(this.m, ctx.params);
		}),
		markNotified: internalAction("opportunities.markNotified", async function (this: State, ctx) {
			await markNotified(this.m, ctx.params);
			return { ok: true as const };
		}),
		markNoticeMatched: internalAction("opportunities.markNoticeMatched", function (this: State, ctx) {
			return this.noticeOutbox.markDone(ctx.params.id, ctx.params.version);
		}),
		feedbackForLearning: internalAction("opportunities.feedbackForLearning", function (this: State, ctx) {
			return feedbackForLearning(this.m, ctx.params);
		}),
		markFeedbackLearned: internalAction("opportunities.markFeedbackLearned", function (this: State, ctx) {
			return this.feedbackOutbox.markDone(ctx.params.id, ctx.params.version);
		}),
		reconcileRequests: internalAction("opportunities.reconcileRequests", async function (this: State, ctx) {
			return {
				notices: await this.noticeOutbox.reconcile(ctx.params.graceMs),
				feedback: await this.feedbackOutbox.reconcile(ctx.params.graceMs),
			};
		}),
	},

	methods: {
		/** One poll of a configured feed: fetch, ingest, record the run (a failure on the last attempt is recorded as failed). */
		async pollFeed(this: State, feed: FeedConfig, lastAttempt: boolean) {
			try {
				const result = await poll(feed);
				const counts: Record<string, number> = { created: 0, updated: 0, unchanged: 0, stale: 0, duplicate: 0, renormalized: 0 };
				for (const n of result.notices) {
					const { notice, action } = await ingestNotice(this.m, n);
					if (notice) await this.noticeOutbox.send(notice);
					counts[action] = (counts[action] ?? 0) + 1;
				}
				const summary = { ...counts, rejected: result.rejected, pages: result.pages };
				await recordRun(this.m, feed.name, "succeeded", summary);
				return summary;
			} catch (e) {
				this.logger.warn({ feed: feed.name, err: (e as Error).message }, "feed poll failed");
				if (lastAttempt) await recordRun(this.m, feed.name, "failed", { error: (e as Error).message.slice(0, 300) });
				throw e;
			}
		},
	},

	async started(this: State) {
		this.conn = await connectServiceDb("opportunities");
		this.m = opportunityModels(this.conn);
		this.admission = new Admission(config().MONGO_POOL_SIZE);
		await syncIndexes(this.conn);
		this.noticeOutbox = new Outbox({
			model: this.m.notices,
			job: JOBS.matchNotice,
			field: "match",
			data: (n: NoticeDoc) => ({ noticeId: n._id }),
		});
		this.feedbackOutbox = new Outbox({
			model: this.m.feedback,
			job: JOBS.learnFeedback,
			field: "learn",
			data: (f: FeedbackDoc) => ({ tenantId: f.tenant_id, feedbackId: f._id }),
		});
		if (config().WORKERS === "off") return;
		const onError = (e: unknown) => this.logger.warn({ err: e }, "outbox reconcile failed");
		this.noticeOutbox.startReconciler(config().OUTBOX_RECONCILE_MS, onError);
		this.feedbackOutbox.startReconciler(config().OUTBOX_RECONCILE_MS, onError);
		const feeds = feedsFromEnv();
		this.upkeep = startWorker(QUEUES.opportunitiesUpkeep, async (job) => {
			if (job.name === JOBS.closePastDeadlines.name) return closePastDeadlines(this.m);
			if (job.name === JOBS.pollFeed.name) {
				const { feed: name } = payloadOf(JOBS.pollFeed, job);
				const feed = feeds.find((f) => f.name === name);
				if (!feed) return { skipped: "no such feed configured" };
				return this.pollFeed(feed, job.attemptsMade + 1 >= (job.opts.attempts ?? 1));
			}
			throw new Error(`unknown upkeep job ${job.name}`);
		});
		this.stopScheduling = await keepScheduled(QUEUES.opportunitiesUpkeep, [
			scheduled(JOBS.closePastDeadlines, { id: "close-past-deadlines", everyMs: config().DEADLINE_SWEEP_MS, data: {} }),
			...feeds.map((f) =>
				scheduled(JOBS.pollFeed, {
					id: `poll:${f.name}`,
					everyMs: f.every_minutes * 60_000,
					data: { feed: f.name },
					opts: { attempts: 5, backoff: { type: "exponential", delay: config().FEED_RETRY_MS } },
				}),
			),
		]);
	},

	async stopped(this: State) {
		await Promise.all([this.noticeOutbox?.stopReconciler(), this.feedbackOutbox?.stopReconciler()]);
		this.stopScheduling?.();
		await this.upkeep?.close();
		await this.conn?.close();
	},
};

export default OpportunitiesService;
