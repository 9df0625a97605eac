import type { ActionSchema, Context } from "moleculer";
import type { z } from "zod";
import type { RequestMeta } from "./auth-context.ts";
import type { Admission } from "./admission.ts";
import {
	INTERNAL_ACTIONS,
	type InternalActionName,
	type InternalParams,
	type InternalParsedParams,
	type InternalResult,
} from "./contract/internal/index.ts";
import { actionInput, type Operation } from "./contract/operation.ts";

export type OpContext<P = any> = Context<P, RequestMeta>;

/** What logic outside a service schema needs of the broker (or a context): calling actions. */
export interface Caller {
	call<T>(action: string, params: object): Promise<T>;
}

// Handlers declare their service's state as `this` (`function (this: State, ctx)`); S is
// inferred from it, so no service needs `this: any`.

/**
 * An action that serves one contract operation: its params are validated with the
 * operation's schemas (ZodValidator) and it answers the operation's success status.
 */
export function operationAction<P = any, S = unknown>(op: Operation, handler: (this: S, ctx: OpContext<P>) => unknown): ActionSchema {
	const status = op.status ?? 200;
	const input = actionInput(op);
	return {
		input: () => input,
		async handler(this: unknown, ctx: OpContext<P>) {
			// A service that keeps an Admission (shared/admission.ts) runs its operations through it.
			const admission = (this as { admission?: Admission } | null)?.admission;
			const result = admission ? await admission.run(async () => handler.call(this as S, ctx)) : await handler.call(this as S, ctx);
			if (status !== 200) ctx.meta.$statusCode = status;
			if (status === 201) {
				// The created resource's address, e.g. /api/v1/api-keys/<id>.
				const r = result as { id?: string; key?: { id?: string } };
				const id = r?.id ?? r?.key?.id;
				if (id) (ctx.meta as Record<string, unknown>).$location = `/api/v1${op.path}/${id}`;
			}
			return status === 204 ? null : result;
		},
	} as ActionSchema;
}

/** An internal action (not routed) whose params are validated with a zod schema. */
export function validatedAction<P = any, S = unknown>(
	input: z.ZodType,
	handler: (this: S, ctx: OpContext<P>) => unknown,
	extra: Partial<ActionSchema> = {},
): ActionSchema {
	// Moleculer calls the handler with the service instance, which holds the state S declares.
	return { visibility: "public", ...extra, input: () => input, handler } as unknown as ActionSchema;
}

/**
 * An internal action declared in shared/contract/internal: validated with its declared params,
 * and its handler must answer the declared result (checked when compiling).
 */
export function internalAction<A extends InternalActionName, S = unknown>(
	name: A,
	handler: (this: S, ctx: OpContext<InternalParsedParams<A>>) => InternalResult<A> | Promise<InternalResult<A>>,
	extra: Partial<ActionSchema> = {},
): ActionSchema {
	const declared = INTERNAL_ACTIONS[name];
	if (!declared) throw new Error(`${name} is not declared in shared/contract/internal`);
	return validatedAction<InternalParsedParams<A>, S>(declared.params, handler, extra);
}

/** A call of an internal action, its params and answer typed by the action's declaration. */
export function callInternal<A extends InternalActionName>(caller: Caller, name: A, params: InternalParams<A>): Promise<InternalResult<A>> {
	return caller.call<InternalResult<A>>(name, params as object);
}
