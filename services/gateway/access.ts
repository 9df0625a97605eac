import type { AuthContext } from "../../shared/auth-context.ts";
import type { Access } from "../../shared/contract/operation.ts";
import { ApiError } from "../../shared/errors.ts";

/** Whether an authenticated caller may use an operation: throws forbidden or insufficient_scope. */
export function checkAccess(access: Access, auth: AuthContext): void {
	if (access === "public" || access === "id_token" || access === "credential") return;
	if (access === "session") {
		if (auth.kind !== "session")
			throw new ApiError("forbidden", "This operation needs a signed-in browser session; an API key can never do it");
		return;
	}
	// A browser session holds every scope within its tenant.
	if (auth.kind === "session") return;
	if (!auth.scopes.includes(access)) throw new ApiError("insufficient_scope", `This API key lacks the required scope: ${access}`);
}

const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Cookie-authenticated mutations must come from an allowed origin: browsers always send
 * Origin on such requests, so a missing or foreign one means a cross-site forgery attempt.
 */
export function checkOrigin(method: string, origin: string | undefined, allowed: string[]): void {
	if (!MUTATIONS.has(method)) return;
	if (!origin || !allowed.includes(origin)) {
		throw new ApiError("forbidden", "Cookie-authenticated changes need an Origin header of an allowed origin");
	}
}
