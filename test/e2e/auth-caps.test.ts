import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "mongoose";
import { authModels, type AuthModels } from "../../services/auth-keys/models.ts";
import { resetConfig } from "../../shared/config.ts";
import { mintDevIdToken } from "../../shared/dev-issuer.ts";
import { sha256 } from "../../shared/hash.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { api, companyWithSession, dropTestDatabases, startStack, type ApiResponse, type Company, type Stack } from "../support/stack.ts";

// Caps through the real HTTP stack: a company holds at most API_KEYS_PER_COMPANY active keys and
// an account at most SESSIONS_PER_ACCOUNT live sessions. More are refused with 403 forbidden
// (a code the contract allows for these endpoints), also when the requests arrive all at once,
// and a revoked or expired key, or an ended or expired session, frees its place.

const KEY_CAP = 50;
const SESSION_CAP = 20;
process.env.API_KEYS_PER_COMPANY = String(KEY_CAP);
process.env.SESSIONS_PER_ACCOUNT = String(SESSION_CAP);
resetConfig();

let stack: Stack;
let conn: Connection;
let m: AuthModels;
let acme: Company;
let globex: Company;

beforeAll(async () => {
	stack = await startStack();
	conn = await connectServiceDb("auth");
	m = authModels(conn);
	acme = await companyWithSession(stack, "Cap Keys Co");
	globex = await companyWithSession(stack, "Cap Other Co");
}, 60_000);
afterAll(async () => {
	await conn?.close();
	await stack?.stop();
	await dropTestDatabases();
});

const createKey = (c: Company, name: string, extra: Record<string, unknown> = {}) =>
	api(stack, "POST", "/api-keys", { cookie: c.cookie, body: { name, scopes: [], ...extra } });
const activeKeys = async (c: Company) => {
	const res = await api(stack, "GET", "/api-keys", { cookie: c.cookie });
	expect(res.status).toBe(200);
	const keys = res.body.keys as Array<{ id: string; revoked_at: string | null; expires_at: string | null }>;
	return keys.filter((k) => !k.revoked_at && (!k.expires_at || Date.parse(k.expires_at) > Date.now()));
};
const expectCapped = (res: ApiResponse, what: RegExp) => {
	expect(res.status, JSON.stringify(res.body)).toBe(403);
	expect(res.body).toMatchObject({ error: "forbidden", message: expect.stringMatching(what), requestId: expect.any(String) });
};
const byStatus = (all: ApiResponse[]) =>
	all.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});

