import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";

// Per-credential budgets kept in the real Redis: small ones here, so they run out.

let h: typeof import("../support/stack.ts");
let stack: import("../support/stack.ts").Stack;

beforeAll(async () => {
	process.env.RATE_LIMIT_POINTS = "5";
	process.env.RATE_LIMIT_ANON_POINTS = "8";
	process.env.RATE_LIMIT_WINDOW_SECONDS = "60";
	resetConfig();
	h = await import("../support/stack.ts");
	stack = await h.startStack("gateway,auth-keys");
});
afterAll(async () => {
	await stack?.stop();
	await h?.dropTestDatabases();
});

describe("rate limits", () => {
	it("gives each API key its own budget and answers 429 rate_limited with Retry-After", async () => {
		const company = await h.companyWithSession(stack, "Busy Co");
		const a = await h.apiKey(stack, company, []);
		const b = await h.apiKey(stack, company, []);
		const statuses: number[] = [];
		let last!: Awaited<ReturnType<typeof h.api>>;
		for (let i = 0; i < 7; i++) {
			last = await h.api(stack, "GET", "/me", { key: a.secret });
			statuses.push(last.status);
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
		expect(last.body).toMatchObject({ error: "rate_limited", requestId: expect.any(String) });
		const retryAfter = Number(last.headers.get("retry-after"));
		expect(retryAfter).toBeGreaterThan(0);
		expect(retryAfter).toBeLessThanOrEqual(60);
		expect(last.headers.get("ratelimit-limit")).toBe("5");
		expect(last.headers.get("ratelimit-remaining")).toBe("0");
		// Another key of the same company is not slowed down by the first one.
		const other = await h.api(stack, "GET", "/me", { key: b.secret });
		expect(other.status).toBe(200);
		expect(other.headers.get("ratelimit-remaining")).toBe("4");
	});

	it("slows down guessing: failed credentials spend the caller's address budget", async () => {
		const statuses: number[] = [];
		for (let i = 0; i < 10; i++) statuses.push((await h.api(stack, "GET", "/me", { key: `oms_live_${"x".repeat(43)}` })).status);
		expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
		expect(statuses).toContain(429);
	});
});
