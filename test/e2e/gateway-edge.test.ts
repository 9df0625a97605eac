import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { API_ROUTES } from "../../services/gateway/routes.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, ORIGIN, startStack, type Company, type Stack } from "../support/stack.ts";

// What the gateway refuses at its edge, before any service is called: malformed tenant
// headers, bodies it cannot decode, path parameters that are not percent-encoded UTF-8,
// JSON nested too deep for the bus; the credential before the body; and the headers every
// answer carries.

let stack: Stack;
let company: Company;
let key: string;

beforeAll(async () => {
	// A budget no test here exhausts, while every anonymous request still spends from it; this
	// file's own setting also keeps its services in this process, where their calls are counted.
	process.env.RATE_LIMIT_ANON_POINTS = "1000";
	resetConfig();
	stack = await startStack();
	company = await companyWithSession(stack, "Edge Works");
	key = (await apiKey(stack, company, ["profile:read", "profile:write"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

/**
 * Calls so far of the actions a request can reach (the route table's and authentication), but
 * those listed (Moleculer's request counter). Background work (reconcilers, schedules) calls
 * internal actions meanwhile, so those are not counted.
 */
const REACHABLE = new Set([...Object.values(API_ROUTES), "auth-keys.authenticate"].filter((a) => !a.startsWith("gateway.")));
function serviceCalls(except: string[]): number {
	const metric = stack.broker.metrics.getMetric("moleculer.request.total");
	const values = (metric?.snapshot() ?? []) as unknown as Array<{ labels: { action?: string }; value: number }>;
	const counted = values.filter((v) => REACHABLE.has(v.labels.action ?? "") && !except.includes(v.labels.action ?? ""));
	return counted.reduce((sum, v) => sum + v.value, 0);
}

/** Runs the request and checks that it answered without calling any service (but those listed). */
async function withoutCalls<T>(request: () => Promise<T>, except: string[] = []): Promise<T> {
	const before = serviceCalls(except);
	const res = await request();
	expect(serviceCalls(except), `service calls made (besides ${except.join(", ") || "none"})`).toBe(before);
	return res;
}
/** The same for authenticated requests: the credential's check is the one call allowed. */
const onlyAuthenticated = <T>(request: () => Promise<T>) => withoutCalls(request, ["auth-keys.authenticate"]);

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
	expect(res.status, JSON.stringify(res.body)).toBe(status);
	expect(res.body).toMatchObject({ error: code, message: expect.any(String), requestId: expect.any(String) });
};
const issuePaths = (res: { body: any }) => (res.body.issues ?? []).map((i: { path: string }) => i.path);

/** A request with a byte body, as api() sends strings. */
async function send(method: string, path: string, body: Buffer, headers: Record<string, string>) {
	const res = await fetch(`${stack.url}/api/v1${path}`, {
		method,
		headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
		body,
	});
	const text = await res.text();
	let parsed: any = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		/* not JSON */
	}
	return { status: res.status, headers: res.headers, body: parsed };
}
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

describe("X-Service-Tenant", () => {
	it("answers a malformed tenant id with validation_failed naming the header, before any call", async () => {
		for (const tenant of ["not-a-uuid", "x".repeat(200), `${company.tenantId}x`]) {
			const res = await withoutCalls(() => api(stack, "GET", "/me", { cookie: company.cookie, headers: { "X-Service-Tenant": tenant } }));
			expectError(res, 400, "validation_failed");
			expect(issuePaths(res)).toEqual(["X-Service-Tenant"]);
		}
		// A well-formed one still selects the company.
		const ok = await api(stack, "GET", "/me", { cookie: company.cookie, headers: { "X-Service-Tenant": company.tenantId } });
		expect(ok.status).toBe(200);
		expect(ok.body.tenant.id).toBe(company.tenantId);
	});

	it("checks it on the sign-in route too, before the ID token is verified", async () => {
		const res = await withoutCalls(() =>
			api(stack, "POST", "/session", { headers: { Authorization: "Bearer a.b.c", "X-Service-Tenant": "../../etc" } }),
		);
		expectError(res, 400, "validation_failed");
		expect(issuePaths(res)).toEqual(["X-Service-Tenant"]);
	});

	it("still answers 401 first when there is no credential", async () => {
		expectError(await api(stack, "GET", "/me", { headers: { "X-Service-Tenant": "not-a-uuid" } }), 401, "unauthorized");
	});
});

describe("Content-Encoding", () => {
	const partner = json({ name: 5 });

	it("accepts gzip, deflate and br bodies, decompressed before they are parsed", async () => {
		for (const [encoding, bytes] of [
			["gzip", gzipSync(partner)],
			["deflate", deflateSync(partner)],
			["br", brotliCompressSync(partner)],
			["GZip", gzipSync(partner)],
		] as const) {
			const res = await send("POST", "/products/partners", bytes, { "Content-Encoding": encoding });
			expectError(res, 400, "validation_failed");
			expect(issuePaths(res), encoding).toEqual(["body.name"]);
		}
	});

	it("refuses a body that is not what its Content-Encoding says with validation_failed, before any call", async () => {
		for (const encoding of ["gzip", "deflate", "br"]) {
			const res = await onlyAuthenticated(() => send("POST", "/products/partners", partner, { "Content-Encoding": encoding }));
			expectError(res, 400, "validation_failed");
			expect(issuePaths(res)).toEqual(["body"]);
		}
		// Cut short: a valid start, no end.
		const truncated = gzipSync(json({ name: "x".repeat(1000) })).subarray(0, 40);
		expectError(await send("POST", "/products/partners", truncated, { "Content-Encoding": "gzip" }), 400, "validation_failed");
	});

	it("refuses other encodings with 415 unsupported_type", async () => {
		for (const encoding of ["zstd", "compress", "gzip, gzip", "x-gzip", "bogus"]) {
			const res = await onlyAuthenticated(() => send("POST", "/products/partners", partner, { "Content-Encoding": encoding }));
			expectError(res, 415, "unsupported_type");
		}
		// identity is no encoding.
		expect(issuePaths(await send("POST", "/products/partners", partner, { "Content-Encoding": "identity" }))).toEqual(["body.name"]);
	});

	it("applies the body limit to the decompressed size: a zip bomb is 413", async () => {
		const bomb = gzipSync(Buffer.from(`{"name":"${"0".repeat(64 * 1024 * 1024)}"}`), { level: 9 });
		expect(bomb.length).toBeLessThan(256 * 1024);
		const res = await onlyAuthenticated(() => send("POST", "/products/partners", bomb, { "Content-Encoding": "gzip" }));
		expectError(res, 413, "file_too_large");
	});
});

describe("path parameters", () => {
	it("answers a parameter that is not percent-encoded UTF-8 with validation_failed naming it", async () => {
		for (const [method, path, body] of [
			["GET", "/products/%E0%A4%A", undefined],
			["PATCH", "/products/%ZZ", { name: "x" }],
			["GET", "/opportunities/%C0%80", undefined],
			["DELETE", "/api-keys/%FF", undefined],
		] as const) {
			const res = await withoutCalls(() => api(stack, method, path, { key, body }));
			expectError(res, 400, "validation_failed");
			expect(issuePaths(res), path).toEqual(["id"]);
		}
	});

	it("keeps other undecodable URLs client errors: unknown paths 404, query values validated", async () => {
		expectError(await api(stack, "GET", "/%E0%A4%A", { key }), 404, "not_found");
		expectError(await api(stack, "GET", "/products/%E0%A4%A/more", { key }), 404, "not_found");
		expectError(await api(stack, "GET", "/products?cursor=%E0%A4%A", { key }), 400, "validation_failed");
	});
});

describe("JSON depth", () => {
	const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

	it("refuses a body nested deeper than 32 levels with validation_failed, before any call", async () => {
		for (const depth of [33, 5000, 100_000]) {
			const res = await onlyAuthenticated(() => send("POST", "/products/partners", Buffer.from(`{"name":${nested(depth)}}`), {}));
			expectError(res, 400, "validation_failed");
			expect(issuePaths(res), String(depth)).toEqual(["body"]);
		}
	});

	it("takes one nested up to the limit to validation as usual", async () => {
		const res = await send("POST", "/products/partners", Buffer.from(`{"name":${nested(31)}}`), {});
		expectError(res, 400, "validation_failed");
		expect(issuePaths(res)).toEqual(["body.name"]);
	});
});

describe("the credential before the body", () => {
	it("answers 401, not 400 or 415, to an unauthenticated request whatever its body", async () => {
		const cases: Array<[string, Record<string, string>]> = [
			["{not json", { "Content-Type": "application/json" }],
			["<xml/>", { "Content-Type": "application/xml" }],
			["{}", { "Content-Type": "application/json", "Content-Encoding": "gzip" }],
			["{}", { "Content-Type": "application/json", "Content-Encoding": "bogus" }],
			[`{"a":${"[".repeat(100)}${"]".repeat(100)}}`, { "Content-Type": "application/json" }],
		];
		for (const [rawBody, headers] of cases) {
			// No credential, a malformed one, an unknown key, a stranger's cookie.
			const credentials: Array<Record<string, string>> = [
				{},
				{ Authorization: "Bearer nope" },
				{ Authorization: `Bearer oms_live_${"x".repeat(43)}` },
				{ Cookie: `oms_session=${"y".repeat(43)}`, Origin: ORIGIN() },
			];
			for (const auth of credentials) {
				const res = await api(stack, "POST", "/products/partners", { rawBody, headers: { ...headers, ...auth } });
				expectError(res, 401, "unauthorized");
			}
		}
	});

	it("reads no body on the sign-in route, which takes none: its token is what counts", async () => {
		expectError(
			await api(stack, "POST", "/session", { rawBody: "{not json", headers: { "Content-Type": "application/json" } }),
			401,
			"unauthorized",
		);
	});

	it("still parses the bodies of authenticated requests (JSON and CSV)", async () => {
		const created = await api(stack, "POST", "/products/partners", { key, body: { name: `Edge Partner ${Date.now()}` } });
		expect(created.status, JSON.stringify(created.body)).toBe(201);
		const raw = (rawBody: string, type: string) =>
			api(stack, "POST", "/products/partners", { key, rawBody, headers: { "Content-Type": type } });
		expectError(await raw("{not json", "application/json"), 400, "validation_failed");
		expectError(await raw("<xml/>", "application/xml"), 415, "unsupported_type");
		const imported = await api(stack, "POST", "/products/import", {
			key,
			rawBody: "partner,name\nAcme,Widget\n",
			headers: { "Content-Type": "text/csv" },
		});
		expect(imported.status, JSON.stringify(imported.body)).toBeLessThan(300);
	});
});

describe("response headers", () => {
	const raw = (path: string, init: RequestInit = {}) => fetch(`${stack.url}${path}`, init);

	it("sends X-Content-Type-Options: nosniff on every answer", async () => {
		const answers = [
			await raw("/healthz"),
			await raw("/readyz"),
			await raw("/nothing-here"),
			await raw("/api/v1/nothing-here"),
			await raw("/api/v1/openapi.json"),
			await raw("/api/v1/scopes"),
			await raw("/api/v1/me"),
			await raw("/api/v1/me", { headers: { Authorization: `Bearer ${key}` } }),
			await raw("/api/v1/products/%E0%A4%A", { headers: { Authorization: `Bearer ${key}` } }),
		];
		for (const res of answers) {
			await res.arrayBuffer();
			expect(res.headers.get("x-content-type-options"), `${res.url} ${res.status}`).toBe("nosniff");
		}
	});

	it("keeps idle connections longer than an ingress keeps its upstream ones (no reset races)", async () => {
		const res = await raw("/healthz");
		await res.arrayBuffer();
		expect(res.headers.get("keep-alive")).toBe("timeout=65");
	});

	it("sends Cache-Control: no-store on every authenticated answer, success or error", async () => {
		const answers = [
			await api(stack, "GET", "/me", { key }),
			await api(stack, "GET", "/me", { cookie: company.cookie }),
			await api(stack, "GET", "/products", { key }),
			await api(stack, "GET", "/products/00000000-0000-4000-8000-000000000000", { key }),
			await api(stack, "GET", "/settings/notifications", { key }),
			await api(stack, "GET", "/api-keys", { cookie: company.cookie }),
			await api(stack, "GET", "/me"),
		];
		for (const res of answers)
			expect(res.headers.get("cache-control"), `${res.status} ${JSON.stringify(res.body).slice(0, 80)}`).toBe("no-store");
	});
});
