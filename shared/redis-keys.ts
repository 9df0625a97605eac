import { Redis } from "ioredis";
import { config } from "./config.ts";

// A test file's or a benchmark's own cluster keeps its queues, leases, rate budgets and the
// credentials' stamp under a Redis prefix of its own; dropping its databases left those keys
// behind (tens of thousands after a day of benchmarks). Dropped with the databases now.

/**
 * Deletes every key under `prefix` (a REDIS_PREFIX followed by its `:`). A Redis that does not
 * answer (a test's own one, stopped by the test) keeps its keys: answers false, never throws.
 */
export async function dropRedisKeys(prefix: string): Promise<boolean> {
	if (!prefix.endsWith(":") || prefix.length < 2) throw new Error(`refusing to drop Redis keys under "${prefix}"`);
	const redis = new Redis(config().REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
	redis.on("error", () => {
		/* answered below */
	});
	try {
		await redis.connect();
		let cursor = "0";
		do {
			const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
			cursor = next;
			if (keys.length) await redis.unlink(...keys);
		} while (cursor !== "0");
		return true;
	} catch {
		return false;
	} finally {
		redis.disconnect();
	}
}
