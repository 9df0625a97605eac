import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { config, type Config } from "../../shared/config.ts";
import { devIssuerKeys } from "../../shared/dev-issuer.ts";
import { ApiError } from "../../shared/errors.ts";

// Verifying the portal's OpenID Connect ID tokens: signature against the issuer's JWKS,
// issuer, audience and expiry. The local development issuer's key pair is trusted only with
// DEV_ISSUER=on (never in production: shared/config.ts refuses it).

export interface Identity {
	issuer: string;
	subject: string;
	email: string;
}

/** What an operator sets for sign-in to work (also logged by auth-keys at start when missing). */
export const SIGN_IN_SETUP = "set OIDC_ISSUER and OIDC_JWKS_URL of the OpenID Connect provider, or DEV_ISSUER=on for local development";

/** The local development issuer's key pair is the one to verify with. */
const devIssuerTrusted = (c: Config) => c.DEV_ISSUER === "on" && c.OIDC_ISSUER === c.devIssuer;

/** Whether an issuer's tokens can be verified with this configuration: its name, and its JWKS or the local key pair. */
export const signInConfigured = (c: Config = config()): boolean => !!c.OIDC_ISSUER && (!!c.OIDC_JWKS_URL || devIssuerTrusted(c));

let keySet: Promise<JWTVerifyGetKey> | undefined;

async function resolveKeySet(): Promise<JWTVerifyGetKey> {
	const c = config();
	// Only outside production (its configuration requires both): nobody can sign in until it is set.
	if (!signInConfigured(c)) throw new ApiError("unauthorized", `Sign-in is not configured on this server: ${SIGN_IN_SETUP}`);
	if (c.OIDC_JWKS_URL) return createRemoteJWKSet(new URL(c.OIDC_JWKS_URL), { timeoutDuration: 5000, cooldownDuration: 30_000 });
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
