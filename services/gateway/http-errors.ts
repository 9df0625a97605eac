import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, reformatError, validationFailed } from "../../shared/errors.ts";

// Everything that fails before or around an action call, turned into the contract's body.

/** Errors raised by body-parser and moleculer-web itself, as contract errors. */
export function normalizeHttpError(err: any, bodyLimit: string): unknown {
	if (err instanceof ApiError) return err;
	switch (err?.type) {
		case "entity.parse.failed":
			return new ApiError("validation_failed", "The request body is not valid JSON", {
				issues: [{ path: "body", code: "invalid_json", message: "Malformed JSON" }],
			});
		case "entity.too.large":
			return new ApiError("file_too_large", `The request body is larger than the limit of ${bodyLimit}`);
		case "encoding.unsupported":
		case "charset.unsupported":
			return new ApiError("unsupported_type", "Unsupported content encoding or charset");
		case "request.aborted":
			return new ApiError("validation_failed", "The request was aborted");
	}
	// A body for an action in another process travels as one NATS message, and the server
	// refuses one over its max_payload before anything is sent (deploy/nats/nats.conf raises it
	// above the 8 MB an import may be).
	if (err?.code === "MAX_PAYLOAD_EXCEEDED") {
		return new ApiError(
			"file_too_large",
			"The request body is larger than this deployment's message bus takes (NATS max_payload, see deploy/nats/nats.conf)",
		);
	}
	if (err?.name === "NotFoundError" && err?.code === 404) return new ApiError("not_found", "No such route");
	if (err?.name === "ServiceUnavailableError") return Object.assign(new Error("unavailable"), { name: "ServiceNotAvailableError" });
	return err;
}

/** What this file needs of a moleculer-web alias. */
export interface AliasPattern {
	re: RegExp;
	keys: Array<{ name: string | number }>;
	isMethod(method: string): boolean;
}

const decodes = (s: string) => {
	try {
		decodeURIComponent(s);
		return true;
	} catch {
		return false;
	}
};

/**
 * moleculer-web's error for a path parameter that is not percent-encoded UTF-8 names only its
 * raw value; this one names the parameter, found by matching the URL again.
 */
export function undecodablePathParam(aliases: AliasPattern[], url: string, method: string): ApiError {
	for (const alias of aliases) {
		const m = alias.isMethod(method) ? alias.re.exec(url) : null;
		const i = m ? alias.keys.findIndex((_, k) => m[k + 1] !== undefined && !decodes(m[k + 1]!)) : -1;
		if (i >= 0)
			return validationFailed([
				{ path: String(alias.keys[i]!.name), code: "invalid_encoding", message: "Not valid percent-encoded UTF-8" },
			]);
	}
	return validationFailed([{ path: "", code: "invalid_encoding", message: "The path is not valid percent-encoded UTF-8" }]);
}

export interface ErrorLogger {
	error(...args: unknown[]): void;
	warn(...args: unknown[]): void;
}

export function sendError(
	req: IncomingMessage,
	res: ServerResponse,
	err: unknown,
	requestId: string,
	bodyLimit: string,
	logger: ErrorLogger,
): void {
	const f = reformatError(normalizeHttpError(err, bodyLimit), requestId);
	if (f.internal) logger.error({ err, requestId, url: req.url, method: req.method }, "request failed");
	if (res.headersSent) {
		res.end();
		return;
	}
	for (const [k, v] of Object.entries(f.headers)) res.setHeader(k, v);
	res.setHeader("X-Request-Id", requestId);
	res.setHeader("Content-Type", "application/json; charset=utf-8");
	res.setHeader("Cache-Control", "no-store");
	res.writeHead(f.status);
	res.end(JSON.stringify(f.body));
}
