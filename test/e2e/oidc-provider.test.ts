import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";

// Signing in against a real OpenID Connect provider's protocol: a local server that
// publishes its JWKS over HTTP, as an identity provider does, instead of the dev issuer.

let provider: Server;
let issuer: string;
let sign: (claims: Record<string, unknown>) => Promise<string>;
let jwksHits = 0;
let stack: import("../support/stack.ts").Stack;
let helpers: typeof import("../support/stack.ts");

beforeAll(async () => {
	const { privateKey, publicKey } = await generateKeyPair("RS256");
	const jwk = { ...(await exportJWK(publicKey)), kid: "idp-1", alg: "RS256", use: "sig" };
	provider = createServer((req, res) => {
		if (req.url === "/jwks") {
			jwksHits++;
			res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
		} else if (req.url === "/.well-known/openid-configuration") {
			res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
		} else res.writeHead(404).end();
	});
	await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
	issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
	sign = (claims) =>
		new SignJWT({ email_verified: true, ...claims })
			.setProtectedHeader({ alg: "RS256", kid: "idp-1" })
			.setIssuer(issuer)
			.setAudience("oms-portal")
			.setIssuedAt()
			.setExpirationTime("5m")
			.sign(privateKey);
	process.env.OIDC_ISSUER = issuer;
	process.env.OIDC_JWKS_URL = `${issuer}/jwks`;
	resetConfig();
	helpers = await import("../support/stack.ts");
	stack = await helpers.startStack("gateway,auth-keys");
});
afterAll(async () => {
	await stack?.stop();
	await helpers?.dropTestDatabases();
	provider?.close();
});

describe("sign-in with an external OpenID Connect provider", () => {
	it("verifies tokens against the provider's published keys", async () => {
		const email = "buyer@example.org";
		const { tenantId } = await stack.broker.call<{ tenantId: string }, object>("auth-keys.createTenant", {
			name: "Provider Co",
			ownerEmail: email,
		});
		const res = await helpers.api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await sign({ sub: "idp-user-1", email })}` },
		});
		expect(res.status).toBe(200);
		expect(res.body.tenant.id).toBe(tenantId);
		expect(jwksHits).toBeGreaterThan(0);
	});

	it("refuses the local development issuer's tokens when a provider is configured", async () => {
		const { mintDevIdToken } = await import("../../shared/dev-issuer.ts");
		const res = await helpers.api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await mintDevIdToken({ email: "buyer@example.org" })}` },
		});
		expect(res.status).toBe(401);
		expect(res.body.error).toBe("unauthorized");
	});

	it("binds the identity on first sign-in and refuses another subject for that email", async () => {
		const res = await helpers.api(stack, "POST", "/session", {
			headers: { Authorization: `Bearer ${await sign({ sub: "idp-user-2", email: "buyer@example.org" })}` },
		});
		expect(res.status).toBe(409);
		expect(res.body.error).toBe("identity_conflict");
	});
});
