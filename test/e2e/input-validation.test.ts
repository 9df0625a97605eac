import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../shared/cursor.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Query strings, path ids and cursors are validated before any service logic runs.

let stack: Stack;
let key: string;

beforeAll(async () => {
	stack = await startStack();
	const company = await companyWithSession(stack, "Validators");
	key = (await apiKey(stack, company, ["opportunities:read", "opportunities:write", "profile:read", "settings:write"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const bad = async (method: string, path: string, issuePath: string, body?: unknown) => {
	const res = await api(stack, method, path, { key, body });
	expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
	expect(res.body.error).toBe("validation_failed");
	expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(issuePath);
};

describe("query, path and cursor validation", () => {
	it("rejects wrong types and out-of-range values in the query", async () => {
		await bad("GET", "/opportunities?limit=abc", "limit");
		await bad("GET", "/opportunities?limit=0", "limit");
		await bad("GET", "/opportunities?limit=101", "limit");
		await bad("GET", "/opportunities?min_score=101", "min_score");
		await bad("GET", "/opportunities?deadline_before=yesterday", "deadline_before");
		await bad("GET", "/opportunities?status=bogus", "status.0");
		await bad("GET", "/opportunities?sort=price", "sort");
		await bad("GET", `/opportunities?q=${"x".repeat(1000)}`, "q");
	});

	it("rejects unknown query parameters", async () => {
		await bad("GET", "/opportunities?tenant=someone-else", "");
	});

	it("rejects over-long and malformed cursors", async () => {
		await bad("GET", `/opportunities?cursor=${"a".repeat(600)}`, "cursor");
		await bad("GET", "/opportunities?cursor=", "cursor");
		expect(encodeCursor({ k: 1, id: "x", s: "x".repeat(22) }).length).toBeLessThan(512);
	});

	it("rejects path ids that are not UUIDs", async () => {
		await bad("GET", "/opportunities/123", "id");
		await bad("POST", "/opportunities/12345/archive", "id");
		await bad("PATCH", "/settings/rules/not-a-uuid", "id", { active: true });
	});

	it("rejects bodies with wrong types or unknown fields", async () => {
		await bad("POST", `/opportunities/${crypto.randomUUID()}/feedback`, "body.verdict", { verdict: "meh" });
		await bad("PATCH", `/settings/rules/${crypto.randomUUID()}`, "body", { active: true, extra: 1 });
		await bad("PATCH", `/settings/rules/${crypto.randomUUID()}`, "body.active", { active: "yes" });
	});

	it("answers not_found for a well-formed id that names no opportunity", async () => {
		const res = await api(stack, "GET", `/opportunities/${crypto.randomUUID()}`, { key });
		expect(res.status).toBe(404);
		expect(res.body.error).toBe("not_found");
	});
});
