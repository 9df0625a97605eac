import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { validationFailed } from "../../shared/errors.ts";
import { sha256 } from "../../shared/hash.ts";

// Reading the caller's credential off a request. Secrets are hashed here, at the edge,
// so no other process (nor any log of a call's params) ever sees one.

export const API_KEY_PREFIX = "oms_live_";
const API_KEY_RE = /^oms_live_[A-Za-z0-9_-]{43}$/;

export type Presented =
	| { kind: "api_key"; hash: string }
	| { kind: "session"; hash: string }
	| { kind: "bearer"; token: string }
	| { kind: "malformed" }
	| { kind: "none" };

export function bearerToken(req: IncomingMessage): string | null | undefined {
	const h = req.headers.authorization;
	if (h === undefined) return undefined;
	const m = /^Bearer ([\x21-\x7e]{1,8192})$/.exec(h.trim());
	return m ? m[1]! : null;
}

export function cookieValue(req: IncomingMessage, name: string): string | undefined {
	const header = req.headers.cookie;
	if (!header || header.length > 8192) return undefined;
	for (const part of header.split(";")) {
		const eq = part.indexOf("=");
		if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
	}
	return undefined;
}

/** An API key in the Authorization header wins over a session cookie. */
export function presentedCredential(req: IncomingMessage, cookieName: string): Presented {
	const token = bearerToken(req);
	if (token === null) return { kind: "malformed" };
	if (token !== undefined) return API_KEY_RE.test(token) ? { kind: "api_key", hash: sha256(token) } : { kind: "malformed" };
	const cookie = cookieValue(req, cookieName);
	if (cookie !== undefined) return /^[A-Za-z0-9_-]{43}$/.test(cookie) ? { kind: "session", hash: sha256(cookie) } : { kind: "malformed" };
	return { kind: "none" };
}

/** A tenant id is a UUID (auth-keys mints them with randomUUID). */
const TenantId = z.uuid();

/**
 * The company a browser session (or a sign-in) selects with X-Service-Tenant, if it names one.
 * Anything but a tenant id is refused here, at the edge, before any service is asked about it.
 */
export function selectedTenant(req: IncomingMessage): string | undefined {
	const header = req.headers["x-service-tenant"];
	if (header === undefined) return undefined;
	if (typeof header === "string" && TenantId.safeParse(header).success) return header;
	const issue = { path: "X-Service-Tenant", code: "invalid_format", message: "Must be a company id (a UUID)" };
	throw validationFailed([issue], "X-Service-Tenant must be a company id (a UUID)");
}
