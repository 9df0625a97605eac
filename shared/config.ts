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
	/** nats://host:port (a comma-separated list for a cluster; tls:// requires TLS); credentials in it or in NATS_USER/NATS_PASSWORD. */
	TRANSPORTER: z.string().default(""),
	NATS_USER: z.string().default(""),
	NATS_PASSWORD: z.string().default(""),
	/** PEM file of the CA that signed the NATS servers' certificates; setting it requires TLS. */
	NATS_TLS_CA_FILE: z.string().default(""),
	/** "true" lets a production process use a NATS that takes no credentials (say, one secured otherwise). */
	NATS_ALLOW_UNAUTHENTICATED: z.enum(["true", "false"]).default("false"),
	NODE_ID: z.string().default(""),
	NAMESPACE: z
		.string()
		.regex(/^[A-Za-z0-9_-]{0,40}$/)
		.default("oms"),
	MONGO_URL: z.string().default("mongodb://127.0.0.1:27017/"),
	MONGO_DB_PREFIX: z
		.string()
		.regex(/^[a-z0-9_]{1,20}$/)
		.default("oms"),
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
	/** "on" trusts (and lets `cli dev:token` mint) ID tokens of the local development issuer; refused in production. */
	DEV_ISSUER: z.enum(["on", "off"]).default("off"),
	DEV_ISSUER_DIR: z.string().default(".data/dev-issuer"),
	/** Active (neither revoked nor expired) API keys a company may hold. */
	API_KEYS_PER_COMPANY: z.coerce.number().int().min(1).max(10_000).default(50),
	/** Live (neither ended nor expired) browser sessions an account may hold. */
	SESSIONS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(20),
	/**
	 * How long auth-keys may answer a credential, a user's email and memberships from memory at
	 * most (services/auth-keys/auth-memory.ts). Changes made through the service take effect on the
	 * very next request whatever this is; it bounds only changes made straight in the database.
	 * 0: every request reads the database.
	 */
	AUTH_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
	REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
	/** A local call in flight longer than this makes the process not ready (shared/call-watchdog.ts). */
	CALL_STUCK_MS: z.coerce.number().int().positive().default(120_000),
	SMTP_URL: z.string().default("smtp://127.0.0.1:1025"),
	MAIL_FROM: z.string().default("Opportunity Matching <digest@localhost>"),
	PORTAL_URL: z.string().default(""),
	DIGEST_TICK_MS: z.coerce.number().int().positive().default(60_000),
	/** How often pending indexing / matching / learning requests are re-sent (every service's outbox). */
	OUTBOX_RECONCILE_MS: z.coerce.number().int().min(100).default(15_000),
	/** How often passed deadlines close notices and expire untouched opportunities. */
	DEADLINE_SWEEP_MS: z.coerce.number().int().positive().default(300_000),
	/** First retry delay of a failed feed poll (exponential, 5 attempts). */
	FEED_RETRY_MS: z.coerce.number().int().positive().default(60_000),
	/** Sources to poll, as JSON (services/opportunities/pollers.ts, FeedConfig). */
	FEEDS: z.string().default(""),
	/** Questions per company per minute (services/ask/rate-limit.ts); invalid values fall back to the default there. */
	ASK_RATE_PER_MINUTE: z.string().optional(),
	/** An OpenAI-compatible model for ask (services/ask/llm.ts): all three of URL, key and model, or none. */
	LLM_BASE_URL: z.string().optional(),
	LLM_API_KEY: z.string().optional(),
	LLM_MODEL: z.string().optional(),
	LLM_TIMEOUT_MS: z.string().optional(),
	LLM_RETRIES: z.string().optional(),
	LLM_BACKOFF_MS: z.string().optional(),
	/** "off" runs no queue workers, schedulers or reconcilers in this process (CLI, API-only replicas). */
	WORKERS: z.enum(["on", "off"]).default("on"),
	/** Every process's ops server (/healthz, /readyz, /metrics): a port, 0 for any free one, or "off". */
	OPS_PORT: z.union([z.literal("off"), z.coerce.number().int().min(0).max(65535)]).default(9464),
});
/** Where and how the NATS client connects: what shared/broker.ts hands to Moleculer's NATS transporter. */
export interface NatsSettings {
	/** host:port of each server. */
	servers: string[];
	user?: string;
	pass?: string;
	/** Set: TLS is required (tls:// or a CA file), verified against the CA file or the system's CAs. */
	tls?: { caFile?: string };
}

export type Config = z.infer<typeof Env> & {
	/** The issuer URL the local development issuer signs with (trusted only with DEV_ISSUER=on). */
	devIssuer: string;
	allowedOrigins: string[];
	/** TRUST_PROXY as a list, each entry checked. */
	trustedProxies: string[];
	/** TRANSPORTER as NATS client settings; null without a transporter or with another kind. */
	nats: NatsSettings | null;
};

export const DEV_ISSUER_PATH = "/dev-issuer";

const commaList = (value: string) =>
	value
		.split(",")
		.map((s) => s.trim())
		.filter(Boolean);

