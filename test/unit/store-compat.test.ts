import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";

// Issue 17: the local MongoDB stand-in (FerretDB built with deploy/ferretdb/) now answers
// from indexes: it pushes filters, sorts and limits down to PostgreSQL and fetches the
// documents where MongoDB's array and mixed-type rules apply apart. This test holds it to
// MongoDB's semantics, run against the real server at MONGO_URL (FerretDB or MongoDB): the
// same queries over documents of every shape, each answer compared with one computed here
// by a small evaluator written from MongoDB's documentation (not from the server's code).
//
// MongoDB behaviours checked:
// - equality: numbers equal across int, long and double; strings byte for byte; ObjectIds and
//   dates never equal to strings and numbers; an array field matches when one element is
//   equal; an array query value matches an equal array; `null` matches null and missing
//   fields and arrays holding null; embedded documents compare whole;
// - $ne, $in (with null and array members), $nin, $exists, $and, $or, $nor;
// - ranges ($gt, $gte, $lt, $lte) only within the query value's type (numbers, strings,
//   ObjectIds, booleans, dates: "type bracketing"); an array field matches when one element
//   is in range, each bound possibly met by a different element;
// - dotted paths into embedded documents and into arrays of documents;
// - sort by MongoDB's order of types (null and missing < numbers < strings < documents <
//   arrays < ObjectIds < booleans < dates), an array sorting by its smallest element
//   ascending and its largest descending, an empty array before null; with limit and skip;
// - single and compound indexes, ascending and descending, on every one of those fields;
// - the same filters in countDocuments, updateOne, updateMany, findOneAndUpdate with a sort,
//   deleteOne and deleteMany, and lookups by _id of several types;
// - unique indexes: equal values refused with code 11000 (1 and 1.0 are equal, "1" and 1 are
//   not, nor an ObjectId and its hex string, nor a date and its milliseconds); documents
//   without the field are equal (null) to each other and to null; compound unique keys;
//   _id 5 and 5.0 are one _id; an update that would duplicate a key is refused and changes
//   nothing; an unordered insertMany stores all but the duplicates; a sparse unique index
//   leaves out documents without its field (any number of them), counts an explicit null as a
//   value, and refuses equal values (set by insert or by update) as a plain one does.
// Not checked (and not MongoDB's behaviour on the stand-in, see deploy/ferretdb/README.md):
// uniqueness of array elements (MongoDB indexes each element of an array apart).

const { Int32, Double, Long, ObjectId } = mongoose.mongo;
type Doc = Record<string, unknown>;
type Stored = { _id: unknown } & Doc;
/** A filter of any shape, as the driver's types cannot describe a field of every type. */
const q = (filter: Doc) => filter as mongoose.mongo.Filter<Stored>;

let conn: mongoose.Connection;
// The driver types documents loosely here: the test stores every type under the same names.
let coll: mongoose.mongo.Collection<Stored>;

// --- the evaluator -----------------------------------------------------------------------------

const MISSING = Symbol("missing");
/** Below null in a sort: an empty array. */
const EMPTY = Symbol("empty");

const isDoc = (v: unknown): v is Doc =>
	typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof ObjectId);

/** MongoDB's order of types: the rank of a value's type. */
function rank(v: unknown): number {
	if (v === EMPTY) return 0;
	if (v === null || v === undefined || v === MISSING) return 1;
	if (typeof v === "number") return 2;
	if (typeof v === "string") return 3;
	if (Array.isArray(v)) return 5;
	if (v instanceof ObjectId) return 7;
	if (typeof v === "boolean") return 8;
	if (v instanceof Date) return 9;
	if (isDoc(v)) return 4;
	throw new Error(`no rank for ${String(v)}`);
}

