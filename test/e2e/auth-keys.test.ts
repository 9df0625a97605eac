import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { mintDevIdToken } from "../../shared/dev-issuer.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, signIn, startStack, type Company, type Stack } from "../support/stack.ts";

// Sessions, identity and API keys over HTTP against the real stack.

let stack: Stack;
let acme: Company;
let globex: Company;

beforeAll(async () => {
	stack = await startStack();
	acme = await companyWithSession(stack, "Acme Resale");
	globex = await companyWithSession(stack, "Globex Supply");
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const expectError = (res: { status: number; body: any; headers: Headers }, status: number, code: string) => {
	expect(res.status, JSON.stringify(res.body)).toBe(status);
	expect(res.body).toMatchObject({ error: code, message: expect.any(String), requestId: expect.any(String) });
	expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
	expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+|Error:|stack/);
};

const keyCount = async (c: Company) => (await api(stack, "GET", "/api-keys", { cookie: c.cookie })).body.keys.length;

describe("scopes and request ids", () => {
	it("lists all seven scopes publicly, dashboard:read included", async () => {
		const res = await api(stack, "GET", "/scopes");
		expect(res.status).toBe(200);
		expect(res.body.scopes.map((s: any) => s.value)).toEqual([
			"opportunities:read",
			"opportunities:write",
			"profile:read",
			"profile:write",
			"settings:read",
			"settings:write",
			"dashboard:read",
		]);
		for (const s of res.body.scopes)
			expect(s).toEqual({ value: expect.any(String), label: expect.stringMatching(/\w/), description: expect.stringMatching(/\w/) });
		expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
		expect(res.headers.get("ratelimit-limit")).toBeTruthy();
	});

	it("echoes a plain client request id and replaces an unsafe one", async () => {
		const ok = await api(stack, "GET", "/scopes", { headers: { "X-Request-Id": "client-abc.123" } });
		expect(ok.headers.get("x-request-id")).toBe("client-abc.123");
		const bad = await api(stack, "GET", "/me", { headers: { "X-Request-Id": "<script>".repeat(20) } });
		expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
		expectError(bad, 401, "unauthorized");
	});

	it("answers not_found in the error body for an unknown route", async () => {
		expectError(await api(stack, "GET", "/nope"), 404, "not_found");
		expectError(await api(stack, "PUT", "/me", { key: "x" }), 404, "not_found");
	});
});

describe("browser sessions", () => {
	it("signs in with a verified ID token and answers the session record with a safe cookie", async () => {
		const res = await fetch(`${stack.url}/api/v1/session`, {
			method: "POST",
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email: acme.email })}` },
		});
		expect(res.status).toBe(200);
		const body = await res.json();
		expect(body).toEqual({
			user: { email: acme.email },
			tenant: { id: acme.tenantId, name: "Acme Resale" },
			memberships: [{ tenantId: acme.tenantId, tenantName: "Acme Resale" }],
		});
		const cookie = res.headers.get("set-cookie")!;
		expect(cookie).toMatch(/^oms_session=[A-Za-z0-9_-]{43};/);
		expect(cookie).toMatch(/HttpOnly/);
		expect(cookie).toMatch(/Secure/);
		expect(cookie).toMatch(/SameSite=Lax/);
	});

	it("rejects missing, malformed, forged, expired and wrong-audience tokens alike", async () => {
		const post = (auth?: string) => api(stack, "POST", "/session", { headers: auth ? { Authorization: auth } : {} });
		expectError(await post(), 401, "unauthorized");
		expectError(await post("Bearer not-a-jwt"), 401, "unauthorized");
		expectError(await post("Basic abc"), 401, "unauthorized");
		const { privateKey } = await generateKeyPair("ES256");
		const forged = await new SignJWT({ email: acme.email, email_verified: true })
			.setProtectedHeader({ alg: "ES256", kid: "oms-dev-1" })
			.setIssuer(config().OIDC_ISSUER)
			.setAudience(config().OIDC_AUDIENCE)
			.setSubject(`dev|${acme.email}`)
			.setIssuedAt()
			.setExpirationTime("1h")
			.sign(privateKey);
		expectError(await post(`Bearer ${forged}`), 401, "unauthorized");
		expectError(await post(`Bearer ${await mintDevIdToken({ email: acme.email, expiresInSeconds: -120 })}`), 401, "unauthorized");
		expectError(await post(`Bearer ${await mintDevIdToken({ email: acme.email, audience: "someone-else" })}`), 401, "unauthorized");
		expectError(await post(`Bearer ${await mintDevIdToken({ email: acme.email, issuer: "https://evil.example" })}`), 401, "unauthorized");
		const good = await mintDevIdToken({ email: acme.email });
		expectError(await post(`Bearer ${good.slice(0, -5)}`), 401, "unauthorized");
		void exportJWK;
	});

	it("requires a verified email", async () => {
		const res = await api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email: acme.email, emailVerified: false })}` },
		});
		expectError(res, 403, "unverified_email");
	});

	it("refuses an email already bound to another identity", async () => {
		const res = await api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email: acme.email, subject: "another-subject" })}` },
		});
		expectError(res, 409, "identity_conflict");
	});

	it("answers no_membership for an account without a company or a company it is not in", async () => {
		const stranger = await api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email: `stranger-${Date.now()}@example.com` })}` },
		});
		expectError(stranger, 403, "no_membership");
		const other = await api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email: acme.email })}`, "X-Service-Tenant": globex.tenantId },
		});
		expectError(other, 403, "no_membership");
	});

	it("selects the company by X-Service-Tenant, else the most recently used one", async () => {
		const email = `consultant-${Date.now()}@example.com`;
		await stack.broker.call("auth-keys.setMembership", { tenantId: acme.tenantId, email, status: "active" });
		await stack.broker.call("auth-keys.setMembership", { tenantId: globex.tenantId, email, status: "active" });
		const token = await mintDevIdToken({ email });
		const chosen = await api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${token}`, "X-Service-Tenant": globex.tenantId },
		});
		expect(chosen.status).toBe(200);
		expect(chosen.body.tenant.id).toBe(globex.tenantId);
		expect(chosen.body.memberships).toHaveLength(2);
		const again = await api(stack, "POST", "/session", { headers: { Authorization: `Bearer ${token}` } });
		expect(again.body.tenant.id).toBe(globex.tenantId);
		// One session acts for either company by header, and only those.
		const cookie = chosen.headers.get("set-cookie")!.split(";")[0]!;
		expect((await api(stack, "GET", "/me", { cookie, headers: { "X-Service-Tenant": acme.tenantId } })).body.tenant.id).toBe(acme.tenantId);
		const third = await companyWithSession(stack, "Initech");
		expectError(await api(stack, "GET", "/me", { cookie, headers: { "X-Service-Tenant": third.tenantId } }), 403, "no_membership");
		// Not a tenant id at all: refused at the gateway (test/e2e/gateway-edge.test.ts).
		expectError(await api(stack, "GET", "/me", { cookie, headers: { "X-Service-Tenant": "not-a-uuid" } }), 400, "validation_failed");
	});

	it("answers membership_disabled, and a disabled member's session and keys stop working", async () => {
		const email = `leaver-${Date.now()}@example.com`;
		await stack.broker.call("auth-keys.setMembership", { tenantId: acme.tenantId, email, status: "active" });
		const cookie = await signIn(stack, email, acme.tenantId);
		const key = await apiKey(stack, { tenantId: acme.tenantId, email, cookie }, []);
		expect((await api(stack, "GET", "/me", { key: key.secret })).status).toBe(200);
		await stack.broker.call("auth-keys.setMembership", { tenantId: acme.tenantId, email, status: "disabled" });
		expectError(await api(stack, "GET", "/me", { key: key.secret }), 401, "unauthorized");
		expectError(await api(stack, "GET", "/me", { cookie }), 403, "membership_disabled");
		const res = await api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email })}`, "X-Service-Tenant": acme.tenantId },
		});
		expectError(res, 403, "membership_disabled");
	});

	it("needs an allowed Origin for cookie-authenticated changes", async () => {
		expectError(await api(stack, "POST", "/api-keys", { cookie: acme.cookie, origin: null, body: { name: "x" } }), 403, "forbidden");
		expectError(
			await api(stack, "POST", "/api-keys", { cookie: acme.cookie, origin: "https://evil.example", body: { name: "x" } }),
			403,
			"forbidden",
		);
	});

	it("ends the session on DELETE; the cookie then stops working", async () => {
		const cookie = await signIn(stack, acme.email);
		expect((await api(stack, "GET", "/me", { cookie })).status).toBe(200);
		const res = await api(stack, "DELETE", "/session", { cookie });
		expect(res.status).toBe(204);
		expect(res.headers.get("set-cookie")).toMatch(/Max-Age=0/);
		expectError(await api(stack, "GET", "/me", { cookie }), 401, "unauthorized");
		expectError(await api(stack, "DELETE", "/session", { cookie }), 401, "unauthorized");
	});
});

describe("GET /me", () => {
	it("describes a session caller with every scope", async () => {
		const res = await api(stack, "GET", "/me", { cookie: acme.cookie });
		expect(res.status).toBe(200);
		expect(res.body.user.email).toBe(acme.email);
		expect(res.body.tenant).toEqual({ id: acme.tenantId, name: "Acme Resale" });
		expect(res.body.credential).toEqual({
			kind: "session",
			api_key_id: null,
			scopes: expect.arrayContaining(["dashboard:read", "profile:write"]),
		});
		expect(res.body.credential.scopes).toHaveLength(7);
	});

	it("describes an API key caller with its own scopes", async () => {
		const key = await apiKey(stack, acme, ["profile:read"]);
		const res = await api(stack, "GET", "/me", { key: key.secret });
		expect(res.body.credential).toEqual({ kind: "api_key", api_key_id: key.id, scopes: ["profile:read"] });
		expect(res.body.tenant.id).toBe(acme.tenantId);
	});
});

describe("API keys", () => {
	it("creates a key whose secret is shown once and never listed", async () => {
		const res = await api(stack, "POST", "/api-keys", {
			cookie: acme.cookie,
			body: { name: "CRM sync", scopes: ["opportunities:read", "dashboard:read"] },
		});
		expect(res.status).toBe(201);
		const { key, secret } = res.body;
		expect(secret).toMatch(/^oms_live_[A-Za-z0-9_-]{43}$/);
		expect(Buffer.from(secret.slice(9), "base64url")).toHaveLength(32);
		expect(key).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			name: "CRM sync",
			display_suffix: secret.slice(-4),
			scopes: ["opportunities:read", "dashboard:read"],
			last_used_at: null,
			expires_at: null,
			revoked_at: null,
			created_at: expect.stringMatching(/Z$/),
		});
		const list = await api(stack, "GET", "/api-keys", { cookie: acme.cookie });
		expect(list.status).toBe(200);
		expect(list.body.keys.find((k: any) => k.id === key.id)).toEqual(key);
		expect(JSON.stringify(list.body)).not.toContain(secret.slice(9, 30));
		expect(list.body.keys.every((k: any) => !("secret" in k))).toBe(true);
	});

	it("defaults to no scopes, which grant nothing", async () => {
		const { secret } = await apiKey(stack, acme, []);
		const me = await api(stack, "GET", "/me", { key: secret });
		expect(me.body.credential.scopes).toEqual([]);
		const res = await api(stack, "GET", "/opportunities", { key: secret });
		expectError(res, 403, "insufficient_scope");
		expect(res.body.message).toContain("opportunities:read");
		expectError(await api(stack, "GET", "/products/partners", { key: secret }), 403, "insufficient_scope");
	});

	it("lets a key do what its scopes allow and nothing else", async () => {
		const { secret } = await apiKey(stack, acme, ["opportunities:read"]);
		expect((await api(stack, "GET", "/opportunities", { key: secret })).status).not.toBe(403);
		const write = await api(stack, "POST", `/opportunities/${crypto.randomUUID()}/feedback`, {
			key: secret,
			body: { verdict: "relevant" },
		});
		expectError(write, 403, "insufficient_scope");
		expect(write.body.message).toContain("opportunities:write");
	});

	it("never lets an API key create, list or revoke keys", async () => {
		const { secret, id } = await apiKey(stack, acme, [
			...[
				"opportunities:read",
				"opportunities:write",
				"profile:read",
				"profile:write",
				"settings:read",
				"settings:write",
				"dashboard:read",
			],
		]);
		const before = await keyCount(acme);
		expectError(await api(stack, "POST", "/api-keys", { key: secret, body: { name: "escalate", scopes: [] } }), 403, "forbidden");
		expectError(await api(stack, "GET", "/api-keys", { key: secret }), 403, "forbidden");
		expectError(await api(stack, "DELETE", `/api-keys/${id}`, { key: secret }), 403, "forbidden");
		expect(await keyCount(acme)).toBe(before);
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(200);
	});

	it("rejects bad input of every kind and stores nothing", async () => {
		const before = await keyCount(acme);
		const post = (o: Parameters<typeof api>[3]) => api(stack, "POST", "/api-keys", { cookie: acme.cookie, ...o });
		const cases: Array<[Parameters<typeof api>[3], number, string, string?]> = [
			[{ body: {} }, 400, "validation_failed", "body.name"],
			[{ body: { name: "" } }, 400, "validation_failed", "body.name"],
			[{ body: { name: "x".repeat(101) } }, 400, "validation_failed", "body.name"],
			[{ body: { name: 42 } }, 400, "validation_failed", "body.name"],
			[{ body: { name: "ok", scopes: ["admin"] } }, 400, "validation_failed", "body.scopes.0"],
			[{ body: { name: "ok", scopes: "profile:read" } }, 400, "validation_failed", "body.scopes"],
			[{ body: { name: "ok", scopes: ["profile:read", "profile:read"] } }, 400, "validation_failed", "body.scopes"],
			[{ body: { name: "ok", expiresAt: "2020-01-01T00:00:00Z" } }, 400, "validation_failed", "body.expiresAt"],
			[{ body: { name: "ok", expiresAt: "2099-01-01T00:00:00+02:00" } }, 400, "validation_failed", "body.expiresAt"],
			[{ body: { name: "ok", expiresAt: "tomorrow" } }, 400, "validation_failed", "body.expiresAt"],
			[{ body: { name: "ok", admin: true } }, 400, "validation_failed", "body"],
			[{ body: ["name"] }, 400, "validation_failed", "body"],
			[{ rawBody: '{"name": "unterminated', headers: { "Content-Type": "application/json" } }, 400, "validation_failed"],
			[{ rawBody: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } }, 415, "unsupported_type"],
			[{ rawBody: JSON.stringify({ name: "x".repeat(300_000) }), headers: { "Content-Type": "application/json" } }, 413, "file_too_large"],
		];
		for (const [o, status, code, path] of cases) {
			const res = await post(o);
			expectError(res, status, code);
			if (path) {
				expect(res.body.issues.map((i: any) => i.path)).toContain(path);
				expect(res.body.issue_count).toBe(res.body.issues.length);
				for (const i of res.body.issues)
					expect(i).toEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
			}
		}
		expect(await keyCount(acme)).toBe(before);
	});

	it("accepts an expiry in the future and rejects the key once it passes", async () => {
		const expiresAt = new Date(Date.now() + 2500).toISOString();
		const { secret } = await apiKey(stack, acme, [], { expiresAt });
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(200);
		await new Promise((r) => setTimeout(r, 2700));
		const res = await api(stack, "GET", "/me", { key: secret });
		expectError(res, 401, "unauthorized");
		expect(res.body.message).toBe("Missing or invalid credential");
	});

	it("revokes at once, idempotently, and only within the company", async () => {
		const { secret, id } = await apiKey(stack, acme, []);
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(200);
		// Another company can neither see nor revoke it.
		expectError(await api(stack, "DELETE", `/api-keys/${id}`, { cookie: globex.cookie }), 404, "not_found");
		expect((await api(stack, "GET", "/api-keys", { cookie: globex.cookie })).body.keys.find((k: any) => k.id === id)).toBeUndefined();
		expect((await api(stack, "GET", "/me", { key: secret })).status).toBe(200);

		const res = await api(stack, "DELETE", `/api-keys/${id}`, { cookie: acme.cookie });
		expect(res.status).toBe(204);
		expect(res.body).toBeNull();
		const revoked = await api(stack, "GET", "/me", { key: secret });
		expectError(revoked, 401, "unauthorized");
		expect(revoked.body.message).toBe("Missing or invalid credential");
		const listed = (await api(stack, "GET", "/api-keys", { cookie: acme.cookie })).body.keys.find((k: any) => k.id === id);
		expect(listed.revoked_at).toMatch(/Z$/);
		expect((await api(stack, "DELETE", `/api-keys/${id}`, { cookie: acme.cookie })).status).toBe(204);
		expect((await api(stack, "GET", "/api-keys", { cookie: acme.cookie })).body.keys.find((k: any) => k.id === id).revoked_at).toBe(
			listed.revoked_at,
		);
		expectError(await api(stack, "DELETE", `/api-keys/${crypto.randomUUID()}`, { cookie: acme.cookie }), 404, "not_found");
		const bad = await api(stack, "DELETE", "/api-keys/not-a-uuid", { cookie: acme.cookie });
		expectError(bad, 400, "validation_failed");
		expect(bad.body.issues[0].path).toBe("id");
	});

	it("records the last use", async () => {
		const { secret, id } = await apiKey(stack, acme, []);
		await api(stack, "GET", "/me", { key: secret });
		let last: string | null = null;
		for (let i = 0; i < 20 && !last; i++) {
			last = (await api(stack, "GET", "/api-keys", { cookie: acme.cookie })).body.keys.find((k: any) => k.id === id).last_used_at;
			if (!last) await new Promise((r) => setTimeout(r, 100));
		}
		expect(Date.now() - Date.parse(last!)).toBeLessThan(30_000);
	});

	it("rejects forged, truncated and malformed keys the same way", async () => {
		const { secret } = await apiKey(stack, acme, []);
		const flip = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
		for (const k of [
			secret.slice(0, -1),
			flip,
			`oms_live_${"A".repeat(43)}`,
			`oms_test_${secret.slice(9)}`,
			secret.slice(9),
			`${secret}x`,
			"oms_live_",
		]) {
			const res = await api(stack, "GET", "/me", { key: k });
			expectError(res, 401, "unauthorized");
			expect(res.body.message).toBe("Missing or invalid credential");
		}
		expectError(await api(stack, "GET", "/me", { headers: { Authorization: "Bearer" } }), 401, "unauthorized");
		expectError(await api(stack, "GET", "/me", { headers: { Cookie: "oms_session=forged" } }), 401, "unauthorized");
		expectError(await api(stack, "GET", "/me", { headers: { Cookie: `oms_session=${"a".repeat(43)}` } }), 401, "unauthorized");
	});

	it("keeps each company's keys to itself", async () => {
		const a = await apiKey(stack, acme, []);
		const g = await apiKey(stack, globex, []);
		const aList = (await api(stack, "GET", "/api-keys", { cookie: acme.cookie })).body.keys.map((k: any) => k.id);
		const gList = (await api(stack, "GET", "/api-keys", { cookie: globex.cookie })).body.keys.map((k: any) => k.id);
		expect(aList).toContain(a.id);
		expect(aList).not.toContain(g.id);
		expect(gList).toContain(g.id);
		expect(gList).not.toContain(a.id);
		expect((await api(stack, "GET", "/me", { key: g.secret })).body.tenant.id).toBe(globex.tenantId);
	});
});