describe(`active API keys per company (cap ${KEY_CAP})`, () => {
	it(`lets exactly ${KEY_CAP} of 60 concurrent creates through and refuses the rest`, async () => {
		const all = await Promise.all(Array.from({ length: 60 }, (_, i) => createKey(acme, `burst ${i}`)));
		expect(byStatus(all)).toEqual({ 201: KEY_CAP, 403: 60 - KEY_CAP });
		for (const r of all.filter((x) => x.status !== 201)) expectCapped(r, /50 active API keys/);
		expect(await activeKeys(acme)).toHaveLength(KEY_CAP);
	}, 120_000);

	it("refuses the next one, and a revoked key frees exactly one place", async () => {
		expectCapped(await createKey(acme, "one too many"), /50 active API keys/);
		const [victim] = await activeKeys(acme);
		expect((await api(stack, "DELETE", `/api-keys/${victim!.id}`, { cookie: acme.cookie })).status).toBe(204);
		// Revoking again changes nothing (idempotent): still one place.
		expect((await api(stack, "DELETE", `/api-keys/${victim!.id}`, { cookie: acme.cookie })).status).toBe(204);
		expect((await createKey(acme, "replacement")).status).toBe(201);
		expectCapped(await createKey(acme, "again too many"), /50 active API keys/);
		expect(await activeKeys(acme)).toHaveLength(KEY_CAP);
	}, 60_000);

	it("counts an expired key no more", async () => {
		const [victim] = await activeKeys(acme);
		expect((await api(stack, "DELETE", `/api-keys/${victim!.id}`, { cookie: acme.cookie })).status).toBe(204);
		const expiresAt = new Date(Date.now() + 3000).toISOString();
		expect((await createKey(acme, "short-lived", { expiresAt })).status).toBe(201);
		expectCapped(await createKey(acme, "while it lives"), /50 active API keys/);
		await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 500));
		expect((await createKey(acme, "after it expired")).status).toBe(201);
		expectCapped(await createKey(acme, "full again"), /50 active API keys/);
	}, 60_000);

	it("counts keys written before the cap existed (no place yet), and places them before adding any", async () => {
		const legacy = await companyWithSession(stack, "Cap Legacy Co");
		const row = (i: number, revoked: boolean) => ({
			tenant_id: legacy.tenantId,
			membership_id: "m-legacy",
			name: `legacy ${i}`,
			secret_hash: sha256(`legacy-${legacy.tenantId}-${i}`),
			display_suffix: "abcd",
			scopes: [],
			expires_at: null,
			revoked_at: revoked ? new Date() : null,
			created_at: new Date(),
		});
		// As an earlier release wrote them: 48 active and 5 revoked keys, none holding a place.
		await m.apiKeys.insertMany([
			...Array.from({ length: 48 }, (_, i) => row(i, false)),
			...Array.from({ length: 5 }, (_, i) => row(100 + i, true)),
		]);
		const all = await Promise.all(Array.from({ length: 6 }, (_, i) => createKey(legacy, `new ${i}`)));
		expect(byStatus(all)).toEqual({ 201: 2, 403: 4 });
		expect(await activeKeys(legacy)).toHaveLength(KEY_CAP);
		expect(await m.apiKeys.countDocuments({ tenant_id: legacy.tenantId, place: { $exists: true } })).toBe(KEY_CAP);
	}, 60_000);

	it("caps each company on its own", async () => {
		expect((await createKey(globex, "other company")).status).toBe(201);
	});

	it("documents the cap and its code in the OpenAPI operation", async () => {
		const doc = (await api(stack, "GET", "/openapi.json", { cookie: acme.cookie })).body;
		const op = doc.paths["/api/v1/api-keys"].post;
		expect(op.description).toMatch(/50 active API keys/);
		expect(op.description).toMatch(/403 `forbidden`/);
		expect(op.responses["403"].description).toMatch(/forbidden/);
		expect(doc.paths["/api/v1/session"].post.description).toMatch(/20 live sessions/);
	});
});

describe(`live sessions per account (cap ${SESSION_CAP})`, () => {
	const email = `sessions-${Date.now()}@example.com`;
	let tenantId: string;
	const signIn = async () =>
		api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email })}`, "X-Service-Tenant": tenantId },
		});
	const cookieOf = (r: ApiResponse) => r.headers.get("set-cookie")!.split(";")[0]!;
	let cookies: string[] = [];

	beforeAll(async () => {
		({ tenantId } = await stack.broker.call<{ tenantId: string }, object>("auth-keys.createTenant", {
			name: "Cap Sessions Co",
			ownerEmail: email,
		}));
	});

	it(`lets exactly ${SESSION_CAP} of 25 concurrent sign-ins through and refuses the rest`, async () => {
		const all = await Promise.all(Array.from({ length: 25 }, () => signIn()));
		expect(byStatus(all)).toEqual({ 200: SESSION_CAP, 403: 25 - SESSION_CAP });
		for (const r of all.filter((x) => x.status !== 200)) {
			expectCapped(r, /20 live sessions/);
			expect(r.headers.get("set-cookie")).toBeNull();
		}
		cookies = all.filter((r) => r.status === 200).map(cookieOf);
		expect(new Set(cookies).size).toBe(SESSION_CAP);
		expect((await api(stack, "GET", "/me", { cookie: cookies[SESSION_CAP - 1] })).status).toBe(200);
		expect(await m.sessions.countDocuments({ tenant_id: tenantId })).toBe(SESSION_CAP);
	}, 120_000);

	it("frees a place when a session is signed out", async () => {
		expectCapped(await signIn(), /20 live sessions/);
		expect((await api(stack, "DELETE", "/session", { cookie: cookies.shift() })).status).toBe(204);
		const again = await signIn();
		expect(again.status).toBe(200);
		cookies.push(cookieOf(again));
		expectCapped(await signIn(), /20 live sessions/);
	});

	it("counts an expired session no more", async () => {
		// Twelve hours pass for one session: its expiry moves into the past.
		const token = cookies.shift()!.split("=")[1]!;
		const r = await m.sessions.updateOne({ token_hash: sha256(token) }, { $set: { expires_at: new Date(Date.now() - 1000) } });
		expect(r.modifiedCount).toBe(1);
		expect((await signIn()).status).toBe(200);
		expectCapped(await signIn(), /20 live sessions/);
	});
});
