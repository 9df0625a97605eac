import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { config } from "./config.ts";
import { redisOptions } from "./queue.ts";

// Short leases in Redis on units of work that several workers could pick at the same moment
// (two matching workers reading the same company's indexing backlog), so that each takes its
// own share. A lease only saves duplicate work: every job stays idempotent, a lease expires
// when its worker dies, and when Redis does not answer every claim succeeds (both workers do
// the work, as they would without leases).

export interface Claims {
	/** Claims each key not already held by someone else; answers, per key, whether it is now ours. */
	claim(keys: readonly string[]): Promise<boolean[]>;
	/** Gives back keys this holder claimed (a key another holder has since claimed stays theirs). */
	release(keys: readonly string[]): Promise<void>;
	close(): void;
}

const COMMAND_TIMEOUT_MS = 2000;

// Deletes each key only while it still holds our token.
const RELEASE = `local n = 0
for i, k in ipairs(KEYS) do
  if redis.call("GET", k) == ARGV[1] then n = n + redis.call("DEL", k) end
end
return n`;

/** Leases named `<REDIS_PREFIX>:claim:<scope>:<key>`, held for `ttlMs` unless released. */
export function redisClaims(scope: string, ttlMs: number): Claims {
	const c = config();
	const prefix = `${c.REDIS_PREFIX}:claim:${scope}:`;
	const token = randomBytes(12).toString("hex");
	let redis: Redis | undefined;
	const conn = () => {
		if (!redis) {
			// Commands wait for the connection (a fresh one is not ready yet), but not for long.
			redis = new Redis(c.REDIS_URL, { ...redisOptions(false), enableOfflineQueue: true, commandTimeout: COMMAND_TIMEOUT_MS });
			redis.on("error", () => undefined);
		}
		return redis;
	};
	return {
		async claim(keys) {
			if (!keys.length) return [];
			try {
				const p = conn().pipeline();
				for (const k of keys) p.set(prefix + k, token, "PX", ttlMs, "NX");
				const replies = (await p.exec()) ?? [];
				return keys.map((_, i) => {
					const [err, reply] = replies[i] ?? [null, "OK"];
					return !!err || reply === "OK";
				});
			} catch {
				return keys.map(() => true);
			}
		},
		async release(keys) {
			if (!keys.length) return;
			await conn()
				.eval(RELEASE, keys.length, ...keys.map((k) => prefix + k), token)
				.catch(() => undefined); // it expires anyway
		},
		close() {
			redis?.disconnect();
			redis = undefined;
		},
	};
}
