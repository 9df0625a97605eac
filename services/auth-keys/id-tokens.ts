import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { config } from "../../shared/config.ts";
import { devIssuerKeys } from "../../shared/dev-issuer.ts";
import { ApiError } from "../../shared/errors.ts";

// Verifying the portal's OpenID Connect ID tokens: signature against the issuer's JWKS,
// issuer, audience and expiry. The local development issuer is used only outside production.

export interface Identity {
	issuer: string;
	subject: string;
	email: string;
}

let keySet: Promise<JWTVerifyGetKey> | undefined;

async function resolveKeySet(): Promise<JWTVerifyGetKey> {
	const c = config();
	if (c.OIDC_JWKS_URL) return createRemoteJWKSet(new URL(c.OIDC_JWKS_URL), { timeoutDuration: 5000, cooldownDuration: 30_000 });
	if (c.NODE_ENV === "production" || c.OIDC_ISSUER !== c.devIssuer) throw new Error("No JWKS for the configured OIDC issuer: set OIDC_JWKS_URL");
	return createLocalJWKSet((await devIssuerKeys()).publicJwks);
}

export function resetKeySet(): void {
	keySet = undefined;
}

export async function verifyIdToken(token: string): Promise<Identity> {
	const c = config();
	keySet ??= resolveKeySet().catch((e) => {
		keySet = undefined;
		throw e;
	});
	const keys = await keySet;
	let payload;
	try {
		({ payload } = await jwtVerify(token, keys, {
			issuer: c.OIDC_ISSUER,
			audience: c.OIDC_AUDIENCE,
			algorithms: ["RS256", "ES256", "PS256", "EdDSA"],
			clockTolerance: 30,
			requiredClaims: ["sub", "exp", "iat"],
		}));
	} catch (e) {
		if (e instanceof joseErrors.JOSEError) throw new ApiError("unauthorized", "Invalid ID token");
		throw e;
	}
	const email = typeof payload.email === "string" ? payload.email.trim().toLowerCase() : "";
	if (!email || payload.email_verified !== true) throw new ApiError("unverified_email", "The ID token carries no verified email address");
	return { issuer: payload.iss!, subject: payload.sub!, email };
}
