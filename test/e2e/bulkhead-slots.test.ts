import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { SCOPE_VALUES } from "../../shared/contract/scopes.ts";
import { API_ROUTES } from "../../services/gateway/routes.ts";
import { busyActions, inParallel } from "../support/in-flight.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Company, type Stack } from "../support/stack.ts";

// A refused call must give its concurrency slot back. Each action has 50 (the broker's
// bulkhead); a validation failure that threw synchronously inside the bulkhead kept its slot
// for good, so 50 bad calls wedged that action for every company. Here every action gets 200
// refused calls of each kind, and every route gets more refused requests than it has slots;
// afterwards every in-flight gauge must read 0 and valid requests must answer at once.

// Refused requests must reach the actions, not the rate limiter.
process.env.RATE_LIMIT_POINTS = "1000000";
process.env.RATE_LIMIT_ANON_POINTS = "1000000";
resetConfig();

let stack: Stack;
let company: Company;
let key: string;

beforeAll(async () => {
	stack = await startStack();
	company = await companyWithSession(stack, "Bulkhead");
	key = (await apiKey(stack, company, [...SCOPE_VALUES])).secret;
}, 60_000);
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const BAD_PARAMS: Record<string, unknown> = {
	"unknown member": { __not_a_param__: 1 },
	"operator object everywhere": { id: { $gt: "" }, tenantId: { $gt: "" }, body: { $gt: "" } },
	"wrong types": { id: 12, tenantId: [], body: "text", limit: "many" },
};

describe("bulkhead slots", () => {
	it("every action gives its slot back after 200 refused calls of each kind", async () => {
		const actions = stack.broker.registry
			.getActionList({ onlyLocal: true, skipInternal: true, withEndpoints: false })
			.map((a: { name: string }) => a.name)
			.filter((name: string) => !name.startsWith("gateway.") && !name.startsWith("$"));
		expect(actions.length).toBeGreaterThan(30);
		let refusedKinds = 0;
		for (const action of actions) {
			for (const params of Object.values(BAD_PARAMS)) {
				// Only input this action refuses counts: a kind it accepts would do real work.
				const first = await stack.broker.call(action, params, { timeout: 5000 }).then(
					() => null,
					(e: { type?: string }) => e?.type,
				);
				if (first !== "validation_failed") continue;
				refusedKinds++;
				await inParallel(199, 20, () => stack.broker.call(action, params, { timeout: 5000 }).catch(() => undefined));
			}
		}
		expect(refusedKinds).toBeGreaterThan(actions.length);
		expect(busyActions(stack.broker)).toEqual({});
	}, 120_000);

	it("every route answers after more refused requests than it has slots, anonymous ones included", async () => {
		const uuid = "00000000-0000-4000-8000-000000000000";
		const requests: { method: string; path: string; body?: unknown; headers?: Record<string, string>; auth: boolean }[] = [];
		for (const route of Object.keys(API_ROUTES)) {
			const [method = "GET", template = "/"] = route.split(" ");
			const path = template.replace(/:id\b/, uuid);
			requests.push({ method, path: `${path}?__unknown__=1`, auth: true });
			if (template.includes(":id")) requests.push({ method, path: template.replace(/:id\b/, "not-a-uuid"), auth: true });
			if (method !== "GET" && method !== "DELETE") requests.push({ method, path, body: { __unknown__: 1 }, auth: true });
		}
		// A well-formed but unknown session cookie with a tenant header longer than any id.
		const anonymous = { Cookie: `oms_session=${"A".repeat(43)}`, "X-Service-Tenant": "t".repeat(101) };
		for (const r of requests) {
			await inParallel(60, 10, () => api(stack, r.method, r.path, { key: r.auth ? key : undefined, body: r.body }));
		}
		await inParallel(200, 10, () => api(stack, "GET", "/me", { headers: anonymous }));
		await inParallel(200, 10, () => api(stack, "GET", "/opportunities", { headers: anonymous }));

		expect(busyActions(stack.broker)).toEqual({});
		const t0 = Date.now();
		const [me, list, rules] = await Promise.all([
			api(stack, "GET", "/me", { key }),
			api(stack, "GET", "/opportunities", { key }),
			api(stack, "GET", "/settings/rules", { cookie: company.cookie }),
		]);
		expect([me.status, list.status, rules.status]).toEqual([200, 200, 200]);
		expect(Date.now() - t0).toBeLessThan(3000);
	}, 240_000);
});
