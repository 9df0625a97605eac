import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadConfig, resetConfig } from "../../shared/config.ts";
import { dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// TRUST_PROXY: the anonymous rate limit is keyed on the client's address, which behind a proxy
// only X-Forwarded-For tells. It is believed from a trusted peer only, walked right to left past
// the trusted hops; from anyone else it is ignored. The test's loopback peer plays the proxy.

let stack: Stack | undefined;
afterEach(async () => {
	await stack?.stop();
	stack = undefined;
});
afterAll(async () => {
	await dropTestDatabases();
});

async function gatewayTrusting(trustProxy: string | undefined): Promise<Stack> {
	if (trustProxy === undefined) delete process.env.TRUST_PROXY;
	else process.env.TRUST_PROXY = trustProxy;
	process.env.RATE_LIMIT_ANON_POINTS = "50";
	resetConfig();
	stack = await startStack("gateway,auth-keys");
	return stack;
}

/** What an anonymous request with this X-Forwarded-For has left of its budget. */
async function remaining(s: Stack, forwardedFor?: string): Promise<number> {
	const res = await fetch(`${s.url}/api/v1/scopes`, { headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} });
	await res.arrayBuffer();
	expect(res.status).toBe(200);
	return Number(res.headers.get("ratelimit-remaining"));
}

describe("TRUST_PROXY", () => {
	it("gives clients behind a trusted proxy a budget each, by X-Forwarded-For", async () => {
		const s = await gatewayTrusting("loopback, 10.0.0.0/8");
		expect(await remaining(s, "198.51.100.1")).toBe(49);
		expect(await remaining(s, "198.51.100.2")).toBe(49);
		expect(await remaining(s, "198.51.100.1")).toBe(48);
		// Past every trusted hop (10.x is another proxy of ours): the client is 198.51.100.3.
		expect(await remaining(s, "198.51.100.3, 10.1.2.3")).toBe(49);
		expect(await remaining(s, "198.51.100.3")).toBe(48);
		// A client cannot pick a fresh address: what it put left of the first untrusted hop is not believed.
		expect(await remaining(s, "192.0.2.1, 198.51.100.4")).toBe(49);
		expect(await remaining(s, "192.0.2.2, 198.51.100.4")).toBe(48);
	});

	it("ignores X-Forwarded-For without TRUST_PROXY: one budget for the peer", async () => {
		const s = await gatewayTrusting(undefined);
		const first = await remaining(s, "198.51.100.11");
		expect(await remaining(s, "198.51.100.12")).toBe(first - 1);
		expect(await remaining(s)).toBe(first - 2);
	});

	it("ignores X-Forwarded-For from a peer that is not among the trusted proxies", async () => {
		const s = await gatewayTrusting("10.0.0.0/8");
		const first = await remaining(s, "198.51.100.21");
		expect(await remaining(s, "198.51.100.22")).toBe(first - 1);
	});

	it("refuses to start with a TRUST_PROXY that is no address", () => {
		expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/8, proxy.example.com" })).toThrow(/TRUST_PROXY/);
		expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(/TRUST_PROXY/);
		expect(loadConfig({ TRUST_PROXY: " 10.0.0.1 ,loopback,," }).trustedProxies).toEqual(["10.0.0.1", "loopback"]);
	});
});
