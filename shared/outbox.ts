import { randomBytes } from "node:crypto";
import type { Model } from "mongoose";
import type { JobsOptions } from "bullmq";
import type { z } from "zod";
import { every, type Periodic } from "./periodic.ts";
import { BULK_PRIORITY, enqueueJob, useQueue, type JobKind } from "./queue.ts";

// "Saving durably requests work" (DESIGN.md, Durability). A document carries its own request:
// the same single-document write that changes it sets `index.requested` to a fresh version
// and `index.pending`; the job id names the document and that version, so sending twice is
// harmless; the consumer marks the version done; a reconciler re-sends whatever is still
// pending, so a crash, a Redis outage or a lost job only delays the work.

export interface WorkRequest {
	requested: string;
	requested_at: Date;
	pending: boolean;
	done: string | null;
}

/** Schema definition of the request fields (embed as `index` in a mongoose schema). */
export const workRequestSchema = {
	requested: { type: String, required: true },
	requested_at: { type: Date, required: true },
	pending: { type: Boolean, required: true },
	done: { type: String, default: null },
};

const PROCESS_TAG = randomBytes(4).toString("hex");
let lastMs = 0;
let counter = 0;

/**
 * A fresh version token, increasing across processes: 24 hex digits of seconds (as an ObjectId
 * starts, so tokens stored before compare lower), milliseconds, a counter and the process's tag.
 * An ObjectId orders two processes' tokens of the same second by their random process part, so
 * a later result from one matching worker could lose to an earlier one from the other.
 */
export function newVersion(): string {
	const now = Date.now();
	if (now > lastMs) {
		lastMs = now;
		counter = 0;
	} else if (++counter > 0xfffff) {
		// the same millisecond, or the clock stepped back: stay increasing
		lastMs++;
		counter = 0;
	}
	const seconds = Math.floor(lastMs / 1000)
		.toString(16)
		.padStart(8, "0");
	const ms = (lastMs % 1000).toString(16).padStart(3, "0");
	return `${seconds}${ms}${counter.toString(16).padStart(5, "0")}${PROCESS_TAG}`;
}

/** A new request, for a document being inserted. */
export function newRequest(version = newVersion()): WorkRequest {
	return { requested: version, requested_at: new Date(), pending: true, done: null };
}

/** The `$set` that records a new request, for the same update that changes the document. */
export function requestWork(prefix = "index", version = newVersion()): Record<string, unknown> {
	return { [`${prefix}.requested`]: version, [`${prefix}.requested_at`]: new Date(), [`${prefix}.pending`]: true };
}

/** The job id of a document's request: a repeat of the same version is a no-op while the job exists. */
export const requestJobId = (docId: string, version: string): string => `${docId}_${version}`;

export interface OutboxOptions<D, P extends z.ZodType> {
	model: Model<any>;
	/** The kind of job a request sends (shared/contract/internal/queue-jobs.ts JOBS). */
	job: JobKind<P>;
	/** The job's payload but its version (the request's, added by send): ids, never documents. */
	data(doc: D & { _id: string }): Omit<z.input<P>, "version">;
	/** Field holding the request (default "index"). */
	field?: string;
}

/** The outboxes of this process's open databases, for the backlog metric (shared/metrics.ts). */
const liveOutboxes = new Set<Outbox<object, z.ZodType>>();
export const outboxes = (): ReadonlyArray<Outbox<object, z.ZodType>> => [...liveOutboxes];

export class Outbox<D extends object, P extends z.ZodType> {
	private reconciler?: Periodic;
	constructor(private readonly o: OutboxOptions<D, P>) {
		useQueue(o.job.queue);
		liveOutboxes.add(this);
		o.model.db.once("close", () => liveOutboxes.delete(this));
	}

	/** "products.index": the collection and the field holding the requests. */
	get label(): string {
		return `${this.o.model.collection.collectionName}.${this.field}`;
	}

	/** Requests not yet done (an indexed query: `<field>.pending` leads an index of every outbox's collection). */
	pendingCount(): Promise<number> {
		return this.o.model.countDocuments({ [`${this.field}.pending`]: true }).exec();
	}

	private get field() {
		return this.o.field ?? "index";
	}

	/** Enqueues the document's current request; false when Redis did not take it (the reconciler will). */
	async send(doc: D & { _id: string }, opts: JobsOptions = {}): Promise<boolean> {
		const req = (doc as Record<string, unknown>)[this.field] as WorkRequest | null | undefined;
		if (!req?.pending) return true;
		const payload = { ...this.o.data(doc), version: req.requested } as z.input<P>;
		return enqueueJob(this.o.job, payload, requestJobId(doc._id, req.requested), opts);
	}

	/**
	 * Re-sends every request still pending after `graceMs`, page by page (a backlog left by a
	 * long Redis outage drains in one run, not 500 a tick); returns how many were sent.
	 */
	async reconcile(graceMs = 10_000, batch = 500, maxPages = 100): Promise<number> {
		const f = this.field;
		const stale = new Date(Date.now() - graceMs);
		let sent = 0;
		let after: { at: Date; id: string } | null = null;
		for (let page = 0; page < maxPages; page++) {
			const filter: Record<string, unknown> = { [`${f}.pending`]: true, [`${f}.requested_at`]: { $lt: stale } };
			if (after) filter.$or = [{ [`${f}.requested_at`]: { $gt: after.at } }, { [`${f}.requested_at`]: after.at, _id: { $gt: after.id } }];
			const docs = await this.o.model
				.find(filter)
				.sort({ [`${f}.requested_at`]: 1, _id: 1 })
				.limit(batch)
				.lean<Array<D & { _id: string }>>();
			for (const d of docs) if (await this.send(d, { priority: BULK_PRIORITY })) sent++;
			if (docs.length < batch) break;
			const last = docs[docs.length - 1]! as unknown as Record<string, WorkRequest> & { _id: string };
			after = { at: last[f]!.requested_at, id: last._id };
		}
		return sent;
	}

	/** Marks a version done, unless a newer request has replaced it meanwhile. */
	async markDone(id: string, version: string): Promise<boolean> {
		return (await this.markManyDone([{ id, version }])) > 0;
	}

	/** markDone for many (id, version) pairs in one command; answers how many matched. */
	async markManyDone(items: ReadonlyArray<{ id: string; version: string }>): Promise<number> {
		const f = this.field;
		const ops = items.map(({ id, version }) => ({
			updateOne: {
				filter: { _id: id, [`${f}.requested`]: version },
				update: { $set: { [`${f}.done`]: version, [`${f}.pending`]: false } },
			},
		}));
		return (await this.o.model.bulkWrite(ops)).matchedCount;
	}

	startReconciler(intervalMs: number, onError: (e: unknown) => void): void {
		void this.reconciler?.stop();
		this.reconciler = every(intervalMs, () => this.reconcile(), onError);
	}

	/** Resolves once a reconcile run in progress has ended. */
	async stopReconciler(): Promise<void> {
		await this.reconciler?.stop();
	}
}
