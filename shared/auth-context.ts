import type { Context } from "moleculer";
import { ApiError } from "./errors.ts";
import type { AuthContext } from "./contract/internal/auth-keys-actions.ts";

/** Who is calling, as the gateway established it (auth-keys.authenticate's answer); travels in ctx.meta.auth. */
export type { AuthContext };

export interface RequestMeta {
	auth?: AuthContext;
	requestId?: string;
	/** Set by actions that answer with a non-200 success (e.g. 201, 204). */
	$statusCode?: number;
	$responseHeaders?: Record<string, string>;
}

/** The caller's identity, or unauthorized when an action that needs one is called without. */
export function requireAuth(ctx: Context<unknown, RequestMeta>): AuthContext {
	const auth = ctx.meta.auth;
	if (!auth?.tenantId) throw new ApiError("unauthorized", "Authentication required");
	return auth;
}
