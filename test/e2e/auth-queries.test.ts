import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiKey, companyWithSession, dropTestDatabases, signIn, startStack, type Company, type Stack } from "../support/stack.ts";

// Issue 17, item 5: GET /me with a credential read the auth database on every request (an API
// key: the key, its membership, the user, the memberships list; a session: the session, the
// user, the membership, the tenant, the list), and that bounded its rate. What auth-keys may
// answer from memory is what a change made through it makes it read again: so a revoked or
// expired key, an ended session or a disabled membership is refused on the very next request,
// each checked here with the credential's answer already in memory.

let stack: Stack;
let acme: Company;
let conn: Connection;
let queries: string[] = [];

beforeAll(async () => {
	stack = await startStack("gateway,auth-keys");
	acme = await companyWithSession(stack, "Query Count Co");
	conn = (stack.broker.getLocalService("auth-keys") as unknown as { conn: Connection }).conn;
	conn.set("debug", (collection: string, method: string) => queries.push(`${collection}.${method}`));
});
afterAll(async () => {
	conn?.set("debug", false);
	await stack?.stop();
	await dropTestDatabases();
});

/** The auth database's queries made by `n` GET /me with the credential, after two to warm up. */
async function queriesPerMe(credential: { key?: string; cookie?: string }, n = 10): Promise<string[]> {
	for (let i = 0; i < 2; i++) expect((await api(stack, "GET", "/me", credential)).status).toBe(200);
	queries = [];
	for (let i = 0; i < n; i++) expect((await api(stack, "GET", "/me", credential)).status).toBe(200);
	return queries;
}

/** Calls of auth-keys.authenticate so far (Moleculer's request counter): the gateway's questions. */
function authenticateCalls(): number {
	const metric = stack.broker.metrics.getMetric("moleculer.request.total");
	const values = (metric?.snapshot() ?? []) as unknown as Array<{ labels: { action?: string }; value: number }>;
	return values.filter((v) => v.labels.action === "auth-keys.authenticate").reduce((sum, v) => sum + v.value, 0);
}

describe("GET /me", () => {
	it("asks auth-keys about a credential once, then again only after a change that could take access away", async () => {
		const { secret } = await apiKey(stack, acme, ["opportunities:read"]);
		const other = await apiKey(stack, acme, []);
		let before = authenticateCalls();
		await queriesPerMe({ key: secret }, 5);
		await queriesPerMe({ cookie: acme.cookie }, 5);
		expect(authenticateCalls() - before).toBeLessThanOrEqual(2); // each credential's first request at most
		expect(authenticateCalls() - before).toBeGreaterThan(0);
		// Revoking another key is a change: every remembered answer is asked about again, once.
		expect((await api(stack, "DELETE", `/api-keys/${other.id}`, { cookie: acme.cookie })).status).toBe(204);
		before = authenticateCalls();
		for (let i = 0; i < 3; i++) expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(200);
		expect(authenticateCalls() - before).toBe(1);
		// A refused credential is never remembered: every request asks.
		before = authenticateCalls();
		for (let i = 0; i < 3; i++) expect((await api(stack, "GET", "/me", { key: other.secret })).status).toBe(401);
		expect(authenticateCalls() - before).toBe(3);
	});

	it("answers a known API key and a known session without reading the auth database", async () => {
		const { secret } = await apiKey(stack, acme, ["opportunities:read"]);
		expect(await queriesPerMe({ key: secret })).toEqual([]);
		expect(await queriesPerMe({ cookie: acme.cookie })).toEqual([]);
	});

	it("refuses a key on the very next request after it is revoked", async () => {
		const { secret, id } = await apiKey(stack, acme, []);
		await queriesPerMe({ key: secret }, 1);
		expect((await api(stack, "DELETE", `/api-keys/${id}`, { cookie: acme.cookie })).status).toBe(204);
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(401);
	});

	it("refuses a key on the very next request after it expires", async () => {
		const expiresAt = new Date(Date.now() + 2000).toISOString();
		const { secret } = await apiKey(stack, acme, [], { expiresAt });
		await queriesPerMe({ key: secret }, 1);
		await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 50));
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(401);
	});

	it("refuses a session on the very next request after it ends", async () => {
		const cookie = await signIn(stack, acme.email);
		await queriesPerMe({ cookie }, 1);
		expect((await api(stack, "DELETE", "/session", { cookie })).status).toBe(204);
		expect((await api(stack, "GET", "/me", { cookie })).status).toBe(401);
	});

	it("refuses a disabled member's key and session on the very next request, and lists the company again once re-enabled", async () => {
		const email = `member-${Date.now()}@example.com`;
		await stack.broker.call("auth-keys.setMembership", { tenantId: acme.tenantId, email, status: "active" });
		const cookie = await signIn(stack, email, acme.tenantId);
		const { secret } = await apiKey(stack, { tenantId: acme.tenantId, email, cookie }, []);
		await queriesPerMe({ key: secret }, 1);
		await queriesPerMe({ cookie }, 1);

		await stack.broker.call("auth-keys.setMembership", { tenantId: acme.tenantId, email, status: "disabled" });
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(401);
		expect((await api(stack, "GET", "/me", { cookie })).body.error).toBe("membership_disabled");

		await stack.broker.call("auth-keys.setMembership", { tenantId: acme.tenantId, email, status: "active" });
		const me = await api(stack, "GET", "/me", { key: secret });
		expect(me.status).toBe(200);
		expect(me.body.memberships).toEqual([{ tenantId: acme.tenantId, tenantName: "Query Count Co" }]);
	});

	it("lists a company the account joins on its very next request", async () => {
		const other = await companyWithSession(stack, "Second Co");
		const before = (await api(stack, "GET", "/me", { cookie: acme.cookie })).body.memberships.length;
		await stack.broker.call("auth-keys.setMembership", { tenantId: other.tenantId, email: acme.email, status: "active" });
		expect((await api(stack, "GET", "/me", { cookie: acme.cookie })).body.memberships).toHaveLength(before + 1);
	});
});
