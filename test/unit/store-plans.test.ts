import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";

// Issue 17: the local MongoDB stand-in read whole tables for every query. Built with
// deploy/ferretdb/, it answers from indexes; this test captures the plans of the queries the
// services make on a collection of 20,000 documents, straight after loading it (before any
// statistics), and requires index scans and no table scan:
// equality on a unique index, $in, equality on a compound index with a limit, a range, a sort
// with a limit served in the index's order (no sort step), and a lookup by _id.
// On FerretDB the `explain` command answers with PostgreSQL's own EXPLAIN (FORMAT JSON) of the
// statement the query runs; on MongoDB, with its winning plan (IXSCAN stages, no COLLSCAN).
// (Index names stay under 18 characters: FerretDB cuts longer ones in PostgreSQL's names.)

const SIZE = 20_000;
const TENANTS = 20;

let conn: mongoose.Connection;
interface Item {
	_id: number;
	hash: string;
	tenantId: string;
	status: string;
	createdAt: Date;
	title: string;
}

let coll: mongoose.mongo.Collection<Item>;
let ferret = false;

const hash = (i: number) => `h${i.toString(16).padStart(8, "0")}`;
const tenant = (i: number) => `tenant-${i % TENANTS}`;
const T0 = Date.UTC(2024, 0, 1);

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_store_plans` }).asPromise();
	ferret = "ferretdbVersion" in (await conn.db!.admin().command({ buildInfo: 1 }));
	coll = conn.db!.collection<Item>("items");
	await coll.createIndex({ hash: 1 }, { unique: true, name: "by_hash" });
	await coll.createIndex({ tenantId: 1, status: 1 }, { name: "by_tenant_status" });
	await coll.createIndex({ createdAt: 1 }, { name: "by_created" });
	await coll.createIndex({ tenantId: 1, createdAt: -1 }, { name: "by_tenant_created" });
	for (let i = 0; i < SIZE; i += 2000) {
		await coll.insertMany(
			Array.from({ length: 2000 }, (_, j) => {
				const n = i + j;
				return {
					_id: n,
					hash: hash(n),
					tenantId: tenant(n),
					status: n % 2 ? "closed" : "open",
					createdAt: new Date(T0 + n * 60_000),
					title: `Item ${n}`,
				};
			}),
		);
	}
}, 120_000);
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

type Node = Record<string, any>;

/** Every node of a plan tree (PostgreSQL's `Plans`, MongoDB's `inputStage(s)`). */
function nodes(n: Node): Node[] {
	const kids: Node[] = [
		...(n.Plans ?? []),
		...(n.inputStages ?? []),
		...(n.inputStage ? [n.inputStage] : []),
		...(n.queryPlan ? [n.queryPlan] : []),
	];
	return [n, ...kids.flatMap(nodes)];
}

interface Plan {
	/** All nodes, and those of the part that answers for regular values (oms_query.go's arm 0). */
	all: Node[];
	main: Node[];
	raw: unknown;
}

async function plan(cmd: Record<string, unknown>): Promise<Plan> {
	const res = await conn.db!.command({ explain: { find: "items", ...cmd }, verbosity: "queryPlanner" });
	if (ferret) {
		const root = (res.queryPlanner as Node).Plan as Node;
		const main = root["Node Type"] === "Append" ? (root.Plans as Node[])[0]! : root;
		return { all: nodes(root), main: nodes(main), raw: res.queryPlanner };
	}
	const root = (res.queryPlanner as Node).winningPlan as Node;
	return { all: nodes(root), main: nodes(root), raw: root };
}

/** Names of the indexes scanned (MongoDB's IDHACK reads the _id index). */
const indexScans = (list: Node[]) =>
	list
		.filter((n) => ["Index Scan", "Index Only Scan", "Bitmap Index Scan"].includes(n["Node Type"]) || /IXSCAN|IDHACK/.test(n.stage ?? ""))
		.map((n) => String(n["Index Name"] ?? n.indexName ?? "_id_"));
const tableScans = (list: Node[]) => list.filter((n) => n["Node Type"] === "Seq Scan" || n.stage === "COLLSCAN");
const sorts = (list: Node[]) => list.filter((n) => n["Node Type"] === "Sort" || n.stage === "SORT");

/** The plan reads through `index` and never a whole table. */
function expectIndexScan(p: Plan, index: string, what: string) {
	const detail = `${what}: ${JSON.stringify(p.raw).slice(0, 2000)}`;
	expect(tableScans(p.all), detail).toEqual([]);
	expect(
		indexScans(p.main).some((name) => name.includes(index)),
		detail,
	).toBe(true);
}

describe(`query plans on ${SIZE.toLocaleString("en-US")} documents`, () => {
	it("equality on a unique index is an index scan", async () => {
		expectIndexScan(await plan({ filter: { hash: hash(12_345) } }), "by_hash", "findOne({hash})");
		expectIndexScan(await plan({ filter: { hash: hash(12_345) }, limit: 1 }), "by_hash", "findOne({hash}) with limit");
	});

	it("$in is an index scan", async () => {
		expectIndexScan(await plan({ filter: { hash: { $in: [1, 20, 300, 4000, 19_999].map(hash) } } }), "by_hash", "$in of 5");
	});

	it("equality on both fields of a compound index, with a limit, is an index scan", async () => {
		expectIndexScan(await plan({ filter: { tenantId: tenant(3), status: "open" }, limit: 50 }), "by_tenant_status", "{tenantId, status}");
	});

	it("a range is an index scan", async () => {
		const from = new Date(T0 + 10_000 * 60_000);
		expectIndexScan(
			await plan({ filter: { createdAt: { $gte: from, $lt: new Date(from.getTime() + 20 * 60_000) } } }),
			"by_created",
			"createdAt range",
		);
	});

	it("a sort with a limit reads the index in order, with no sort step", async () => {
		const p = await plan({ filter: { tenantId: tenant(7) }, sort: { createdAt: -1 }, limit: 20 });
		expectIndexScan(p, "by_tenant_created", "sort + limit");
		expect(sorts(p.main), JSON.stringify(p.raw).slice(0, 2000)).toEqual([]);
	});

	it("a lookup by _id is an index scan", async () => {
		expectIndexScan(await plan({ filter: { _id: 4321 } }), "_id_", "{_id}");
	});
});
