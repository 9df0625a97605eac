import type { IncomingMessage, ServerResponse } from "node:http";
import bodyParser from "body-parser";
import { ApiError, validationFailed } from "../../shared/errors.ts";

// Reading a request's body, which the gateway does only once the caller is authenticated (an
// unauthenticated request is 401 whatever it sends, and costs no parsing). body-parser does the
// reading: charsets, Content-Length, and decompression with the limit counted on the
// decompressed bytes, so a zip bomb stops at the limit (413). What it leaves open is decided
// here: which encodings the API takes, what a corrupt one is, and how deep JSON may nest.

/** Deeper JSON is refused: no body of the contract nests past a handful, and the bus's serializer recurses. */
export const MAX_JSON_DEPTH = 32;

/** Compressed bodies the API takes; anything else (zstd, stacked encodings) is 415. */
const ENCODINGS = new Set(["identity", "gzip", "deflate", "br"]);

const mediaType = (req: IncomingMessage) => (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
const isJson = (type: string) => /^application\/(.+\+)?json$/.test(type);

/** True when the request carries body bytes (as opposed to an absent body). */
const hasBody = (req: IncomingMessage) => Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
const run = (mw: Middleware, req: IncomingMessage, res: ServerResponse) =>
	new Promise<void>((resolve, reject) => mw(req, res, (err) => (err ? reject(err) : resolve())));

/** True when objects and arrays nest deeper than `max` (the value itself is level 1); iterative, so any depth is safe to check. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
	const pending: Array<[unknown, number]> = [[value, 1]];
	while (pending.length) {
		const [v, depth] = pending.pop()!;
		if (v === null || typeof v !== "object") continue;
		if (depth > max) return true;
		for (const child of Object.values(v)) if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
	}
	return false;
}

function contentEncoding(req: IncomingMessage): string {
	const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
	if (!ENCODINGS.has(encoding)) {
		throw new ApiError("unsupported_type", `Content-Encoding ${encoding.slice(0, 40)} is not supported; send gzip, deflate, br or none`);
	}
	return encoding;
}

export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/**
 * A reader for one route's bodies: JSON (any application/json or +json type) and the other
 * media types listed (text, e.g. text/csv), up to `limit` after decompression. Answers the
 * parsed body, or undefined when the request has none.
 */
export function bodyReader(limit: string, mediaTypes: string[]): BodyReader {
	const json = bodyParser.json({ strict: true, limit, type: () => true }) as Middleware;
	const text = bodyParser.text({ limit, type: () => true }) as Middleware;
	return async (req, res) => {
		if (!hasBody(req)) return undefined;
		const type = mediaType(req);
		if (!mediaTypes.some((t) => (isJson(t) ? isJson(type) : t === type))) {
			throw new ApiError("unsupported_type", `Send the request body as ${mediaTypes.join(" or ")}`);
		}
		const encoding = contentEncoding(req);
		try {
			await run(isJson(type) ? json : text, req, res);
		} catch (err) {
			// body-parser types every error of its own; an untyped one is the decompressor's.
			if (encoding !== "identity" && !(err as { type?: unknown })?.type) {
				const issue = { path: "body", code: "invalid_encoding", message: `Not valid ${encoding} data` };
				throw validationFailed([issue], `The request body is not valid ${encoding} data`);
			}
			throw err;
		}
		const body = (req as { body?: unknown }).body;
		if (isJson(type) && nestedDeeperThan(body, MAX_JSON_DEPTH)) {
			const issue = { path: "body", code: "too_deep", message: `Nested deeper than ${MAX_JSON_DEPTH} levels` };
			throw validationFailed([issue], `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
		}
		return body;
	};
}
