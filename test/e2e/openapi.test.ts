import { execFile } from "node:child_process";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApi } from "../../services/gateway/openapi.ts";
import { API_ROUTES } from "../../services/gateway/routes.ts";
import { OPERATIONS } from "../../shared/contract/index.ts";
import { integratorCalls } from "../client/calls.ts";
import { ROOT } from "../support/processes.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, ORIGIN, startStack, type Company, type Stack } from "../support/stack.ts";

// The served OpenAPI document: generated from the contract's zod schemas, valid, and good
// enough that a generated client type-checks and works against the real service.

const run = promisify(execFile);
const bin = (name: string) => resolve(ROOT, "node_modules/.bin", name);
let stack: Stack;
let acme: Company;
let doc: any;
const file = resolve(ROOT, ".data", `openapi-${process.pid}.json`);

beforeAll(async () => {
	stack = await startStack();
	acme = await companyWithSession(stack, "Spec Readers");
	const { secret } = await apiKey(stack, acme, []);
	const res = await api(stack, "GET", "/openapi.json", { key: secret });
	expect(res.status).toBe(200);
	doc = res.body;
	await mkdir(resolve(ROOT, ".data"), { recursive: true });
	await writeFile(file, JSON.stringify(doc));
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

describe("GET /api/v1/openapi.json", () => {
	it("needs a credential", async () => {
		expect((await api(stack, "GET", "/openapi.json")).status).toBe(401);
	});

	it("is OpenAPI 3.1.0, version 1.0.0, with every operation of the contract", () => {
		expect(doc.openapi).toBe("3.1.0");
		expect(doc.info.version).toBe("1.0.0");
		const ops = Object.entries<any>(doc.paths).flatMap(([path, methods]) =>
			Object.entries<any>(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${path}`, op })),
		);
		expect(ops.map((o) => o.key).sort()).toEqual(OPERATIONS.map((o) => `${o.method} /api/v1${o.path}`).sort());
		for (const { op } of ops) {
			expect(op.operationId).toBeTruthy();
			expect(Object.keys(op.responses).some((s) => s.startsWith("2"))).toBe(true);
			expect(op.responses["500"]).toBeDefined();
			expect(op.responses["429"]).toBeDefined();
		}
		expect(doc.paths["/api/v1/scopes"].get.security).toEqual([]);
		expect(doc.paths["/api/v1/api-keys"].post.security).toEqual([{ session: [] }]);
		expect(doc.paths["/api/v1/opportunities"].get.security).toContainEqual({ apiKey: ["opportunities:read"] });
		expect(doc.paths["/api/v1/opportunities"].get.responses["403"].description).toContain("insufficient_scope");
		expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKey", "oidcIdToken", "session"]);
		expect(doc.components.schemas.Error.properties.error.enum).toContain("rate_limited");
	});

	it("is generated from the same schemas the actions validate with", () => {
		expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi(API_ROUTES))));
		const body = doc.components.schemas.CreateApiKeyRequest;
		expect(body.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
		expect(body.additionalProperties).toBe(false);
	});

	it("passes `redocly lint` with no errors", async () => {
		const { stdout, stderr } = await run(bin("redocly"), ["lint", file, "--format=summary"], { cwd: ROOT });
		expect(`${stdout}${stderr}`).toMatch(/valid/);
	}, 60_000);

	it("matches the committed generated client types (run `npm run openapi:types` after a contract change)", async () => {
		const out = resolve(ROOT, ".data", `api-${process.pid}.d.ts`);
		await run(bin("openapi-typescript"), [file, "--default-non-nullable", "false", "-o", out], { cwd: ROOT });
		expect(await readFile(out, "utf8")).toBe(await readFile(resolve(ROOT, "test/client/api.d.ts"), "utf8"));
	}, 60_000);

	it("gives a generated client that type-checks against real calls", async () => {
		await run(bin("tsc"), ["-p", "test/client/tsconfig.json"], { cwd: ROOT });
	}, 90_000);

	it("and those calls work against the running service", async () => {
		const r = await integratorCalls(stack.url, acme.cookie, ORIGIN());
		expect(r.scopeCount).toBe(7);
		expect(r.secret.endsWith(r.suffix)).toBe(true);
		expect(r.kind).toBe("api_key");
		expect(r.tenantId).toBe(acme.tenantId);
		expect(r.deniedError).toBe("insufficient_scope");
		expect(r.invalidIssuePaths).toContain("body.name");
		expect(r.revokedStatus).toBe(204);
	});
});