/** MongoDB's comparison of two values (BSON order). */
function cmp(a: unknown, b: unknown): number {
	const ra = rank(a);
	const rb = rank(b);
	if (ra !== rb) return Math.sign(ra - rb);
	switch (ra) {
		case 2:
			return Math.sign((a as number) - (b as number));
		case 3: // code points (the test's strings have no surrogates): MongoDB's byte order
			return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
		case 7:
			return cmp((a as InstanceType<typeof ObjectId>).toHexString(), (b as InstanceType<typeof ObjectId>).toHexString());
		case 8:
			return Math.sign(Number(a) - Number(b));
		case 9:
			return Math.sign((a as Date).getTime() - (b as Date).getTime());
		case 5: {
			const x = a as unknown[];
			const y = b as unknown[];
			for (let i = 0; i < Math.min(x.length, y.length); i++) {
				const c = cmp(x[i], y[i]);
				if (c) return c;
			}
			return Math.sign(x.length - y.length);
		}
		case 4: {
			const x = Object.entries(a as Doc);
			const y = Object.entries(b as Doc);
			for (let i = 0; i < Math.min(x.length, y.length); i++) {
				const c = Math.sign(rank(x[i]![1]) - rank(y[i]![1])) || cmp(x[i]![0], y[i]![0]) || cmp(x[i]![1], y[i]![1]);
				if (c) return c;
			}
			return Math.sign(x.length - y.length);
		}
		default:
			return 0;
	}
}

/** The values a (dotted) path reaches: through embedded documents and arrays of documents. */
function reach(v: unknown, path: string[]): unknown[] {
	if (!path.length) return [v];
	const [head, ...rest] = path;
	if (isDoc(v)) return head! in v ? reach(v[head!], rest) : [MISSING];
	if (Array.isArray(v)) {
		const out = v.filter(isDoc).flatMap((e) => reach(e, path));
		return out.length ? out : [MISSING];
	}
	return [MISSING];
}

/** A value, or for an array the array and its elements: what a comparison looks at. */
const candidates = (v: unknown): unknown[] => (Array.isArray(v) ? [v, ...v] : [v]);

function equals(values: unknown[], x: unknown): boolean {
	return values.some((v) => (v === MISSING ? x === null : candidates(v).some((c) => rank(c) === rank(x) && cmp(c, x) === 0)));
}

function inRange(values: unknown[], op: string, x: unknown): boolean {
	const test = (c: number) => (op === "$gt" ? c > 0 : op === "$gte" ? c >= 0 : op === "$lt" ? c < 0 : c <= 0);
	return values.some((v) => v !== MISSING && candidates(v).some((c) => !Array.isArray(c) && rank(c) === rank(x) && test(cmp(c, x))));
}

function fieldMatches(values: unknown[], cond: unknown): boolean {
	if (!isDoc(cond) || !Object.keys(cond).some((k) => k.startsWith("$"))) return equals(values, cond);
	return Object.entries(cond).every(([op, x]) => {
		switch (op) {
			case "$eq":
				return equals(values, x);
			case "$ne":
				return !equals(values, x);
			case "$in":
				return (x as unknown[]).some((e) => equals(values, e));
			case "$nin":
				return !(x as unknown[]).some((e) => equals(values, e));
			case "$exists":
				return values.some((v) => v !== MISSING) === x;
			case "$gt":
			case "$gte":
			case "$lt":
			case "$lte":
				return inRange(values, op, x);
			default:
				throw new Error(`evaluator: no ${op}`);
		}
	});
}

