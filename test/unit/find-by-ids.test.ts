import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { findByIds } from "../../shared/mongo.ts";

// findByIds reads each id by equality (FerretDB reads a whole collection for `$in`): the same
// answer as `$in` with the filter, on the real MongoDB-compatible server.

let conn: mongoose.Connection;
let Things: mongoose.Model<any>;

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_find_by_ids` }).asPromise();
	Things = conn.model("Thing", new mongoose.Schema({ _id: String, tenant_id: String, n: Number }, { versionKey: false }));
	await Things.insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: `t${i}`, tenant_id: i % 2 ? "odd" : "even", n: i })));
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

const ids = (docs: Array<{ _id: string }>) => docs.map((d) => d._id).sort();

describe("findByIds", () => {
	it("answers as `$in` does: absent ids left out, each document once", async () => {
		const asked = ["t3", "t12", "missing", "t3", ...Array.from({ length: 20 }, (_, i) => `t${i + 10}`)];
		const found = await findByIds<{ _id: string; n: number }>(Things, asked);
		expect(ids(found)).toEqual(ids(await Things.find({ _id: { $in: asked } }).lean<Array<{ _id: string }>>()));
		expect(found).toHaveLength(21);
		expect(found.find((d) => d._id === "t12")).toEqual({ _id: "t12", tenant_id: "even", n: 12 });
	});

	it("applies the filter and the projection to every document", async () => {
		const found = await findByIds<{ _id: string; n?: number }>(Things, ["t1", "t2", "t3", "t4"], { tenant_id: "odd" }, { n: 1 });
		expect(found.sort((a, b) => a._id.localeCompare(b._id))).toEqual([
			{ _id: "t1", n: 1 },
			{ _id: "t3", n: 3 },
		]);
		expect(await findByIds(Things, [])).toEqual([]);
	});
});
