import mongoose, { Schema } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { newRequest, Outbox, workRequestSchema } from "../../shared/outbox.ts";
import { QUEUES, closeProducers, producer } from "../../shared/queue.ts";
import { z } from "zod";

// The outbox against the real MongoDB-compatible server and Redis: a backlog larger than one
// page is re-sent in one reconcile run, once per (document, version).

let conn: mongoose.Connection;
const Doc = new Schema({ _id: String, index: new Schema(workRequestSchema, { _id: false }) }, { versionKey: false });

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_outbox` }).asPromise();
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
	await producer(QUEUES.productIndex).obliterate({ force: true });
	await closeProducers();
});

/** A kind of job of the tests' own, on a queue this file empties. */
const TEST_JOB = { queue: QUEUES.productIndex, name: "t", payload: z.object({ id: z.string() }) };
const outbox = (model: any) => new Outbox({ model, job: TEST_JOB, data: (d: { _id: string }) => ({ id: d._id }) });

describe("Outbox.reconcile", () => {
	it("pages through a backlog and sends each pending version once", async () => {
		const model = conn.model("OutboxDoc", Doc, "docs");
		const past = new Date(Date.now() - 60_000);
		await model.insertMany(
			Array.from({ length: 23 }, (_, i) => ({ _id: `doc-${String(i).padStart(2, "0")}`, index: { ...newRequest(), requested_at: past } })),
		);
		await model.create({ _id: "done", index: { ...newRequest(), pending: false } });
		const outbox = new Outbox({ model, job: TEST_JOB, data: (d: { _id: string }) => ({ id: d._id }) });
		expect(await outbox.reconcile(10_000, 5)).toBe(23);
		// Re-sends are bulk work: they wait in the lane served after single saves.
		const jobs = await producer(QUEUES.productIndex).getJobs(["prioritized"]);
		expect(jobs.filter((j) => j.name === "t")).toHaveLength(23);
		expect(await producer(QUEUES.productIndex).getJobs(["waiting"])).toHaveLength(0);
		await outbox.reconcile(10_000, 5);
		expect((await producer(QUEUES.productIndex).getJobs(["prioritized"])).filter((j) => j.name === "t")).toHaveLength(23);
		const first = (await model.findById("doc-00").lean())!;
		expect(await outbox.markDone("doc-00", first.index!.requested)).toBe(true);
		expect(await outbox.reconcile(10_000, 5)).toBe(22);
	});

	it("marks many versions done in commands of a few statements, skipping superseded ones", async () => {
		const model = conn.model("OutboxMany", Doc, "many");
		await model.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `m-${i}`, index: newRequest() })));
		const docs = await model.find().lean<Array<{ _id: string; index: { requested: string } }>>();
		const items = docs.map((d, i) => ({ id: d._id, version: i === 0 ? "superseded" : d.index.requested }));
		expect(await outbox(model).markManyDone(items)).toBe(49);
		expect(await model.countDocuments({ "index.pending": true })).toBe(1);
	});
});
