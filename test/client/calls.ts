import createClient from "openapi-fetch";
import type { paths } from "./api.d.ts";

// A client generated from the OpenAPI document (openapi-typescript + openapi-fetch), used
// the way an integrator would. The e2e test type-checks this file with tsc and runs it.

export function client(baseUrl: string, headers: Record<string, string>) {
	return createClient<paths>({ baseUrl, headers });
}

export async function integratorCalls(baseUrl: string, cookie: string, origin: string) {
	const browser = client(baseUrl, { Cookie: cookie, Origin: origin });
	const scopes = await browser.GET("/api/v1/scopes");
	const created = await browser.POST("/api/v1/api-keys", {
		body: { name: "generated client", scopes: ["opportunities:read", "profile:read"] },
	});
	if (!created.data) throw new Error(`key creation failed: ${JSON.stringify(created.error)}`);
	const secret: string = created.data.secret;
	const suffix: string = created.data.key.display_suffix;

	const integrator = client(baseUrl, { Authorization: `Bearer ${secret}` });
	const me = await integrator.GET("/api/v1/me");
	const kind: "api_key" | "session" | undefined = me.data?.credential.kind;
	const opportunities = await integrator.GET("/api/v1/opportunities", {
		params: { query: { sort: "-score", limit: 25, status: ["new", "notified"] } },
	});
	const denied = await integrator.POST("/api/v1/opportunities/{id}/feedback", {
		params: { path: { id: "00000000-0000-4000-8000-000000000000" } },
		body: { verdict: "not_relevant", reason: "services contract" },
	});
	const invalid = await browser.POST("/api/v1/api-keys", { body: { name: "" } });
	const revoked = await browser.DELETE("/api/v1/api-keys/{id}", { params: { path: { id: created.data.key.id } } });

	return {
		scopeCount: scopes.data?.scopes.length,
		suffix,
		secret,
		kind,
		tenantId: me.data?.tenant.id,
		opportunitiesStatus: opportunities.response.status,
		deniedError: denied.error?.error,
		invalidIssuePaths: invalid.error?.issues?.map((i) => i.path),
		revokedStatus: revoked.response.status,
	};
}

// Calls the contract does not allow must not compile.
export function mistakes(c: ReturnType<typeof client>) {
	// @ts-expect-error: no such path
	void c.GET("/api/v1/nope");
	// @ts-expect-error: name must be a string
	void c.POST("/api/v1/api-keys", { body: { name: 1 } });
	// @ts-expect-error: not a scope of the vocabulary
	void c.POST("/api/v1/api-keys", { body: { name: "x", scopes: ["admin"] } });
	// @ts-expect-error: feedback needs a verdict
	void c.POST("/api/v1/opportunities/{id}/feedback", { params: { path: { id: "x" } }, body: {} });
}
