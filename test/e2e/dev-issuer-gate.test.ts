import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { mintDevIdToken } from "../../shared/dev-issuer.ts";
import { cli } from "../support/processes.ts";
import { api, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// The local development issuer signs ID tokens for any email with a key pair on disk. It is
// trusted, and `cli dev:token` mints with it, only when DEV_ISSUER=on (the test suite turns it
// on in test/support/env.ts); an unset NODE_ENV no longer enables it, and production refuses it.

let stack: Stack;
const email = `gate-${Date.now()}@example.com`;
let token: string;

beforeAll(async () => {
	// A token from the issuer while it is on (the key pair is the suite's), then services without it.
	process.env.DEV_ISSUER = "on";
	resetConfig();
	token = await mintDevIdToken({ email });
	process.env.DEV_ISSUER = "off";
	resetConfig();
	stack = await startStack();
	await stack.broker.call("auth-keys.createTenant", { name: "Gate Co", ownerEmail: email });
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

describe("the local development issuer", () => {
	it("is not trusted for sign-in unless DEV_ISSUER=on", async () => {
		const res = await api(stack, "POST", "/session", { headers: { Authorization: `Bearer ${token}` } });
		expect(res.status, JSON.stringify(res.body)).toBe(401);
		expect(res.body).toMatchObject({ error: "unauthorized", message: expect.stringMatching(/not configured/) });
		expect(res.headers.get("set-cookie")).toBeNull();
	});

	it("mints nothing in-process while off", async () => {
		await expect(mintDevIdToken({ email })).rejects.toThrow(/DEV_ISSUER=on/);
	});

	it("cli dev:token mints only with DEV_ISSUER=on", async () => {
		const off = await cli(["dev:token", "--email", email], { DEV_ISSUER: "off" });
		expect(off.code).not.toBe(0);
		expect(off.stdout).toBe("");
		expect(off.stderr).toMatch(/DEV_ISSUER=on/);
		const unset = await cli(["dev:token", "--email", email], { DEV_ISSUER: "" });
		expect(unset.code, "an empty DEV_ISSUER is not a valid setting either").not.toBe(0);
		const on = await cli(["dev:token", "--email", email], { DEV_ISSUER: "on" });
		expect(on.code, on.stderr).toBe(0);
		expect(on.stdout.trim().split(".")).toHaveLength(3);
	});

	it("cli dev:token is refused in production", async () => {
		const oidc = { OIDC_ISSUER: "https://id.example.com", OIDC_JWKS_URL: "https://id.example.com/jwks" };
		const prod = { NODE_ENV: "production", DEV_ISSUER: "on", CURSOR_SECRET: "c".repeat(40), ...oidc };
		const r = await cli(["dev:token", "--email", email], prod);
		expect(r.code).not.toBe(0);
		expect(r.stdout).toBe("");
		expect(r.stderr).toMatch(/DEV_ISSUER=on is refused in production/);
	});
});
