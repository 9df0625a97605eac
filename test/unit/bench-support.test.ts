import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { HttpStatusError, ownServiceEnv, Tally } from "../../scripts/bench-support.ts";

// Issue 17: a benchmark counted every answer as served (82,756 "errors" in 10 s of a public
// route were 429s of the anonymous rate budget, counted into its req/s), and bench:gateway's
// own service process could not start beside `npm start`, which holds the ops port 9464.

describe("benchmark tallies", () => {
	it("count only 2xx answers as served, with their latencies, and every other status apart", async () => {
		const t = new Tally();
		for (const [status, ms] of [
			[200, 10],
			[201, 20],
			[429, 1],
			[429, 1],
			[503, 2],
			[204, 30],
		] as const)
			t.record(status, ms);
		await t.time(async () => {
			throw new HttpStatusError(404, "GET /x: 404");
		});
		await t.time(async () => {
			throw new Error("socket hang up");
		});
		expect(t.served).toBe(3);
		expect(t.notServed).toBe(5);
		expect(t.latency(0)).toBe(10); // a fast 429 is no served latency
		expect(t.latency(1)).toBe(30);
		expect(t.otherStatuses()).toBe("no answer x 1, 404 x 1, 429 x 2, 503 x 1");
		expect(new Tally().otherStatuses()).toBe("none");
	});
});

describe("a benchmark's own service process", () => {
	it("takes a free API port and any free ops port, stays off other stacks' bus, and is never rate-limited", async () => {
		const env = await ownServiceEnv("t");
		expect(env.OPS_PORT).toBe("0");
		expect(env.TRANSPORTER).toBe("");
		expect(Number(env.RATE_LIMIT_ANON_POINTS)).toBeGreaterThanOrEqual(1e8);
		expect(Number(env.RATE_LIMIT_POINTS)).toBeGreaterThanOrEqual(1e8);
		const free = await new Promise<boolean>((res) => {
			const s = createServer().once("error", () => res(false));
			s.listen(Number(env.PORT), "127.0.0.1", () => s.close(() => res(true)));
		});
		expect(free).toBe(true);
		expect(env.MONGO_DB_PREFIX).not.toBe((await ownServiceEnv("t")).MONGO_DB_PREFIX);
	});
});
