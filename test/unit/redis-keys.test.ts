// Why: a test file's or a benchmark's Redis keys must go with its databases, and only its own:
// another run's prefix beside it (a longer one starting the same) keeps every key.
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { config, resetConfig } from "../../shared/config.ts";
import { dropRedisKeys } from "../../shared/redis-keys.ts";

const redis = new Redis(config().REDIS_URL);
afterAll(() => redis.disconnect());

describe("dropRedisKeys", () => {
	it("deletes every key under the prefix and none under another", async () => {
		const mine = `${config().REDIS_PREFIX}-drop:`;
		const other = `${config().REDIS_PREFIX}-drop2:`;
		for (let i = 0; i < 2500; i++) await redis.set(`${mine}k${i}`, "1");
		await redis.set(`${other}k`, "1");
		expect(await dropRedisKeys(mine)).toBe(true);
		expect(await redis.keys(`${mine}*`)).toEqual([]);
		expect(await redis.get(`${other}k`)).toBe("1");
		await dropRedisKeys(other);
		expect(await redis.exists(`${other}k`)).toBe(0);
	});

	it("keeps going when Redis does not answer (a test's own Redis, stopped)", async () => {
		const saved = process.env.REDIS_URL;
		process.env.REDIS_URL = "redis://127.0.0.1:1";
		resetConfig();
		try {
			expect(await dropRedisKeys("oms-gone:")).toBe(false);
		} finally {
			if (saved === undefined) delete process.env.REDIS_URL;
			else process.env.REDIS_URL = saved;
			resetConfig();
		}
	});

	it("refuses a prefix that does not end a key's first part", async () => {
		await expect(dropRedisKeys("oms")).rejects.toThrow(/refusing/);
		await expect(dropRedisKeys(":")).rejects.toThrow(/refusing/);
	});
});