/** Query values as the evaluator sees them: numbers of any BSON type as numbers. */
function plain(v: unknown): unknown {
	if (v instanceof Int32 || v instanceof Double) return v.valueOf();
	if (v instanceof Long) return v.toNumber();
	if (Array.isArray(v)) return v.map(plain);
	if (isDoc(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
	return v;
}

function matches(doc: Doc, filter: Doc): boolean {
	return Object.entries(filter).every(([key, cond]) => {
		if (key === "$and") return (cond as Doc[]).every((f) => matches(doc, f));
		if (key === "$or") return (cond as Doc[]).some((f) => matches(doc, f));
		if (key === "$nor") return !(cond as Doc[]).some((f) => matches(doc, f));
		return fieldMatches(reach(doc, key.split(".")), cond);
	});
}

/** The value a document sorts by on a top-level field. */
function sortValue(doc: Doc, field: string, dir: 1 | -1): unknown {
	const v = field in doc ? doc[field] : null;
	if (!Array.isArray(v)) return v;
	if (!v.length) return EMPTY;
	return v.reduce((m, e) => (cmp(e, m) * dir < 0 ? e : m));
}

const sortCmp = (sort: Record<string, 1 | -1>) => (a: Doc, b: Doc) => {
	for (const [f, dir] of Object.entries(sort)) {
		const c = cmp(sortValue(a, f, dir), sortValue(b, f, dir)) * dir;
		if (c) return c;
	}
	return 0;
};

// --- the data -----------------------------------------------------------------------------------

const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, "0"));
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n));
/** Values of every type the services store, and the shapes MongoDB gives rules for. */
const POOL: unknown[] = [
	1,
	2,
	2.5,
	-3,
	10,
	"1",
	"a",
	"B",
	"b",
	"ab",
	"é",
	"",
	oid(1),
	oid(2),
	day(0),
	day(1),
	true,
	false,
	null,
	MISSING,
	[1, 2],
	[2, "a"],
	["a", "b"],
	[null, 3],
	[],

	[oid(2), day(1)],
	{ x: 1 },
	{ x: 1, y: "a" },
];
/** How a pooled value is stored: numbers as int32, long or double in turn. */
function stored(v: unknown, i: number): unknown {
	if (typeof v === "number") return Number.isInteger(v) ? [new Int32(v), Long.fromNumber(v), new Double(v)][i % 3] : new Double(v);
	if (Array.isArray(v)) return v.map((e) => stored(e, i));
	return v;
}

const docs: Doc[] = [];
let seed = 17;
const pick = <T>(list: T[]): T => list[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % list.length]!;

function makeDocs(): Doc[] {
	const out: Doc[] = [];
	for (let i = 0; i < 240; i++) {
		const d: Doc = { _id: i % 40 === 7 ? `s${i}` : i % 40 === 9 ? i : oid(1000 + i) };
		const set = (k: string, v: unknown) => v !== MISSING && (d[k] = v);
		set("a", POOL[i % POOL.length]);
		set("t", pick(["x", "y", "z", "x", ["x", "y"], MISSING, 1]));
		set("s", pick(["open", "closed", "open", null, ["open"], MISSING, 2]));
		set("n", pick([...Array.from({ length: 12 }, (_, k) => k * 3 - 5), 2.5, "7", [4, 40], [], null, MISSING, true]));
		set("d", pick([day(i % 9), day(i % 9), day(-3), [day(2), day(8)], "2024-01-05", MISSING]));
		set("o", pick([{ x: i % 5 }, { x: "k" }, { x: [1, 4] }, [{ x: 2 }, { x: 7 }], {}, MISSING]));
		out.push(d);
	}
	return out;
}

