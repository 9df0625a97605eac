import type { ActionSchema, Context } from "moleculer";
import type { z } from "zod";
import type { RequestMeta } from "./auth-context.ts";
import { actionInput, type Operation } from "./contract/operation.ts";

export type OpContext<P = any> = Context<P, RequestMeta>;

/** What logic outside a service schema needs of the broker (or a context): calling actions. */
export interface Caller {
	call<T>(action: string, params: object): Promise<T>;
}

/**
 * An action that serves one contract operation: its params are validated with the
 * operation's schemas (ZodValidator) and it answers the operation's success status.
 */
export function operationAction<P = any>(op: Operation, handler: (this: any, ctx: OpContext<P>) => unknown): ActionSchema {
	const status = op.status ?? 200;
	const input = actionInput(op);
	return {
		input: () => input,
		async handler(this: unknown, ctx: OpContext<P>) {
			const result = await handler.call(this, ctx);
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
export function validatedAction<P = any>(input: z.ZodType, handler: (this: any, ctx: OpContext<P>) => unknown, extra: Partial<ActionSchema> = {}): ActionSchema {
	return { visibility: "public", ...extra, input: () => input, handler } as ActionSchema;
}

