import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { dropRetiredIndexes } from "../../shared/mongo.ts";

// A release that stops reading through an index drops it where an earlier release created it
// (matching's `bucket_1`), at every start: so it must also pass over an index already dropped
// and a collection not created yet, which is what a second process starting at once sees.

let conn: mongoose.Connection;

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_retired_indexes` }).asPromise();
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

describe("dropRetiredIndexes", () => {
	it("drops the named indexes, keeps the others, and passes over absent ones and absent collections", async () => {
		const Things = conn.model(
			"Thing",
			new mongoose.Schema({ _id: String, seq: Number, bucket: Number }, { versionKey: false, autoIndex: false }),
		);
		await Things.create({ _id: "a", seq: 1, bucket: 0 });
		await Things.collection.createIndex({ seq: 1 });
		await Things.collection.createIndex({ bucket: 1 });

		await dropRetiredIndexes(Things, ["bucket_1", "never_made_1"]);
		expect((await Things.collection.indexes()).map((i) => i.name).sort()).toEqual(["_id_", "seq_1"]);
		await dropRetiredIndexes(Things, ["bucket_1"]); // already gone

		const Absent = conn.model("Absent", new mongoose.Schema({ _id: String }, { autoCreate: false, autoIndex: false }), "not_created");
		await dropRetiredIndexes(Absent, ["bucket_1"]);
		expect((await conn.db!.listCollections({ name: "not_created" }).toArray()).length).toBe(0);
	});
});
