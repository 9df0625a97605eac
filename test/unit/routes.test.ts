import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../shared/contract/index.ts";
import { API_ROUTES, contractPathOf } from "../../services/gateway/routes.ts";
import { SERVICE_SCHEMAS } from "../../services/registry.ts";

describe("the gateway's route table", () => {
	it("maps every contract operation, and nothing else, to its action", () => {
		const routed = Object.entries(API_ROUTES).map(([route, action]) => {
			const { method, path } = contractPathOf(route);
			return `${method} ${path} -> ${action}`;
		});
		const declared = OPERATIONS.map((op) => `${op.method} ${op.path} -> ${op.action}`);
		expect(routed.sort()).toEqual(declared.sort());
	});

	it("names only actions that a service defines", () => {
		const defined = new Set(Object.values(SERVICE_SCHEMAS).flatMap((s) => Object.keys(s.actions ?? {}).map((a) => `${s.name}.${a}`)));
		for (const action of Object.values(API_ROUTES)) expect(defined, action).toContain(action);
	});

	it("covers every endpoint the interface contract lists", () => {
		const contract = [
			"POST /session",
			"DELETE /session",
			"GET /scopes",
			"GET /openapi.json",
			"GET /me",
			"GET /api-keys",
			"POST /api-keys",
			"DELETE /api-keys/{id}",
			"GET /opportunities",
			"GET /opportunities/{id}",
			"POST /opportunities/{id}/archive",
			"DELETE /opportunities/{id}/archive",
			"POST /opportunities/{id}/feedback",
			"POST /opportunities/{id}/ask",
			"POST /products",
			"PATCH /products/{id}",
			"GET /products/partners",
			"POST /products/partners",
			"PATCH /settings/notifications",
			"PATCH /settings/rules/{id}",
		];
		const routed = Object.keys(API_ROUTES).map((r) => {
			const { method, path } = contractPathOf(r);
			return `${method} ${path}`;
		});
		for (const e of contract) expect(routed).toContain(e);
	});
});