/** The smallest NATS password production accepts (docker-compose.yml's development one is shorter). */
const MIN_NATS_PASSWORD = 16;

const isNatsUrl = (t: string) => /^(nats|tls):\/\//i.test(t.trim());

/**
 * A NATS transporter URL (or comma-separated list) as client settings: the servers without
 * credentials, the user and password taken from the URL (percent-decoded) or else from
 * NATS_USER/NATS_PASSWORD, TLS for tls:// or when a CA file is given.
 */
export function natsSettings(
	transporter: string,
	c: Pick<Config, "NATS_USER" | "NATS_PASSWORD" | "NATS_TLS_CA_FILE">,
): NatsSettings | null {
	if (!isNatsUrl(transporter)) return null;
	let user: string | undefined;
	let pass: string | undefined;
	let tls = false;
	const servers = transporter.split(",").map((part) => {
		const u = new URL(part.trim());
		if (u.protocol === "tls:") tls = true;
		if (u.username && user === undefined) {
			user = decodeURIComponent(u.username);
			pass = decodeURIComponent(u.password);
		}
		return u.host;
	});
	if (user === undefined && c.NATS_USER) {
		user = c.NATS_USER;
		pass = c.NATS_PASSWORD;
	}
	const settings: NatsSettings = { servers };
	if (user !== undefined) Object.assign(settings, { user, pass });
	if (tls || c.NATS_TLS_CA_FILE) settings.tls = c.NATS_TLS_CA_FILE ? { caFile: c.NATS_TLS_CA_FILE } : {};
	return settings;
}

/** The URL (or list) with each password replaced by ***, for log lines and console output. */
export const withoutCredentials = (url: string): string => url.replace(/(\/\/[^:/@,]*):[^@/,]*@/g, "$1:***@");

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
	const parsed = Env.safeParse(env);
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
		throw new Error(`Invalid configuration:\n${lines}`);
	}
	const c = parsed.data;
	const devIssuer = `${c.PUBLIC_URL.replace(/\/$/, "")}${DEV_ISSUER_PATH}`;
	// Without DEV_ISSUER=on nothing trusts the local issuer: no issuer at all until OIDC_ISSUER is set.
	const issuer = c.OIDC_ISSUER || (c.DEV_ISSUER === "on" ? devIssuer : "");
	if (!c.NATS_USER !== !c.NATS_PASSWORD) throw new Error("Invalid configuration: set both NATS_USER and NATS_PASSWORD, or neither");
	let nats: NatsSettings | null;
	try {
		nats = natsSettings(c.TRANSPORTER, c);
	} catch {
		throw new Error("Invalid configuration: TRANSPORTER is not a valid nats:// or tls:// URL (or comma-separated list of them)");
	}
	if (c.NODE_ENV === "production") {
		// The local issuer mints tokens for any email: it must never sign anyone in for real.
		if (c.DEV_ISSUER === "on")
			throw new Error("Invalid configuration: DEV_ISSUER=on is refused in production (the local development issuer signs in any email)");
		if (!issuer || issuer === devIssuer || !c.OIDC_JWKS_URL) {
			throw new Error(
				"Invalid configuration: production needs OIDC_ISSUER and OIDC_JWKS_URL of a real OpenID Connect provider; the local development issuer is refused",
			);
		}
		if (!c.CURSOR_SECRET || c.CURSOR_SECRET.length < 32)
			throw new Error("Invalid configuration: production needs CURSOR_SECRET of at least 32 characters");
		if (c.TRANSPORTER) checkProductionNats(nats, c.NATS_ALLOW_UNAUTHENTICATED === "true");
	}
	const allowedOrigins = commaList(c.ALLOWED_ORIGINS || new URL(c.PUBLIC_URL).origin);
	const trustedProxies = commaList(c.TRUST_PROXY);
	try {
		proxyAddr.compile(trustedProxies);
	} catch (e) {
		throw new Error(`Invalid configuration: TRUST_PROXY: ${(e as Error).message} (addresses or CIDRs, comma-separated)`);
	}
	return { ...c, OIDC_ISSUER: issuer, devIssuer, allowedOrigins, trustedProxies, nats };
}

/** Anyone who reaches an open NATS can call every action of every service, so production needs credentials. */
function checkProductionNats(nats: NatsSettings | null, allowUnauthenticated: boolean): void {
	if (!nats) throw new Error("Invalid configuration: production runs its services over NATS: TRANSPORTER must be nats:// or tls:// URLs");
	if (nats.user === undefined) {
		if (allowUnauthenticated) return;
		throw new Error(
			"Invalid configuration: production needs NATS_USER and NATS_PASSWORD (or credentials in TRANSPORTER) for its NATS transporter; " +
				"set NATS_ALLOW_UNAUTHENTICATED=true only if that NATS is secured otherwise",
		);
	}
	if ((nats.pass ?? "").length < MIN_NATS_PASSWORD) {
		throw new Error(`Invalid configuration: production needs a NATS_PASSWORD of at least ${MIN_NATS_PASSWORD} characters`);
	}
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
