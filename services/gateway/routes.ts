// The route table: every /api/v1 route of the contract and the action that serves it.
// Who may call each one (its scope) is declared by the operation in shared/contract.
export const API_ROUTES: Record<string, string> = {
	// Session and meta
	"GET /scopes": "auth-keys.listScopes",
	"POST /session": "auth-keys.createSession",
	"DELETE /session": "auth-keys.deleteSession",
	"GET /me": "auth-keys.me",
	"GET /openapi.json": "gateway.openapi",

	// API keys (browser session only)
	"GET /api-keys": "auth-keys.listKeys",
	"POST /api-keys": "auth-keys.createKey",
	"DELETE /api-keys/:id": "auth-keys.revokeKey",

	// Opportunities (static paths before parameterised ones)
	"GET /opportunities": "opportunities.list",
	"GET /opportunities/:id": "opportunities.get",
	"POST /opportunities/:id/archive": "opportunities.archive",
	"DELETE /opportunities/:id/archive": "opportunities.unarchive",
	"POST /opportunities/:id/feedback": "opportunities.sendFeedback",
	"POST /opportunities/:id/ask": "ask.ask",
	"GET /dashboard": "opportunities.dashboard",

	// Catalog: partners, products, company profile
	"GET /products/partners": "catalog.listPartners",
	"POST /products/partners": "catalog.createPartner",
	"PATCH /products/partners/:id": "catalog.updatePartner",
	"POST /products/import": "catalog.importProducts",
	"GET /products": "catalog.listProducts",
	"POST /products": "catalog.createProduct",
	"GET /products/:id": "catalog.getProduct",
	"PATCH /products/:id": "catalog.updateProduct",
	"GET /profile": "catalog.getProfile",
	"PATCH /profile": "catalog.updateProfile",

	// Settings: digest (notifications) and learned rules (matching)
	"GET /settings/notifications": "notifications.getSettings",
	"PATCH /settings/notifications": "notifications.updateSettings",
	"GET /settings/rules": "matching.listRules",
	"PATCH /settings/rules/:id": "matching.updateRule",
};

export const API_PREFIX = "/api/v1";

/** Routes that take files: their own body limit and media types (every other route: JSON up to BODY_LIMIT). */
export const UPLOAD_ROUTES: Record<string, { limit: string; mediaTypes: string[] }> = {
	"POST /products/import": { limit: "8mb", mediaTypes: ["application/json", "text/csv"] },
};

/** "GET /api-keys/:id" -> { method: "GET", path: "/api-keys/{id}" } as the contract writes it. */
export function contractPathOf(route: string): { method: string; path: string } {
	const [method = "", path = ""] = route.split(" ");
	return { method, path: path.replace(/:([A-Za-z_]+)/g, "{$1}") };
}
