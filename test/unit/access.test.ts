import { describe, expect, it } from "vitest";
import type { AuthContext } from "../../shared/auth-context.ts";
import { checkAccess, checkOrigin } from "../../services/gateway/access.ts";
import { presentedCredential } from "../../services/gateway/credentials.ts";

const key = (scopes: AuthContext["scopes"]): AuthContext => ({
	kind: "api_key",
	tenantId: "t",
	userId: "u",
	membershipId: "m",
	scopes,
	apiKeyId: "k",
});
const session: AuthContext = { kind: "session", tenantId: "t", userId: "u", membershipId: "m", scopes: [], sessionId: "s" };
const code = (fn: () => void) => {
	try {
		fn();
		return "ok";
	} catch (e) {
		return (e as { type: string }).type;
	}
};

describe("checkAccess", () => {
	it("lets a key use only operations within its scopes", () => {
		expect(code(() => checkAccess("profile:read", key(["profile:read"])))).toBe("ok");
		expect(code(() => checkAccess("profile:write", key(["profile:read"])))).toBe("insufficient_scope");
		expect(code(() => checkAccess("opportunities:read", key([])))).toBe("insufficient_scope");
		expect(code(() => checkAccess("credential", key([])))).toBe("ok");
	});
	it("reserves session-only operations for browser sessions", () => {
		expect(code(() => checkAccess("session", key(["settings:write"])))).toBe("forbidden");
		expect(code(() => checkAccess("session", session))).toBe("ok");
	});
	it("gives a session every scope", () => {
		expect(code(() => checkAccess("dashboard:read", session))).toBe("ok");
	});
});

describe("checkOrigin", () => {
	it("needs an allowed Origin on mutations only", () => {
		expect(code(() => checkOrigin("GET", undefined, ["http://a"]))).toBe("ok");
		expect(code(() => checkOrigin("POST", "http://a", ["http://a"]))).toBe("ok");
		expect(code(() => checkOrigin("POST", undefined, ["http://a"]))).toBe("forbidden");
		expect(code(() => checkOrigin("DELETE", "http://b", ["http://a"]))).toBe("forbidden");
	});
});

describe("presentedCredential", () => {
	const req = (headers: Record<string, string>) => ({ headers }) as never;
	it("hashes a well-formed API key and refuses anything else", () => {
		const secret = `oms_live_${"a".repeat(43)}`;
		const p = presentedCredential(req({ authorization: `Bearer ${secret}` }), "oms_session");
		expect(p).toEqual({ kind: "api_key", hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
		expect(JSON.stringify(p)).not.toContain(secret);
		expect(presentedCredential(req({ authorization: `Bearer ${secret.slice(1)}` }), "oms_session").kind).toBe("malformed");
		expect(presentedCredential(req({ authorization: "Token x" }), "oms_session").kind).toBe("malformed");
		expect(presentedCredential(req({}), "oms_session").kind).toBe("none");
	});
	it("reads the session cookie among others; the Authorization header wins", () => {
		const c = "b".repeat(43);
		expect(presentedCredential(req({ cookie: `theme=dark; oms_session=${c}` }), "oms_session").kind).toBe("session");
		expect(
			presentedCredential(req({ cookie: `oms_session=${c}`, authorization: `Bearer oms_live_${"a".repeat(43)}` }), "oms_session").kind,
		).toBe("api_key");
		expect(presentedCredential(req({ cookie: "oms_session=short" }), "oms_session").kind).toBe("malformed");
	});
});
