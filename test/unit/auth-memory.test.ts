import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { AuthMemory } from "../../services/auth-keys/auth-memory.ts";
import { config } from "../../shared/config.ts";
import { redisOptions } from "../../shared/queue.ts";
import { freePort } from "../support/processes.ts";

// auth-keys answers credentials from memory only under the stamp in Redis they were read under
// (services/auth-keys/auth-memory.ts). Two memories stand for two auth-keys processes here:
// a change made through one must make the other read again on its very next request, and
// without Redis neither may answer from memory.

const clients: Redis[] = [];
const memories: AuthMemory[] = [];
const key = `${config().REDIS_PREFIX}:auth:stamp:${randomBytes(4).toString("hex")}`;

/** A memory over its own connection, as each process has (connected, unless Redis is away). */
async function memory(url = config().REDIS_URL, ttlMs = 60_000): Promise<AuthMemory> {
	const redis = new Redis(url, { ...redisOptions(false), commandTimeout: 1000 });
	redis.on("error", () => undefined);
	clients.push(redis);
	if (url === config().REDIS_URL) await new Promise((r) => redis.once("ready", r));
	const m = new AuthMemory(redis, key, ttlMs);
	memories.push(m);
	return m;
}

const credential = { auth: { kind: "api_key" as const, tenantId: "t", userId: "u", membershipId: "m", scopes: [] }, expiresAt: null };

afterAll(async () => {
	for (const m of memories) m.close();
	await clients[0]?.del(key);
	for (const c of clients) c.disconnect();
});

describe("auth memory", () => {
	it("forgets, in every process, what was read before a change made in any of them", async () => {
		const [a, b] = [await memory(), await memory()];
		const stamp = await a.stamp();
		expect(stamp).toMatch(/^[0-9a-f]{24}$/);
		expect(await b.stamp()).toBe(stamp);
		a.credentials.set("key:h", stamp, credential);
		expect(a.credentials.get("key:h", await a.stamp())).toEqual(credential);

		await b.changed("revocation");
		const next = await a.stamp();
		expect(next).not.toBe(stamp);
		expect(a.credentials.get("key:h", next)).toBeUndefined();
	});

	it("keeps an answer no longer than its time to live, and nothing when that is 0", async () => {
		const short = await memory(undefined, 50);
		const stamp = await short.stamp();
		short.credentials.set("key:h", stamp, credential);
		expect(short.credentials.get("key:h", stamp)).toEqual(credential);
		await new Promise((r) => setTimeout(r, 60));
		expect(short.credentials.get("key:h", stamp)).toBeUndefined();

		const off = await memory(undefined, 0);
		expect(await off.stamp()).toBeNull();
		await off.changed("revocation"); // still tells the processes that remember
	});

	it("answers nothing from memory without Redis, and says a revocation is not yet in effect everywhere", async () => {
		const away = await memory(`redis://127.0.0.1:${await freePort()}`);
		expect(await away.stamp()).toBeNull();
		away.credentials.set("key:h", null, credential);
		expect(away.credentials.get("key:h", null)).toBeUndefined();
		await expect(away.changed("revocation")).rejects.toMatchObject({ type: "internal", code: 503 });
		await away.changed("grant"); // a company added: only a list is late
	}, 10_000);

	it("waits for a connection still being made before it tells a change (a CLI that just started)", async () => {
		const reader = await memory();
		const before = await reader.stamp();
		const redis = new Redis(config().REDIS_URL, { ...redisOptions(false), commandTimeout: 1000 });
		redis.on("error", () => undefined);
		clients.push(redis);
		const fresh = new AuthMemory(redis, key, 60_000);
		memories.push(fresh);
		expect(redis.status).not.toBe("ready");
		await fresh.changed("revocation");
		expect(await reader.stamp()).not.toBe(before);
	});
});
