import mongoose, { Schema } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { newRequest, newVersion, Outbox, requestWork, workRequestSchema } from "../../shared/outbox.ts";
import { QUEUES, closeProducers, producer } from "../../shared/queue.ts";
import { z } from "zod";

// What every service's writes rely on (DESIGN.md, Durability): an update of one document is
// atomic, as MongoDB makes it. FerretDB 1.24 as released applies an update as an unlocked read,
// a change in Go and a write of the whole document, so concurrent updates of one document
// could lose one entirely; scripts/services.sh builds it with updates serialized per
// collection (deploy/ferretdb). Against the real server the tests run on.

let conn: mongoose.Connection;

beforeAll(async () => {
	conn = await mongoose
		.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_atomicity`, maxPoolSize: 16 })
		.asPromise();
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
	await producer(QUEUES.productIndex).obliterate({ force: true });
	await closeProducers();
});

const ROUNDS = 5;
/** Said with every failure: the likely cause is the server, not the code under test. */
const HINT = "a FerretDB built without deploy/ferretdb/atomic-updates.patch? see deploy/ferretdb/README.md";
const WRITERS = 16;
/** A kind of job of the tests' own, on a queue this file empties. */
const TEST_JOB = { queue: QUEUES.productIndex, name: "t", payload: z.object({ id: z.string() }) };

describe("single-document updates on the MongoDB-compatible server", () => {
	it("keep every one of many concurrent $set of different fields of one document", async () => {
		const docs = conn.collection<{ _id: string } & Record<string, unknown>>("fields");
		for (let round = 0; round < ROUNDS; round++) {
			const _id = `doc-${round}`;
			await docs.insertOne({ _id });
			await Promise.all(Array.from({ length: WRITERS }, (_, i) => docs.updateOne({ _id }, { $set: { [`f${i}`]: i } })));
			const doc = (await docs.findOne({ _id }))!;
			expect(
				Object.keys(doc)
					.filter((k) => k.startsWith("f"))
					.sort(),
				`round ${round} (${HINT})`,
			).toEqual(Array.from({ length: WRITERS }, (_, i) => `f${i}`).sort());
		}
	});

	it("let exactly one of many concurrent conditional updates on the same version win", async () => {
		const docs = conn.collection<{ _id: string; rev: number; by?: number }>("cas");
		for (let round = 0; round < ROUNDS; round++) {
			const _id = `doc-${round}`;
			await docs.insertOne({ _id, rev: 0 });
			const results = await Promise.all(
				Array.from({ length: WRITERS }, (_, i) => docs.updateOne({ _id, rev: 0 }, { $set: { rev: 1, by: i } })),
			);
			expect(
				results.reduce((n, r) => n + r.modifiedCount, 0),
				`round ${round} (${HINT})`,
			).toBe(1);
			const viaFindAndModify = await Promise.all(
				Array.from({ length: WRITERS }, (_, i) => docs.findOneAndUpdate({ _id, rev: 1 }, { $set: { rev: 2, by: i } })),
			);
			expect(
				viaFindAndModify.filter((d) => d !== null),
				`round ${round} (${HINT})`,
			).toHaveLength(1);
		}
	});

	it("keep every change when statements by one _id, by a list of _ids and by another field touch the same documents", async () => {
		// document-locks.patch: locks per document for filters naming _ids, per collection for any other.
		const docs = conn.collection<{ _id: string; group: string } & Record<string, unknown>>("mixed");
		for (let round = 0; round < ROUNDS; round++) {
			const ids = [`a-${round}`, `b-${round}`, `c-${round}`];
			await docs.insertMany(ids.map((_id) => ({ _id, group: `g-${round}` })));
			await Promise.all(
				Array.from({ length: WRITERS }, (_, i) =>
					i % 3 === 0
						? docs.updateOne({ _id: ids[i % 3]! }, { $set: { [`one${i}`]: i } })
						: i % 3 === 1
							? docs.updateMany({ _id: { $in: [ids[2]!, ids[0]!] } }, { $set: { [`list${i}`]: i } })
							: docs.updateMany({ group: `g-${round}` }, { $set: { [`all${i}`]: i } }),
				),
			);
			const byId = new Map((await docs.find({ group: `g-${round}` }).toArray()).map((d) => [d._id, Object.keys(d)]));
			const expected = (id: string, i: number) => (i % 3 === 0 ? id === ids[0] : i % 3 === 1 ? id !== ids[1] : true);
			for (const id of ids)
				for (let i = 0; i < WRITERS; i++) {
					const key = i % 3 === 0 ? `one${i}` : i % 3 === 1 ? `list${i}` : `all${i}`;
					expect(byId.get(id)?.includes(key), `round ${round}: ${id} ${key} (${HINT})`).toBe(expected(id, i));
				}
		}
	});

	it("never let an indexer's done mark undo a change saved at the same time (the outbox's pattern)", async () => {
		const Doc = new Schema(
			{ _id: String, name: String, rev: String, index: new Schema(workRequestSchema, { _id: false }) },
			{ versionKey: false },
		);
		const model = conn.model("AtomicityProduct", Doc, "products");
		const outbox = new Outbox({ model, job: TEST_JOB, data: (d: { _id: string }) => ({ id: d._id }) });
		for (let round = 0; round < ROUNDS * 4; round++) {
			const _id = `p-${round}`;
			const first = newRequest();
			await model.create({ _id, name: "before", rev: newVersion(), index: first });
			// The indexer marks the first version done while the owner saves a change that requests a second.
			const second = newVersion();
			const change = { name: "after", rev: newVersion(), ...requestWork("index", second) };
			await Promise.all([outbox.markDone(_id, first.requested), model.updateOne({ _id }, { $set: change })]);
			const doc = (await model.findById(_id).lean<{ name: string; index: { requested: string; pending: boolean } }>())!;
			expect(doc.name, `round ${round} (${HINT})`).toBe("after");
			expect(doc.index, `round ${round} (${HINT})`).toMatchObject({ requested: second, pending: true });
		}
	});
});
