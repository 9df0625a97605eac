import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Body limits and media types per route: JSON up to BODY_LIMIT everywhere, and the import
// route also takes CSV, up to its own larger limit.

let stack: Stack;
let key: string;

beforeAll(async () => {
	stack = await startStack();
	key = (await apiKey(stack, await companyWithSession(stack, "Uploaders"), ["profile:write", "profile:read"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const post = (path: string, rawBody: string, type: string) => api(stack, "POST", path, { key, rawBody, headers: { "Content-Type": type } });
const csv = (bytes: number) => `partner,name\n${"Acme,Widget\n".repeat(Math.ceil(bytes / 12))}`;

describe("request bodies", () => {
	it("lets the import route take CSV well past the JSON limit", async () => {
		// 600 KB: over twice the JSON limit, and under a NATS server's default 1 MB message, so the
		// same holds when the catalog runs in another process (test:cluster).
		const res = await post("/products/import", csv(600_000), "text/csv");
		expect([413, 415]).not.toContain(res.status);
		expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
		expect(res.headers.get("x-request-id")).toBeTruthy();
	});

	it("refuses an import over its own limit with 413 file_too_large", async () => {
		const res = await post("/products/import", csv(9_000_000), "text/csv");
		expect(res.status).toBe(413);
		expect(res.body).toMatchObject({ error: "file_too_large", message: expect.stringContaining("8mb") });
	});

	it("refuses media types a route does not take with 415 unsupported_type", async () => {
		expect((await post("/products/import", "a,b", "text/plain")).body.error).toBe("unsupported_type");
		expect((await post("/products", "partner,name\nA,B", "text/csv")).status).toBe(415);
		expect((await post("/products/partners", "<xml/>", "application/xml")).status).toBe(415);
	});

	it("keeps the JSON limit on every other route", async () => {
		const res = await post("/products", JSON.stringify({ name: "x".repeat(400_000) }), "application/json");
		expect(res.status).toBe(413);
		expect(res.body.message).toContain("256kb");
	});

	it("accepts JSON with a charset and vendor JSON types", async () => {
		const res = await post("/products/partners", JSON.stringify({ name: 5 }), "application/json; charset=utf-8");
		expect(res.status).toBe(400);
		expect(res.body.issues[0].path).toBe("body.name");
	});
});
