import proxyAddr from "proxy-addr";
import { z } from "zod";

// Every setting the services read, with its default, validated once at start-up.
const Env = z.object({
	NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
	PORT: z.coerce.number().int().min(0).max(65535).default(3000),
	HOST: z.string().default("0.0.0.0"),
	PUBLIC_URL: z.string().url().default("http://localhost:3000"),
	ALLOWED_ORIGINS: z.string().default(""),
	SERVICES: z.string().default("all"),
	TRANSPORTER: z.string().default(""),
	NODE_ID: z.string().default(""),
	NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]{0,40}$/).default("oms"),
	MONGO_URL: z.string().default("mongodb://127.0.0.1:27017/"),
	MONGO_DB_PREFIX: z.string().regex(/^[a-z0-9_]{1,20}$/).default("oms"),
	/** Connections per service database. FerretDB 1.x can deadlock when concurrent requests outnumber its PostgreSQL pool, so keep the sum over processes below it. */
	MONGO_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(8),
	REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
	REDIS_PREFIX: z.string().default("oms"),
	LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace"]).default("info"),
	LOG_PRETTY: z.enum(["auto", "true", "false"]).default("auto"),
	BODY_LIMIT: z.string().default("256kb"),
	RATE_LIMIT_POINTS: z.coerce.number().int().positive().default(600),
	RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
	RATE_LIMIT_ANON_POINTS: z.coerce.number().int().positive().default(120),
	/**
	 * The proxies in front of the gateway (addresses, CIDRs, or proxy-addr's names loopback,
	 * linklocal, uniquelocal; comma-separated). Only a peer listed here is believed about the
	 * client's address (X-Forwarded-For), which the anonymous rate limit is keyed on.
	 */
	TRUST_PROXY: z.string().default(""),
	SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
	SESSION_COOKIE: z.string().default("oms_session"),
	CURSOR_SECRET: z.string().default(""),
	OIDC_ISSUER: z.string().default(""),
	OIDC_AUDIENCE: z.string().default("oms-portal"),
	OIDC_JWKS_URL: z.string().default(""),
	DEV_ISSUER_DIR: z.string().default(".data/dev-issuer"),
	REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
	/** A local call in flight longer than this makes the process not ready (shared/call-watchdog.ts). */
	CALL_STUCK_MS: z.coerce.number().int().positive().default(120_000),
	SMTP_URL: z.string().default("smtp://127.0.0.1:1025"),
	MAIL_FROM: z.string().default("Opportunity Matching <digest@localhost>"),
	PORTAL_URL: z.string().default(""),
	DIGEST_TICK_MS: z.coerce.number().int().positive().default(60_000),
	/** "off" runs no queue workers, schedulers or reconcilers in this process (CLI, API-only replicas). */
	WORKERS: z.enum(["on", "off"]).default("on"),
	/** Every process's ops server (/healthz, /readyz, /metrics): a port, 0 for any free one, or "off". */
	OPS_PORT: z.union([z.literal("off"), z.coerce.number().int().min(0).max(65535)]).default(9464),
});
export type Config = z.infer<typeof Env> & {
	/** The issuer URL the local development issuer signs with. */
	devIssuer: string;
	allowedOrigins: string[];
	/** TRUST_PROXY as a list, each entry checked. */
	trustedProxies: string[];
};

export const DEV_ISSUER_PATH = "/dev-issuer";

const commaList = (value: string) =>
	value
		.split(",")
		.map((s) => s.trim())
		.filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
	const parsed = Env.safeParse(env);
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
		throw new Error(`Invalid configuration:\n${lines}`);
	}
	const c = parsed.data;
	const devIssuer = `${c.PUBLIC_URL.replace(/\/$/, "")}${DEV_ISSUER_PATH}`;
	const issuer = c.OIDC_ISSUER || devIssuer;
	if (c.NODE_ENV === "production") {
		// The local issuer mints tokens for any email: it must never sign anyone in for real.
		if (issuer === devIssuer || !c.OIDC_JWKS_URL) throw new Error("Invalid configuration: production needs OIDC_ISSUER and OIDC_JWKS_URL of a real OpenID Connect provider; the local development issuer is refused");
		if (!c.CURSOR_SECRET || c.CURSOR_SECRET.length < 32) throw new Error("Invalid configuration: production needs CURSOR_SECRET of at least 32 characters");
	}
	const allowedOrigins = commaList(c.ALLOWED_ORIGINS || new URL(c.PUBLIC_URL).origin);
	const trustedProxies = commaList(c.TRUST_PROXY);
	try {
		proxyAddr.compile(trustedProxies);
	} catch (e) {
		throw new Error(`Invalid configuration: TRUST_PROXY: ${(e as Error).message} (addresses or CIDRs, comma-separated)`);
	}
	return { ...c, OIDC_ISSUER: issuer, devIssuer, allowedOrigins, trustedProxies };
}

let cached: Config | undefined;
/** The process-wide configuration (tests may call resetConfig after changing env). */
export function config(): Config {
	cached ??= loadConfig();
	return cached;
}
export function resetConfig(): void {
	cached = undefined;
}
