// Why: a test file's or a benchmark's Redis keys must go with its databases, and only its own:
// another run's prefix beside it (a longer one starting the same) keeps every key.
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { dropRedisKeys } from "../../shared/redis-keys.ts";

const redis = new Redis(config().REDIS_URL);
afterAll(() => redis.disconnect());

describe("dropRedisKeys", () => {
	it("deletes every key under the prefix and none under another", async () => {
		const mine = `${config().REDIS_PREFIX}-drop:`;
		const other = `${config().REDIS_PREFIX}-drop2:`;
		for (let i = 0; i < 2500; i++) await redis.set(`${mine}k${i}`, "1");
		await redis.set(`${other}k`, "1");
		await dropRedisKeys(mine);
		expect(await redis.keys(`${mine}*`)).toEqual([]);
		expect(await redis.get(`${other}k`)).toBe("1");
		await dropRedisKeys(other);
		expect(await redis.exists(`${other}k`)).toBe(0);
	});

	it("refuses a prefix that does not end a key's first part", async () => {
		await expect(dropRedisKeys("oms")).rejects.toThrow(/refusing/);
		await expect(dropRedisKeys(":")).rejects.toThrow(/refusing/);
	});
});
