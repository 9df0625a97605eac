import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { opsPort } from "../../shared/ops-server.ts";
import { freePort, waitFor } from "../support/processes.ts";
import { dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// The API port's /readyz is public: it says whether the gateway is ready and nothing about why
// not. The reasons (which check, its error) are on the ops port, which is not exposed. Here a
// gateway alone (no service it routes to) with its rate-limit Redis on a port nothing listens on.

let stack: Stack;
const get = async (url: string) => {
	const res = await fetch(url);
	const text = await res.text();
	return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
};

beforeAll(async () => {
	process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
	resetConfig();
	stack = await startStack("gateway");
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

describe("/readyz", () => {
	it("answers 503 on the API port with a generic message: no check, no service, no error text", async () => {
		const res = await get(`${stack.url}/readyz`);
		expect(res.status).toBe(503);
		expect(res.headers.get("retry-after")).toBe("5");
		const body = res.json();
		expect(body).toEqual({ error: "internal", message: expect.any(String), requestId: expect.any(String) });
		for (const secret of ["redis", "rate-limits", "connect", "catalog", "auth-keys", "instance", "127.0.0.1", "("])
			expect(res.text).not.toContain(secret);
	});

	it("keeps the details on the ops port: each failing check with its error", async () => {
		const ops = `http://127.0.0.1:${opsPort(stack.broker)}`;
		const { checks } = await waitFor(
			"ops /readyz to fail",
			async () => {
				const r = await get(`${ops}/readyz`);
				return r.status === 503 ? r.json() : undefined;
			},
			5000,
		);
		expect(checks["redis:rate-limits"]).toMatchObject({ status: "down", error: expect.any(String) });
		expect(checks["routed-services"]).toMatchObject({ status: "down", error: expect.stringContaining("catalog") });
		expect(checks["routed-services"].error).toContain("auth-keys");
	});
});
