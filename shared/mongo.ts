import mongoose, { type AnyBulkWriteOperation, type Connection, type Model } from "mongoose";
import { config } from "./config.ts";
import { addReadinessCheck } from "./readiness.ts";

/**
 * Each service owns its own database (`<prefix>_<service>`) and never reads another's.
 * Code here stays inside the subset that FerretDB and MongoDB share (DESIGN.md).
 */
export async function connectServiceDb(service: string): Promise<Connection> {
	const c = config();
	const conn = mongoose.createConnection(c.MONGO_URL, {
		dbName: `${c.MONGO_DB_PREFIX}_${service.replace(/[^a-z0-9]/g, "_")}`,
		serverSelectionTimeoutMS: 5000,
		maxPoolSize: c.MONGO_POOL_SIZE,
		autoIndex: false,
	});
	await conn.asPromise();
	// This process is ready only while the database answers (checked until the service closes it).
	const remove = addReadinessCheck(`mongo:${service}`, () => conn.db!.admin().ping());
	conn.once("close", remove);
	return conn;
}

/** Drops every database whose name starts with `<prefix>_` (a test run's, a benchmark cluster's). */
export async function dropDatabases(prefix: string): Promise<void> {
	const conn = await mongoose.createConnection(config().MONGO_URL).asPromise();
	try {
		const { databases } = await conn.db!.admin().listDatabases();
		for (const d of databases) if (d.name.startsWith(`${prefix}_`)) await conn.useDb(d.name).dropDatabase();
	} finally {
		await conn.close();
	}
}

/** Creates the declared indexes of every model on a connection (idempotent). */
export async function syncIndexes(conn: Connection): Promise<void> {
	for (const model of Object.values(conn.models)) await model.createIndexes();
}

export const isDuplicateKeyError = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

/** Escapes user text for an RE2-compatible `$regex` (matched literally). */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Update statements per command (see bulkUpdate). */
const UPDATES_PER_COMMAND = 8;

/**
 * Runs many updateOne operations as commands of a few statements each. FerretDB 1.24 holds one
 * PostgreSQL connection per statement of an update command until the command ends: a command of
 * more statements than its pool has connections waits forever, and every other request with it.
 * Returns how many documents matched.
 */
export async function bulkUpdate(model: Model<any>, ops: AnyBulkWriteOperation[]): Promise<number> {
	let matched = 0;
	for (let i = 0; i < ops.length; i += UPDATES_PER_COMMAND) matched += (await model.bulkWrite(ops.slice(i, i + UPDATES_PER_COMMAND))).matchedCount;
	return matched;
}

/** Lookups by id in flight at once (findByIds). */
const BY_ID_CONCURRENCY = 8;

/**
 * The documents with these ids that also match `filter`, absent ones left out, in no particular
 * order. Each id is its own `_id` equality query: FerretDB answers `_id: { $in: [...] }` by
 * reading the whole collection (one id among 5,000 products: 675 ms, against 7 ms by equality),
 * and these lookups sit on the hot paths of indexing and matching. MongoDB answers both from the
 * `_id` index.
 */
export async function findByIds<T>(model: Model<any>, ids: readonly string[], filter: Record<string, unknown> = {}, projection?: Record<string, 0 | 1>): Promise<T[]> {
	const unique = [...new Set(ids)];
	const found: T[] = [];
	for (let i = 0; i < unique.length; i += BY_ID_CONCURRENCY) {
		const docs = await Promise.all(unique.slice(i, i + BY_ID_CONCURRENCY).map((_id) => model.findOne({ ...filter, _id }, projection).lean<T>()));
		for (const d of docs) if (d) found.push(d);
	}
	return found;
}