// The in-memory copy keeps JS values; the server gets int32, long and double.
const toServer = (d: Doc, i: number): Doc =>
	Object.fromEntries(Object.entries(d).map(([k, v]) => [k, k === "_id" ? v : stored(v, i + k.length)]));

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_store_compat` }).asPromise();
	coll = conn.db!.collection<Stored>("docs");
	await coll.createIndex({ a: 1 });
	await coll.createIndex({ t: 1, s: 1 });
	await coll.createIndex({ n: -1 });
	await coll.createIndex({ t: 1, d: -1 });
	await coll.createIndex({ "o.x": 1 });
	docs.push(...makeDocs());
	await coll.insertMany(docs.map(toServer) as Stored[]);
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

// --- the queries --------------------------------------------------------------------------------

const scalars = POOL.filter((v) => v !== MISSING && !Array.isArray(v) && !isDoc(v));
const FILTERS: Doc[] = [
	...POOL.filter((v) => v !== MISSING).map((v) => ({ a: v })),
	...scalars.filter((v) => v !== null).flatMap((v) => ["$gt", "$gte", "$lt", "$lte"].map((op) => ({ a: { [op]: v } }))),
	{ a: { $in: [1, "a", null, oid(2)] } },
	{ a: { $in: [[1, 2], 10, day(1)] } },
	{ a: { $in: [] } },
	{ a: { $nin: [null, 1, "b"] } },
	{ a: { $ne: null } },
	{ a: { $ne: 2 } },
	{ a: { $exists: true } },
	{ a: { $exists: false } },
	{ a: { $gt: 1, $lt: "b" } },
	{ a: { $gte: 1, $lte: 2 } },
	{ a: { $eq: "ab" } },
	{ t: "x" },
	{ t: "x", s: "open" },
	{ t: "x", s: null },
	{ t: { $in: ["x", "z"] }, s: { $in: ["open", 2] } },
	{ t: ["x", "y"] },
	{ t: null, s: "open" },
	{ t: "y", s: { $ne: "open" } },
	{ n: { $gt: 4 } },
	{ n: { $gte: 3, $lt: 30 } },
	{ n: { $lt: "8" } },
	{ n: { $gt: 4, $lt: 5 } },
	{ n: null },
	{ n: [] },
	{ n: { $in: [4, -5, "7"] } },
	{ d: { $gte: day(2), $lt: day(5) } },
	{ d: { $gt: "2024" } },
	{ d: day(8) },
	{ t: "x", d: { $lte: day(3) } },
	{ "o.x": 2 },
	{ "o.x": { $gt: 3 } },
	{ "o.x": { $in: ["k", 7] } },
	{ "o.x": null },
	{ "o.x": { $exists: false } },
	{ $or: [{ a: 1 }, { t: "z" }] },
	{ $or: [{ t: "x", n: { $gt: 10 } }, { s: "closed" }] },
	{ $and: [{ n: { $gte: 0 } }, { n: { $lte: 10 } }], t: "x" },
	{ $nor: [{ t: "x" }, { s: "open" }] },
	{ _id: oid(1003) },
	{ _id: "s7" },
	{ _id: 9 },
	{ _id: new Double(9) },
	{ _id: "9" },
	{ _id: { $in: [oid(1010), "s47", 49, oid(999)] } },
];

const label = (f: unknown) => JSON.stringify(f, (_, v) => (v === undefined ? "undefined" : v));
const idKey = (v: unknown) => (v instanceof ObjectId ? `oid:${v.toHexString()}` : `${typeof v}:${String(v)}`);
const idsOf = (list: Doc[]) => list.map((d) => idKey(d._id)).sort();
const expected = (filter: Doc) => docs.filter((d) => matches(d, plain(filter) as Doc));

/** The server's answer to a sorted, limited query is one of MongoDB's: the same sort values in order. */
function expectSorted(got: Doc[], filter: Doc, sort: Record<string, 1 | -1>, skip: number, limit: number) {
	const want = expected(filter)
		.sort(sortCmp(sort))
		.slice(skip, skip + limit);
	const byId = new Map(docs.map((d) => [idKey(d._id), d]));
	const mine = got.map((d) => byId.get(idKey(d._id))!);
	expect(
		mine.every((d) => d && matches(d, plain(filter) as Doc)),
		`${label(filter)} sort ${label(sort)}: every document matches`,
	).toBe(true);
	expect(new Set(idsOf(mine)).size, "no document twice").toBe(mine.length);
	expect(mine.length, `${label(filter)} sort ${label(sort)} skip ${skip} limit ${limit}: count`).toBe(want.length);
	mine.forEach((d, i) => expect(sortCmp(sort)(d, want[i]!), `${label(filter)} sort ${label(sort)}: position ${i}`).toBe(0));
}

describe("the store answers as MongoDB does", () => {
	it("find: equality, $in, $nin, $ne, $exists, ranges across types, arrays, nulls, missing fields, dotted paths", async () => {
		const wrong: string[] = [];
		for (const filter of FILTERS) {
			const got = idsOf(await coll.find(filter).toArray());
			const want = idsOf(expected(filter));
			const extra = got.filter((id) => !want.includes(id));
			const lost = want.filter((id) => !got.includes(id));
			if (extra.length || lost.length) wrong.push(`${label(filter)}: extra ${extra.join(" ")}; missing ${lost.join(" ")}`);
		}
		expect(wrong).toEqual([]);
	});

	it("countDocuments and findOne with the same filters", async () => {
		for (const filter of FILTERS.slice(0, 40)) {
			expect(await coll.countDocuments(filter), label(filter)).toBe(expected(filter).length);
			const one = await coll.findOne(filter);
			if (!expected(filter).length) expect(one, label(filter)).toBeNull();
			else expect(one && matches(docs.find((d) => idKey(d._id) === idKey(one._id))!, filter), label(filter)).toBe(true);
		}
	});

	it("sort with limit and skip, in MongoDB's order of types, over arrays and missing fields", async () => {
		const cases: Array<[Doc, Record<string, 1 | -1>, number, number]> = [
			[{}, { n: 1 }, 0, 15],
			[{}, { n: -1 }, 0, 15],
			[{}, { n: 1 }, 20, 10],
			[{}, { a: 1 }, 0, 40],
			[{}, { a: -1 }, 0, 40],
			[{ t: "x" }, { d: -1 }, 0, 10],
			[{ t: "x" }, { d: 1 }, 3, 10],
			[{ t: "y" }, { s: 1, n: -1 }, 0, 12],
			[{ n: { $gte: 0 } }, { n: 1 }, 0, 5],
			[{ d: { $gte: day(1) } }, { d: 1 }, 0, 8],
			[{ a: { $in: [1, 2, 10, "a", "b"] } }, { a: -1 }, 0, 4],
			[{ $or: [{ t: "z" }, { s: "closed" }] }, { n: -1 }, 0, 6],
			[{ t: "x", s: "open" }, { d: -1 }, 0, 3],
		];
		for (const [filter, sort, skip, limit] of cases) {
			expectSorted(await coll.find(filter).sort(sort).skip(skip).limit(limit).toArray(), filter, sort, skip, limit);
		}
	});

	it("projections answer only their fields, whatever fields the filter and sort read", async () => {
		// The build decodes only the fields a find reads (deploy/ferretdb, lean-reads.patch): the
		// filter, the sort and the projection must each still see theirs.
		const wrong: string[] = [];
		// In the stored document's order (the fixtures were inserted with _id first), as MongoDB answers.
		const shape = (d: Doc) => Object.keys(d).join(",");
		for (const filter of FILTERS) {
			for (const projection of [{ t: 1 }, { "o.x": 1, _id: 0 }, { o: 0, a: 0 }] as Doc[]) {
				const got = await coll.find(filter, { projection }).sort({ n: 1, _id: 1 }).toArray();
				const want = expected(filter);
				if (got.length !== want.length) wrong.push(`${label(filter)} ${label(projection)}: ${got.length} of ${want.length}`);
				else if (!("o.x" in projection)) expectSorted(got, filter, { n: 1 }, 0, want.length); // sorted on a field it does not answer
				for (const g of got) {
					const src = "_id" in g ? docs.find((d) => idKey(d._id) === idKey(g._id)) : undefined;
					let keys: string[];
					if ("t" in projection) keys = ["_id", ...("t" in (src ?? {}) ? ["t"] : [])];
					else if ("o.x" in projection) keys = Object.keys(g).length ? ["o"] : [];
					else keys = Object.keys(src ?? {}).filter((k) => k !== "o" && k !== "a");
					if (shape(g) !== keys.join(",") || ("t" in projection && src && label(g.t) !== label(src.t)))
						wrong.push(`${label(filter)} ${label(projection)}: ${label(g)}`);
				}
			}
		}
		expect(wrong).toEqual([]);
	});

	it("updates, findOneAndUpdate with a sort, and deletes select as find does", async () => {
		let mark = 0;
		for (const filter of [
			{ t: "x", s: "open" },
			{ n: { $gt: 20 } },
			{ a: null },
			{ "o.x": { $in: [2, "k"] } },
			{ _id: { $in: [9, "s7"] } },
		]) {
			mark++;
			const res = await coll.updateMany(q(filter), { $set: { mark } });
			expect(res.matchedCount, label(filter)).toBe(expected(filter).length);
			expect(idsOf(await coll.find({ mark }).toArray()), label(filter)).toEqual(idsOf(expected(filter)));
		}
		for (const filter of [{ t: "z" }, { d: day(8) }, { n: { $lt: -100 } }]) {
			mark++;
			const res = await coll.updateOne(q(filter), { $set: { mark } });
			expect(res.matchedCount, label(filter)).toBe(Math.min(1, expected(filter).length));
			const changed = await coll.find({ mark }).toArray();
			expect(
				changed.every((d) => matches(docs.find((x) => idKey(x._id) === idKey(d._id))!, plain(filter) as Doc)),
				label(filter),
			).toBe(true);
		}
		const top = await coll.findOneAndUpdate({ t: "x" }, { $set: { mark: ++mark } }, { sort: { n: -1 } });
		expectSorted(top ? [top] : [], { t: "x" }, { n: -1 }, 0, 1);

		// findAndModify's `fields`: the answer carries the projection's fields only, as find's
		// projection gives them (`_id` always unless excluded), before or after the update.
		const one = docs.find((d) => typeof d.t === "string" && d.n !== undefined)!;
		const after = await coll.findOneAndUpdate(
			q({ _id: one._id }),
			{ $set: { mark: ++mark } },
			{ returnDocument: "after", projection: { t: 1, mark: 1 } },
		);
		expect(after).toEqual({ _id: one._id, t: one.t, mark });
		const before = await coll.findOneAndUpdate(q({ _id: one._id }), { $set: { mark: mark + 1 } }, { projection: { mark: 1, _id: 0 } });
		expect(before).toEqual({ mark });
		const dropped = await coll.findOneAndUpdate(q({ _id: one._id }), { $set: { mark: ++mark + 1 } }, { projection: { n: 0, t: 0 } });
		expect(dropped && Object.keys(dropped).sort()).toEqual(
			Object.keys(one)
				.filter((k) => k !== "n" && k !== "t")
				.concat("mark")
				.sort(),
		);
		expect(await coll.findOneAndUpdate(q({ _id: "none" }), { $set: { mark } }, { projection: { t: 1 } })).toBeNull();
		mark++;

		const gone = expected({ s: "closed", n: { $gte: 0 } });
		expect((await coll.deleteMany({ s: "closed", n: { $gte: 0 } })).deletedCount).toBe(gone.length);
		const eligible = expected({ t: "y", s: "open" }).filter((d) => !gone.includes(d));
		expect((await coll.deleteOne({ t: "y", s: "open" })).deletedCount).toBe(Math.min(1, eligible.length));
		const left = new Set(idsOf(await coll.find({}).toArray()));
		const deleted = docs.filter((d) => !left.has(idKey(d._id)));
		expect(idsOf(deleted.filter((d) => !gone.includes(d))), "deleteOne: one document of its filter").toHaveLength(
			Math.min(1, eligible.length),
		);
		expect(deleted.every((d) => gone.includes(d) || eligible.includes(d))).toBe(true);
		expect(left.size).toBe(docs.length - deleted.length);
	});

	it("unique indexes refuse what MongoDB refuses, and only that", async () => {
		const u = conn.db!.collection<Stored>("uniq");
		await u.createIndex({ u: 1 }, { unique: true });
		await u.createIndex({ k1: 1, k2: 1 }, { unique: true });
		const refused = async (doc: Stored) => {
			const err = await u.insertOne(doc).then(
				() => null,
				(e: { code?: number }) => e,
			);
			return err?.code;
		};
		expect(await refused({ _id: 1, u: 1, k1: 1, k2: "a" })).toBeUndefined();
		expect(await refused({ _id: 2, u: new Double(1), k1: 2 }), "1.0 equals 1").toBe(11000);
		expect(await refused({ _id: 3, u: "1", k1: 3 }), '"1" is not 1').toBeUndefined();
		expect(await refused({ _id: 4, u: oid(5), k1: 4 })).toBeUndefined();
		expect(await refused({ _id: 5, u: oid(5).toHexString(), k1: 5 }), "an ObjectId is not its hex string").toBeUndefined();
		expect(await refused({ _id: 6, u: day(0), k1: 6 })).toBeUndefined();
		expect(await refused({ _id: 7, u: day(0).getTime(), k1: 7 }), "a date is not its milliseconds").toBeUndefined();
		expect(await refused({ _id: 8, k1: 8 }), "the first document without u").toBeUndefined();
		expect(await refused({ _id: 9, k1: 9 }), "a second document without u: both are null").toBe(11000);
		expect(await refused({ _id: 10, u: null, k1: 10 }), "null equals missing").toBe(11000);
		expect(await refused({ _id: 11, u: 11, k1: 1, k2: "a" }), "compound key taken").toBe(11000);
		expect(await refused({ _id: 12, u: 12, k1: 1, k2: "b" })).toBeUndefined();
		expect(await refused({ _id: 13, u: 13, k1: 20 })).toBeUndefined();
		expect(await refused({ _id: 14, u: 14, k1: 20, k2: null }), "compound key with a missing part taken").toBe(11000);
		expect(await refused({ _id: new Double(1), u: 15, k1: 21 }), "_id 1.0 is _id 1").toBe(11000);
		expect(await refused({ _id: "1", u: 16, k1: 22 }), '_id "1" is not _id 1').toBeUndefined();

		const dup = await u.updateOne(q({ _id: 12 }), { $set: { u: 1 } }).then(
			() => null,
			(e: { code?: number }) => e,
		);
		expect(dup?.code, "an update that would duplicate u").toBe(11000);
		expect(await u.findOne(q({ _id: 12 })), "unchanged").toMatchObject({ u: 12, k2: "b" });

		const bulk = await u
			.insertMany(
				[
					{ _id: 30, u: 30, k1: 30 },
					{ _id: 31, u: 1, k1: 31 },
					{ _id: 32, u: 32, k1: 32 },
				],
				{ ordered: false },
			)
			.then(
				() => null,
				(e: { writeErrors?: Array<{ code: number; index: number }> } & { result?: unknown }) => e,
			);
		expect(
			bulk?.writeErrors?.map((w) => [w.index, w.code]),
			"unordered insertMany",
		).toEqual([[1, 11000]]);
		expect((await u.find(q({ _id: { $in: [30, 31, 32] } })).toArray()).map((d) => d._id).sort()).toEqual([30, 32]);
		expect(await u.countDocuments({})).toBe(12);
	});

	it("a sparse unique index leaves out documents without its field, and only those", async () => {
		const s = conn.db!.collection<Stored>("sparse");
		await s.createIndex({ place: 1 }, { unique: true, sparse: true });
		const refused = (doc: Stored) =>
			s.insertOne(doc).then(
				() => undefined,
				(e: { code?: number }) => e.code,
			);
		expect(await refused({ _id: 1 })).toBeUndefined();
		expect(await refused({ _id: 2 }), "a second document without the field").toBeUndefined();
		expect(await refused({ _id: 3, place: "a#1" })).toBeUndefined();
		expect(await refused({ _id: 4, place: "a#1" }), "an equal value").toBe(11000);
		expect(await refused({ _id: 5, place: null })).toBeUndefined();
		expect(await refused({ _id: 6, place: null }), "an explicit null is a value").toBe(11000);
		const taken = await s.updateOne(q({ _id: 1 }), { $set: { place: "a#1" } }).then(
			() => undefined,
			(e: { code?: number }) => e.code,
		);
		expect(taken, "an update to a taken value").toBe(11000);
		await s.updateOne(q({ _id: 3 }), { $unset: { place: "" } });
		expect(await refused({ _id: 7, place: "a#1" }), "a value given back by $unset is free").toBeUndefined();
		expect((await s.indexes()).find((i) => i.name === "place_1")).toMatchObject({ unique: true, sparse: true });
	});
});
