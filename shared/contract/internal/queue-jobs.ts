import { z } from "zod";
import { QUEUES, type JobKind, type QueueName } from "../../queue.ts";
import { RequestVersion, type ServiceName } from "./common.ts";

// The payload of every kind of job on the BullMQ queues, and the queue table: for each queue of
// shared/queue.ts QUEUES, who produces its jobs, who consumes them and what each does (the
// README's architecture section shows it as a table). Producers build payloads through these
// types (shared/queue.ts enqueueJob, scheduled, and the Outbox's job); consumers parse them
// (payloadOf). Payloads carry ids and versions, never documents: the consumer reads the current
// state. They are not strict, so a job queued by an older release with a field since dropped
// still runs.

/** A product was saved (or its partner's authorization flipped): index it at this request version. */
export const IndexProductJob = z.object({ tenantId: z.uuid(), productId: z.uuid(), version: RequestVersion });
export type IndexProductJob = z.infer<typeof IndexProductJob>;

/** A notice was created or amended; version is the notice's matching request (absent: a manual run). */
export const MatchNoticeJob = z.object({ noticeId: z.uuid(), version: z.string().max(64).optional() });
export type MatchNoticeJob = z.infer<typeof MatchNoticeJob>;

/** A feedback verdict to learn from; version is the feedback's learning request. */
export const LearnFeedbackJob = z.object({ tenantId: z.uuid(), feedbackId: z.uuid(), version: RequestVersion.optional() });
export type LearnFeedbackJob = z.infer<typeof LearnFeedbackJob>;

/** A learned rule switched on or off; version is the rule's rescore request. */
export const RescoreRuleJob = z.object({ tenantId: z.uuid(), ruleId: z.uuid(), version: RequestVersion.optional() });
export type RescoreRuleJob = z.infer<typeof RescoreRuleJob>;

/** A scheduled job that needs no payload. */
export const NoPayload = z.object({});

/** One poll of the configured feed of this name (FEEDS). */
export const PollFeedJob = z.object({ feed: z.string() });
export type PollFeedJob = z.infer<typeof PollFeedJob>;

/** One company's digest for one slot (the job id names both, so a slot is queued once). */
export const SendDigestJob = z.object({ tenantId: z.uuid(), slot: z.iso.datetime() }).strict();
export type SendDigestJob = z.infer<typeof SendDigestJob>;

/** A kind of job as the queue table lists it: its queue, name and payload, who adds it and what it does. */
export interface JobDeclaration<P extends z.ZodType = z.ZodType> extends JobKind<P> {
	producers: readonly ServiceName[];
	does: string;
}

const job = <P extends z.ZodType>(j: JobDeclaration<P>): JobDeclaration<P> => j;

/** Every kind of job, by the name producers and consumers use in code. */
export const JOBS = {
	indexProduct: job({
		queue: QUEUES.productIndex,
		name: "index-product",
		payload: IndexProductJob,
		producers: ["catalog"],
		does: "indexes the product's current view and re-scores the notices it may concern, then marks the version indexed",
	}),
	matchNotice: job({
		queue: QUEUES.noticeMatch,
		name: "match-notice",
		payload: MatchNoticeJob,
		producers: ["opportunities"],
		does: "extracts the notice's signals and scores it for every company whose products it may concern, then marks it matched",
	}),
	learnFeedback: job({
		queue: QUEUES.feedbackLearn,
		name: "learn-feedback",
		payload: LearnFeedbackJob,
		producers: ["opportunities"],
		does: "records the verdict as evidence and proposes, updates or retires the company's learned rules",
	}),
	rescoreRule: job({
		queue: QUEUES.feedbackLearn,
		name: "rescore-rule",
		payload: RescoreRuleJob,
		producers: ["matching"],
		does: "scores again the company's opportunities whose notice has the rule's feature",
	}),
	closePastDeadlines: job({
		queue: QUEUES.opportunitiesUpkeep,
		name: "close-past-deadlines",
		payload: NoPayload,
		producers: ["opportunities"],
		does: "scheduled (DEADLINE_SWEEP_MS): closes notices whose deadline passed and expires their untouched opportunities",
	}),
	pollFeed: job({
		queue: QUEUES.opportunitiesUpkeep,
		name: "poll-feed",
		payload: PollFeedJob,
		producers: ["opportunities"],
		does: "scheduled per feed (FEEDS every_minutes): fetches the feed, ingests its notices and records the run",
	}),
	digestTick: job({
		queue: QUEUES.digests,
		name: "tick",
		payload: NoPayload,
		producers: ["notifications"],
		does: "scheduled (DIGEST_TICK_MS): queues a send-digest job for every company whose slot has come",
	}),
	ensureSettings: job({
		queue: QUEUES.digests,
		name: "ensure-settings",
		payload: NoPayload,
		producers: ["notifications"],
		does: "scheduled (10 min): gives every company default digest settings, hence digest slots",
	}),
	sendDigest: job({
		queue: QUEUES.digests,
		name: "send-digest",
		payload: SendDigestJob,
		producers: ["notifications"],
		does: "freezes the slot's content, sends the digest once over SMTP and marks the opportunities notified",
	}),
};

/** A queue as the table lists it: its name, its one consumer and the kinds of job it carries. */
export interface QueueDeclaration {
	name: QueueName;
	consumer: ServiceName;
	jobs: readonly JobDeclaration[];
}

/** The queue table: every queue of QUEUES (same keys), its consumer and its kinds of job. */
export const QUEUE_TABLE = {
	productIndex: { name: QUEUES.productIndex, consumer: "matching", jobs: [JOBS.indexProduct] },
	noticeMatch: { name: QUEUES.noticeMatch, consumer: "matching", jobs: [JOBS.matchNotice] },
	feedbackLearn: { name: QUEUES.feedbackLearn, consumer: "matching", jobs: [JOBS.learnFeedback, JOBS.rescoreRule] },
	opportunitiesUpkeep: { name: QUEUES.opportunitiesUpkeep, consumer: "opportunities", jobs: [JOBS.closePastDeadlines, JOBS.pollFeed] },
	digests: { name: QUEUES.digests, consumer: "notifications", jobs: [JOBS.digestTick, JOBS.ensureSettings, JOBS.sendDigest] },
} as const satisfies Record<keyof typeof QUEUES, QueueDeclaration>;
