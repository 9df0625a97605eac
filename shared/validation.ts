import type { Middleware } from "moleculer";
import type { z } from "zod";
import { validationFailed, type Issue } from "./errors.ts";

/** zod issues in the contract's `{path, code, message}` shape. */
export function toIssues(error: z.ZodError): Issue[] {
	return error.issues.map((i) => ({
		path: i.path.map(String).join("."),
		code: i.code,
		message: i.message,
	}));
}

/** Parses with a zod schema or throws validation_failed listing every issue. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
	const r = schema.safeParse(value);
	if (!r.success) throw validationFailed(toIssues(r.error));
	return r.data;
}

/**
 * Validates an action's params with the zod schema its `input` thunk returns and replaces
 * them with the parsed value (defaults applied, strings coerced), as moleculer-essentials
 * does. Runs where the action runs, so every caller (gateway, CLI, another service) is
 * checked the same way. The wrapper is async: a refusal must reject, not throw, or the
 * bulkhead around it never frees the call's slot (shared/promise-guard.ts).
 */
export const ZodValidator: Middleware = {
	name: "ZodValidator",
	localAction(handler: (ctx: any) => any, action: any) {
		// A thunk, because Moleculer deep-copies action schemas and a copied zod schema is broken.
		const schema = typeof action.input === "function" ? (action.input() as z.ZodType) : undefined;
		if (!schema) return handler;
		return async function validated(ctx: any) {
			ctx.params = parseOrThrow(schema, ctx.params ?? {});
			return handler(ctx);
		};
	},
} as Middleware;
