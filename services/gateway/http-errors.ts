import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, reformatError } from "../../shared/errors.ts";

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
		return new ApiError("file_too_large", "The request body is larger than this deployment's message bus takes (NATS max_payload, see deploy/nats/nats.conf)");
	}
	if (err?.name === "NotFoundError" && err?.code === 404) return new ApiError("not_found", "No such route");
	if (err?.name === "ServiceUnavailableError") return Object.assign(new Error("unavailable"), { name: "ServiceNotAvailableError" });
	return err;
}

export interface ErrorLogger {
	error(...args: unknown[]): void;
	warn(...args: unknown[]): void;
}

export function sendError(req: IncomingMessage, res: ServerResponse, err: unknown, requestId: string, bodyLimit: string, logger: ErrorLogger): void {
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
