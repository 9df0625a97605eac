import mongoose, { type Connection, type Model } from "mongoose";
import { config } from "./config.ts";
import { addReadinessCheck } from "./readiness.ts";

// Mongoose captures `new Error().stack` on every query, only to report where a query executed
// twice was first run; with source maps on (tsx) each capture maps every frame, and under
// bench:load that was a twentieth of the opportunities service's time (issue 17). Skipped, as
// Mongoose 9 does by default.
mongoose.set("skipOriginalStackTraces", true);

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

/** MongoDB's codes for a collection that does not exist yet, and for an index that does not (any more). */
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

/**
 * Drops indexes that an earlier release declared and nothing reads any more: an index nobody
 * reads still costs every write. Absent ones are skipped, so each start (and two processes
 * starting at once) may run this.
 */
export async function dropRetiredIndexes(model: Model<any>, names: readonly string[]): Promise<void> {
	for (const name of names) {
		try {
			await model.collection.dropIndex(name);
		} catch (e) {
			const code = (e as { code?: number }).code;
			if (code !== NAMESPACE_NOT_FOUND && code !== INDEX_NOT_FOUND) throw e;
		}
	}
}

export const isDuplicateKeyError = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

/** Escapes user text for an RE2-compatible `$regex` (matched literally). */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
