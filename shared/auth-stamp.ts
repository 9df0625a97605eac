import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

// What any process may remember of authentication's answers, and for how long. auth-keys keeps
// a stamp in Redis and replaces it, before it answers, on every change that can take access
// away or change a membership list (services/auth-keys/auth-memory.ts). A process that
// remembers an answer keeps it under the stamp it read before asking, and reuses it only while
// the stamp it reads for the request is still that one: the very next request after a change,
// in any process, asks again. auth-keys remembers what it read from its database; the gateway
// remembers auth-keys' answers, which spares every repeat request a call over NATS (issue 17).

/** The Redis key of the stamp. */
export const authStampKey = (redisPrefix: string): string => `${redisPrefix}:auth:stamp`;

/**
 * How often an API key's last use is written (at most once a minute per key). An answer that
 * another process remembers lives no longer than this, so auth-keys sees every key in use at
 * least this often and keeps its last-use time as fine as before.
 */
export const KEY_LAST_USED_RESOLUTION_MS = 60_000;

const MAX_ENTRIES = 10_000;

/** A random stamp, so that one never comes back (Redis restarted empty, a counter restarted). */
export const newAuthStamp = (): string => randomBytes(12).toString("hex");

/**
 * The stamp for this request, or null (nothing may be answered from memory) when Redis does not
 * answer at once: a request never waits on a reconnecting Redis.
 */
export async function readAuthStamp(redis: Redis, key: string): Promise<string | null> {
	if (redis.status !== "ready") return null;
	try {
		const s = await redis.get(key);
		if (s) return s;
		await redis.set(key, newAuthStamp(), "NX");
		return await redis.get(key);
	} catch {
		return null;
	}
}

/** Answers kept under the stamp they were read under, each for at most `ttlMs`. */
export class StampedMemo<V> {
	private readonly entries = new Map<string, { value: V; stamp: string; at: number }>();
	constructor(private readonly ttlMs: number) {}

	get(key: string, stamp: string | null): V | undefined {
		const e = this.entries.get(key);
		if (!e || stamp === null || e.stamp !== stamp || Date.now() - e.at >= this.ttlMs) return undefined;
		return e.value;
	}

	set(key: string, stamp: string | null, value: V): void {
		if (stamp === null || this.ttlMs <= 0) return;
		if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
		this.entries.set(key, { value, stamp, at: Date.now() });
	}

	delete(key: string): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}
}
