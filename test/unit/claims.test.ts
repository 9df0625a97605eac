import { afterAll, describe, expect, it } from "vitest";
import { redisClaims, type Claims } from "../../shared/claims.ts";
import { resetConfig } from "../../shared/config.ts";
import { freePort } from "../support/processes.ts";

// Leases on backlog products (shared/claims.ts) against the real Redis: two holders never get
// the same key, a holder gives back only its own, a lease expires, and without Redis every
// claim succeeds (duplicate work, never none).

const opened: Claims[] = [];
const holder = (scope: string, ttlMs = 60_000) => {
	const c = redisClaims(scope, ttlMs);
	opened.push(c);
	return c;
};
afterAll(() => {
	for (const c of opened) c.close();
});

describe("redisClaims", () => {
	it("gives each key to one holder at a time, and back only by that holder", async () => {
		const scope = `claims-${crypto.randomUUID()}`;
		const [a, b, c] = [holder(scope), holder(scope), holder(scope)];
		expect(await a.claim(["p1", "p2"])).toEqual([true, true]);
		expect(await b.claim(["p2", "p3"])).toEqual([false, true]);
		await b.release(["p2", "p3"]);
		expect(await c.claim(["p2", "p3"])).toEqual([false, true]);
		await a.release(["p1", "p2"]);
		expect(await c.claim(["p1", "p2"])).toEqual([true, true]);
		expect(await a.claim([])).toEqual([]);
	});

	it("keeps scopes apart and lets a lease expire", async () => {
		const scope = `claims-${crypto.randomUUID()}`;
		const short = holder(scope, 300);
		expect(await short.claim(["p1"])).toEqual([true]);
		expect(await holder(`${scope}-other`).claim(["p1"])).toEqual([true]);
		const next = holder(scope);
		expect(await next.claim(["p1"])).toEqual([false]);
		await new Promise((r) => setTimeout(r, 500));
		expect(await next.claim(["p1"])).toEqual([true]);
	});

	it("lets every claim succeed while Redis does not answer", async () => {
		const url = process.env.REDIS_URL;
		process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
		resetConfig();
		try {
			const [a, b] = [holder("down"), holder("down")];
			expect(await a.claim(["p1", "p2"])).toEqual([true, true]);
			expect(await b.claim(["p1"])).toEqual([true]);
			await expect(a.release(["p1"])).resolves.toBeUndefined();
		} finally {
			if (url === undefined) delete process.env.REDIS_URL;
			else process.env.REDIS_URL = url;
			resetConfig();
		}
	});
});
