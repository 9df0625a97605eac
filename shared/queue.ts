import { hostname } from "node:os";
import { Queue, Worker, type JobsOptions, type Processor } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import type { z } from "zod";
import { config } from "./config.ts";
import { addReadinessCheck, pingRedis } from "./readiness.ts";
import { currentRequestId, withRequestId } from "./request-context.ts";

// BullMQ on Redis for durable background work. Producers fail fast when Redis is away (the
// outbox reconciler re-sends later); workers wait for it.

/** Every queue of the system, named by the service that consumes it. */
export const QUEUES = {
	/** Index a product and match it against open notices (consumer: matching). */
	productIndex: "matching-product-index",
	/** Match a new or amended notice against every company (consumer: matching). */
	noticeMatch: "matching-notice-match",
	/** Let learned rules consider a feedback verdict (consumer: matching). */
	feedbackLearn: "matching-feedback-learn",
	/** Periodic upkeep of notices and opportunities, e.g. passed deadlines (consumer: opportunities). */
	opportunitiesUpkeep: "opportunities-upkeep",
	/** Digest scheduling and delivery (consumer: notifications). */
	digests: "notifications-digests",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * One kind of job: the queue it goes to, its name there, and the schema of its payload. The kinds
 * and the table of queues are declared in shared/contract/internal/queue-jobs.ts; producers add
 * jobs through a kind (enqueueJob, scheduled, Outbox) and consumers read them with payloadOf.
 */
export interface JobKind<P extends z.ZodType = z.ZodType> {
	queue: QueueName;
	name: string;
	payload: P;
}

export function redisOptions(forWorker: boolean): RedisOptions {
	return forWorker
		? { maxRetriesPerRequest: null, enableReadyCheck: true }
		: { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
}

const producers = new Map<string, { queue: Queue; connection: Redis }>();

const queuesInUse = new Set<QueueName>();
/**
 * Notes that this process produces to or works on the queue: its depths are among the process's
 * metrics, and Redis (pinged through a producer's connection) among its readiness checks.
 */
export function useQueue(name: QueueName): void {
	if (queuesInUse.has(name)) return;
	if (!queuesInUse.size) addReadinessCheck("redis", () => pingRedis(producerConnection(name)));
	queuesInUse.add(name);
}
export const queuesUsed = (): QueueName[] => [...queuesInUse];

/** The process-wide producer for a queue (created on first use). */
export function producer(name: QueueName): Queue {
	useQueue(name);
	let p = producers.get(name);
	if (!p) {
		const c = config();
		const connection = new Redis(c.REDIS_URL, redisOptions(false));
		connection.on("error", () => {
			/* reconnects by itself; enqueue() reports failures */
		});
		const queue = new Queue(name, { connection, prefix: `${c.REDIS_PREFIX}:bull` });
		queue.on("error", () => undefined);
		p = { queue, connection };
		producers.set(name, p);
	}
	return p.queue;
}

function producerConnection(name: QueueName): Redis {
	producer(name);
	return producers.get(name)!.connection;
}

export async function closeProducers(): Promise<void> {
	const all = [...producers.values()];
	producers.clear();
	await Promise.all(
		all.map(async ({ queue, connection }) => {
			await queue.close().catch(() => undefined);
			connection.disconnect();
		}),
	);
}

const ENQUEUE_TIMEOUT_MS = 1500;

/**
 * The priority of bulk work (imports, fanouts, reconciler re-sends). BullMQ serves jobs without
 * a priority before prioritized ones, so a person's single save is not queued behind an import
 * of thousands of rows.
 */
export const BULK_PRIORITY = 10;

/**
 * Adds a job under a deterministic id (so a repeat is a no-op while the job exists).
 * Never throws: answers false when Redis did not take it, for the reconciler to retry.
 */
export async function enqueue(name: QueueName, jobName: string, data: object, jobId: string, opts: JobsOptions = {}): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	try {
		const added = producer(name).add(jobName, data, {
			jobId,
			attempts: 8,
			backoff: { type: "exponential", delay: 1000 },
			removeOnComplete: { age: 3600, count: 10_000 },
			removeOnFail: { age: 7 * 24 * 3600 },
			// The request that caused the job, for the worker's log lines (BullMQ keeps this field
			// for context propagation; it is not otherwise used without a telemetry backend).
			...requestIdOption(),
			...opts,
		});
		const timeout = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error("enqueue timed out")), ENQUEUE_TIMEOUT_MS)));
		await Promise.race([added, timeout]);
		return true;
	} catch {
		return false;
	} finally {
		clearTimeout(timer);
	}
}

