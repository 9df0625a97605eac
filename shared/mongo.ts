import mongoose, { type Connection } from "mongoose";
import { config } from "./config.ts";

/**
 * Each service owns its own database (`<prefix>_<service>`) and never reads another's.
 * Code here stays inside the subset that FerretDB and MongoDB share (DESIGN.md).
 */
export async function connectServiceDb(service: string): Promise<Connection> {
	const c = config();
	const conn = mongoose.createConnection(c.MONGO_URL, {
		dbName: `${c.MONGO_DB_PREFIX}_${service.replace(/[^a-z0-9]/g, "_")}`,
		serverSelectionTimeoutMS: 5000,
		autoIndex: false,
	});
	await conn.asPromise();
	return conn;
}

/** Creates the declared indexes of every model on a connection (idempotent). */
export async function syncIndexes(conn: Connection): Promise<void> {
	for (const model of Object.values(conn.models)) await model.createIndexes();
}

export const isDuplicateKeyError = (err: unknown): boolean => (err as { code?: number })?.code === 11000;

/** Escapes user text for an RE2-compatible `$regex` (matched literally). */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
