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
};

export const API_PREFIX = "/api/v1";

/** "GET /api-keys/:id" -> { method: "GET", path: "/api-keys/{id}" } as the contract writes it. */
export function contractPathOf(route: string): { method: string; path: string } {
	const [method = "", path = ""] = route.split(" ");
	return { method, path: path.replace(/:([A-Za-z_]+)/g, "{$1}") };
}