/** enqueue of a job of this kind, its payload typed by the kind's schema. */
export function enqueueJob<P extends z.ZodType>(
	kind: JobKind<P>,
	data: z.input<P>,
	jobId: string,
	opts: JobsOptions = {},
): Promise<boolean> {
	return enqueue(kind.queue, kind.name, data as object, jobId, opts);
}

/** The payload of a job of this kind, parsed with its schema (a malformed job fails rather than runs). */
export function payloadOf<P extends z.ZodType>(kind: JobKind<P>, job: { data: unknown }): z.output<P> {
	return kind.payload.parse(job.data);
}

/**
 * Removes jobs whose work another job has already done, unless a worker holds them; answers how
 * many went. Never throws: a job left in place only runs and finds its work done.
 */
export async function removeJobs(name: QueueName, jobIds: readonly string[]): Promise<number> {
	const queue = producer(name);
	const removed = await Promise.all(jobIds.map((id) => queue.remove(id).catch(() => 0)));
	return removed.reduce((a, b) => a + b, 0);
}

/**
 * A job whose worker process died is taken up by another worker once its lock expires and the
 * stalled-job check sees it: within about 15 s, instead of BullMQ's 30 + 30 s. The lock is
 * renewed every 5 s while the job runs (an event loop blocked for 10 s would let a second worker
 * start the job; every job here is idempotent, so that costs work, not correctness), and a job
 * may stall twice before it fails.
 */
const WORKER_LOCKS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 2 };

function requestIdOption(): JobsOptions {
	const requestId = currentRequestId();
	return requestId ? { telemetry: { metadata: requestId } } : {};
}

/**
 * A worker for one of the service's own queues. It waits for Redis when it is away, and
 * `close()` lets the job in hand finish (graceful shutdown).
 */
export function startWorker(name: QueueName, processor: Processor, concurrency = 1): { worker: Worker; close(): Promise<void> } {
	useQueue(name);
	const c = config();
	const connection = new Redis(c.REDIS_URL, redisOptions(true));
	connection.on("error", () => undefined);
	const inRequestContext: Processor = (job, token, signal) =>
		withRequestId(job.opts.telemetry?.metadata, () => processor(job, token, signal));
	const worker = new Worker(name, inRequestContext, {
		connection,
		prefix: `${c.REDIS_PREFIX}:bull`,
		concurrency,
		// Shown as the job's processedBy: which process ran (or is running) it.
		name: c.NODE_ID || `${hostname()}:${process.pid}`,
		...WORKER_LOCKS,
	});
	worker.on("error", () => undefined);
	return {
		worker,
		async close() {
			await worker.close();
			connection.disconnect();
		},
	};
}

/** Runs `jobName` on the queue every `everyMs` (one scheduler per id, however many processes). */
export async function schedule(
	name: QueueName,
	schedulerId: string,
	everyMs: number,
	jobName: string,
	data: object = {},
	opts: JobsOptions = {},
): Promise<boolean> {
	try {
		await producer(name).upsertJobScheduler(
			schedulerId,
			{ every: everyMs },
			{ name: jobName, data, opts: { removeOnComplete: 100, removeOnFail: 100, ...opts } },
		);
		return true;
	} catch {
		return false;
	}
}

export interface Schedule {
	id: string;
	everyMs: number;
	jobName: string;
	data?: object;
	opts?: JobsOptions;
}

/** A schedule of jobs of this kind, every `everyMs`, their payload typed by the kind's schema. */
export function scheduled<P extends z.ZodType>(
	kind: JobKind<P>,
	s: { id: string; everyMs: number; data: z.input<P>; opts?: JobsOptions },
): Schedule {
	return { id: s.id, everyMs: s.everyMs, jobName: kind.name, data: s.data as object, ...(s.opts ? { opts: s.opts } : {}) };
}

/**
 * Registers a queue's schedules; while Redis is away, keeps trying in the background until all
 * are registered. Returns the stop function for the service's `stopped`.
 */
export async function keepScheduled(name: QueueName, schedules: Schedule[], retryMs = 30_000): Promise<() => void> {
	let timer: NodeJS.Timeout | undefined;
	const register = async () => {
		let ok = true;
		for (const s of schedules) ok = (await schedule(name, s.id, s.everyMs, s.jobName, s.data, s.opts)) && ok;
		if (ok) clearInterval(timer);
	};
	timer = setInterval(() => void register(), retryMs);
	timer.unref();
	await register();
	return () => clearInterval(timer);
}
