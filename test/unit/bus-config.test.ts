import type { BrokerOptions } from "moleculer";
import { describe, expect, it } from "vitest";
import { brokerOptions } from "../../shared/broker.ts";
import { loadConfig, withoutCredentials } from "../../shared/config.ts";
import { createApiKey, createSession } from "../../shared/contract/auth-operations.ts";

// What the process settings say about the bus and sign-in before anything connects: a
// production process refuses an unauthenticated NATS and the local development issuer, the
// credentials reach the NATS client as options (never left in a URL that gets logged), and the
// caps on API keys and sessions are settings.

const PROD = {
	NODE_ENV: "production",
	CURSOR_SECRET: "x".repeat(32),
	OIDC_ISSUER: "https://id.example.com",
	OIDC_JWKS_URL: "https://id.example.com/jwks",
};
const STRONG = "n4ts-password-of-some-length";

describe("NATS credentials", () => {
	it("production refuses a NATS transporter without credentials", () => {
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "nats://nats.nats.svc:4222" })).toThrow(/NATS_USER and NATS_PASSWORD/);
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "tls://nats.nats.svc:4222" })).toThrow(/NATS_USER and NATS_PASSWORD/);
		// One process without a transporter has no bus to protect.
		expect(() => loadConfig(PROD)).not.toThrow();
	});

	it("production accepts an unauthenticated NATS only when told explicitly", () => {
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "nats://nats:4222", NATS_ALLOW_UNAUTHENTICATED: "true" })).not.toThrow();
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "nats://nats:4222", NATS_ALLOW_UNAUTHENTICATED: "yes" })).toThrow(
			/NATS_ALLOW_UNAUTHENTICATED/,
		);
	});

	it("production accepts credentials in the URL or as NATS_USER and NATS_PASSWORD, but no short password", () => {
		expect(() => loadConfig({ ...PROD, TRANSPORTER: `nats://oms:${STRONG}@nats:4222` })).not.toThrow();
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "nats://nats:4222", NATS_USER: "oms", NATS_PASSWORD: STRONG })).not.toThrow();
		// docker-compose.yml's development password and the k8s placeholder are both too short.
		const development = { ...PROD, TRANSPORTER: "nats://nats:4222", NATS_USER: "oms", NATS_PASSWORD: "oms-dev-nats" };
		expect(() => loadConfig(development)).toThrow(/NATS_PASSWORD of at least 16/);
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "nats://nats:4222", NATS_USER: "oms", NATS_PASSWORD: "REPLACE_ME" })).toThrow(
			/at least 16/,
		);
	});

	it("refuses half a credential anywhere", () => {
		expect(() => loadConfig({ TRANSPORTER: "nats://127.0.0.1:4222", NATS_USER: "oms" })).toThrow(/NATS_USER and NATS_PASSWORD/);
		expect(() => loadConfig({ TRANSPORTER: "nats://127.0.0.1:4222", NATS_PASSWORD: STRONG })).toThrow(/NATS_USER and NATS_PASSWORD/);
		expect(() => loadConfig({ TRANSPORTER: "nats://127.0.0.1:4222" })).not.toThrow();
	});

	it("hands the credentials to the NATS client as options, decoded, with every server of the list", () => {
		const fromUrl = brokerOptions(loadConfig({ TRANSPORTER: "nats://oms:p%40ss%2Fword@n1:4222,nats://n2:4222" })).transporter;
		expect(fromUrl).toEqual({ type: "NATS", options: { servers: ["n1:4222", "n2:4222"], user: "oms", pass: "p@ss/word" } });
		const separate = brokerOptions(loadConfig({ TRANSPORTER: "nats://n1:4222", NATS_USER: "oms", NATS_PASSWORD: "a b:c@d" })).transporter;
		expect(separate).toEqual({ type: "NATS", options: { servers: ["n1:4222"], user: "oms", pass: "a b:c@d" } });
		// A URL given to one broker (the cluster supervisor's, a test's) gets the same treatment.
		const override = brokerOptions(loadConfig({}), {
			transporter: "nats://u:v@127.0.0.1:4333" as BrokerOptions["transporter"],
		}).transporter;
		expect(override).toEqual({ type: "NATS", options: { servers: ["127.0.0.1:4333"], user: "u", pass: "v" } });
		expect(brokerOptions(loadConfig({})).transporter).toBeNull();
	});

	it("requires TLS for tls:// servers or a CA file, and verifies against that CA", () => {
		expect(brokerOptions(loadConfig({ TRANSPORTER: "tls://n1:4222" })).transporter).toEqual({
			type: "NATS",
			options: { servers: ["n1:4222"], tls: {} },
		});
		const ca = brokerOptions(loadConfig({ TRANSPORTER: "nats://n1:4222", NATS_TLS_CA_FILE: "/etc/nats-ca/ca.crt" })).transporter;
		expect(ca).toEqual({ type: "NATS", options: { servers: ["n1:4222"], tls: { caFile: "/etc/nats-ca/ca.crt" } } });
	});

	it("production runs over NATS only", () => {
		expect(() => loadConfig({ ...PROD, TRANSPORTER: "TCP", NATS_ALLOW_UNAUTHENTICATED: "true" })).toThrow(/nats:\/\/ or tls:\/\//);
	});

	it("masks passwords in URLs meant for logs", () => {
		expect(withoutCredentials("nats://oms:s3cret@n1:4222,nats://u:x@n2:4222")).toBe("nats://oms:***@n1:4222,nats://u:***@n2:4222");
		expect(withoutCredentials("nats://127.0.0.1:4222")).toBe("nats://127.0.0.1:4222");
		expect(withoutCredentials("")).toBe("");
	});
});

