import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { config } from "./config.ts";

// The local development issuer: a key pair on disk that mints OpenID Connect ID tokens for
// any email. For development and tests only, and only with DEV_ISSUER=on (shared/config.ts
// refuses that in production): auth-keys trusts its tokens and `cli dev:token` mints them
// only then.

const ALG = "ES256";
const KID = "oms-dev-1";

interface KeyFiles {
	privateJwk: JWK;
	publicJwks: { keys: JWK[] };
}

let loading: Promise<KeyFiles> | undefined;

async function keyFiles(): Promise<KeyFiles> {
	const dir = resolve(config().DEV_ISSUER_DIR);
	const privPath = join(dir, "private.jwk.json");
	try {
		const privateJwk = JSON.parse(await readFile(privPath, "utf8")) as JWK;
		const publicJwks = JSON.parse(await readFile(join(dir, "jwks.json"), "utf8")) as { keys: JWK[] };
		return { privateJwk, publicJwks };
	} catch {
		const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
		const privateJwk = { ...(await exportJWK(privateKey)), kid: KID, alg: ALG };
		const publicJwks = { keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: ALG, use: "sig" }] };
		await mkdir(dirname(privPath), { recursive: true });
		// "wx": when two processes race to create the pair, the loser re-reads the winner's.
		try {
			await writeFile(privPath, JSON.stringify(privateJwk), { mode: 0o600, flag: "wx" });
			await writeFile(join(dir, "jwks.json"), JSON.stringify(publicJwks));
		} catch {
			await new Promise((r) => setTimeout(r, 50));
			return keyFiles();
		}
		return { privateJwk, publicJwks };
	}
}

export function devIssuerKeys(): Promise<KeyFiles> {
	loading ??= keyFiles().catch((e) => {
		loading = undefined;
		throw e;
	});
	return loading;
}

export interface MintOptions {
	email: string;
	emailVerified?: boolean;
	subject?: string;
	audience?: string;
	issuer?: string;
	expiresInSeconds?: number;
}

/** An ID token for the email, signed by the local issuer (email_verified true by default). */
export async function mintDevIdToken(o: MintOptions): Promise<string> {
	const c = config();
	if (c.DEV_ISSUER !== "on") throw new Error("The local development issuer is off: set DEV_ISSUER=on (development and tests only)");
	const { privateJwk } = await devIssuerKeys();
	const key = await importJWK(privateJwk, ALG);
	const email = o.email.trim().toLowerCase();
	return new SignJWT({ email, email_verified: o.emailVerified ?? true })
		.setProtectedHeader({ alg: ALG, kid: KID, typ: "JWT" })
		.setIssuer(o.issuer ?? c.devIssuer)
		.setAudience(o.audience ?? c.OIDC_AUDIENCE)
		.setSubject(o.subject ?? `dev|${email}`)
		.setIssuedAt()
		.setExpirationTime(`${o.expiresInSeconds ?? 3600}s`)
		.sign(key);
}
