import { z } from "zod";
import type { ErrorCode } from "../errors.ts";
import { unsafeTextIssues } from "./safe-text.ts";
import type { Scope } from "./scopes.ts";

/**
 * Who may call an operation:
 * - "public": nobody needs to sign in;
 * - "id_token": an OpenID Connect ID token as the Bearer credential (signing in);
 * - "credential": any valid API key or browser session, no scope;
 * - "session": a browser session only (an API key gets `forbidden`);
 * - a scope: an API key holding it, or any browser session.
 */
export type Access = "public" | "id_token" | "credential" | "session" | Scope;

/**
 * One HTTP operation of the contract. The gateway's route table names the action; this
 * says how it is called and answered, and the OpenAPI document is generated from it.
 * An action receives `{...path, ...query, body}` and validates it with `actionInput(op)`.
 */
export interface Operation {
	operationId: string;
	method: "GET" | "POST" | "PATCH" | "DELETE";
	/** Relative to /api/v1, with `{name}` path parameters. */
	path: string;
	action: string;
	access: Access;
	tag: string;
	summary: string;
	description?: string;
	pathParams?: z.ZodObject;
	query?: z.ZodObject;
	body?: z.ZodType;
	/** Whether a body must be sent (defaults to true when there is a body schema). */
	bodyRequired?: boolean;
	response?: z.ZodType;
	/** Success status: 200 unless said otherwise (201 creation, 204 no content). */
	status?: 200 | 201 | 204;
	/** Error codes this operation can answer besides the ones every authenticated call can. */
	errors?: ErrorCode[];
	/** Extra response headers of a success, for the OpenAPI document. */
	responseHeaders?: Record<string, string>;
	/** The body is checked for unsafe text row by row by the action (an import reports per row). */
	bodyTextCheckedPerRow?: boolean;
}

export const defineOperation = <O extends Operation>(op: O): O => op;

/**
 * The zod schema of the params an operation's action receives: strict everywhere, and no text
 * in it may hold control characters or lone surrogates (shared/contract/safe-text.ts).
 */
export function actionInput(op: Operation): z.ZodObject {
	const shape: Record<string, z.ZodType> = {
		...(op.pathParams?.shape ?? {}),
		...(op.query?.shape ?? {}),
	};
	if (op.body) shape.body = op.bodyRequired === false ? op.body.optional() : op.body;
	return z
		.object(shape)
		.strict()
		.superRefine((params, ctx) => {
			const checked = op.bodyTextCheckedPerRow ? { ...params, body: undefined } : params;
			for (const i of unsafeTextIssues(checked))
				ctx.addIssue({ code: "custom", path: i.path ? i.path.split(".") : [], message: i.message });
		});
}