describe("the local development issuer", () => {
	it("is off unless DEV_ISSUER=on, whatever NODE_ENV says", () => {
		expect(loadConfig({}).OIDC_ISSUER).toBe("");
		expect(loadConfig({ NODE_ENV: "development" }).OIDC_ISSUER).toBe("");
		expect(loadConfig({ DEV_ISSUER: "on" }).OIDC_ISSUER).toBe("http://localhost:3000/dev-issuer");
		// A real provider keeps its issuer with the development one enabled beside it.
		expect(loadConfig({ DEV_ISSUER: "on", OIDC_ISSUER: "https://id.example.com" }).OIDC_ISSUER).toBe("https://id.example.com");
	});

	it("is refused in production even beside a real provider", () => {
		expect(() => loadConfig({ ...PROD, DEV_ISSUER: "on" })).toThrow(/DEV_ISSUER/);
		expect(() => loadConfig({ ...PROD, DEV_ISSUER: "off" })).not.toThrow();
		expect(() => loadConfig({ DEV_ISSUER: "true" })).toThrow(/DEV_ISSUER/);
	});
});

describe("caps", () => {
	it("default to 50 active API keys per company and 20 live sessions per account", () => {
		const c = loadConfig({});
		expect(c.API_KEYS_PER_COMPANY).toBe(50);
		expect(c.SESSIONS_PER_ACCOUNT).toBe(20);
		expect(loadConfig({ API_KEYS_PER_COMPANY: "5", SESSIONS_PER_ACCOUNT: "3" })).toMatchObject({
			API_KEYS_PER_COMPANY: 5,
			SESSIONS_PER_ACCOUNT: 3,
		});
		expect(() => loadConfig({ API_KEYS_PER_COMPANY: "0" })).toThrow(/API_KEYS_PER_COMPANY/);
	});

	it("are the defaults the contract's operations document, with their error code", () => {
		const c = loadConfig({});
		expect(createApiKey.description).toContain(`at most ${c.API_KEYS_PER_COMPANY} active API keys`);
		expect(createSession.description).toContain(`at most ${c.SESSIONS_PER_ACCOUNT} live sessions`);
		for (const op of [createApiKey, createSession]) {
			expect(op.description).toContain("403 `forbidden`");
			expect(op.errors).toContain("forbidden");
		}
	});
});
