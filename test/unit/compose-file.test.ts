import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SERVICE_SCHEMAS } from "../../services/registry.ts";
import { loadConfig } from "../../shared/config.ts";

// docker-compose.yml as Compose itself reads it: `docker-compose config` (Debian's docker-compose
// 1.29, which needs no Docker engine for this) resolves the anchors, merges and variables, and
// rejects what its schema does not allow. scripts/run.sh installs it for `npm test` when it can;
// a machine without it fails here rather than skipping, so a broken compose file cannot pass.

const ROOT = resolve(import.meta.dirname, "../..");
const SEVEN = Object.keys(SERVICE_SCHEMAS);
const INSTALL =
	"install Debian's docker-compose (`sudo apt-get install -y --no-install-recommends docker-compose`), or run `npm test` as root, which installs it";

interface ComposeService {
	image?: string;
	build?: { context?: string; dockerfile?: string };
	environment?: Record<string, string | null>;
	ports?: Array<string | { target: number; published?: string | number; host_ip?: string }>;
	depends_on?: Record<string, { condition?: string }> | string[];
	command?: string[] | string;
}

/** `docker-compose config` of the repository's compose file, with no host variables leaking in. */
function composeConfig(env: Record<string, string> = {}): { services: Record<string, ComposeService> } {
	const r = spawnSync("docker-compose", ["-f", resolve(ROOT, "docker-compose.yml"), "config"], {
		cwd: ROOT,
		encoding: "utf8",
		env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
		timeout: 60_000,
	});
	if (r.error && (r.error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`docker-compose is not installed: ${INSTALL}`);
	if (r.status !== 0) throw new Error(`docker-compose config failed (${r.status}):\n${r.stderr}`);
	return parse(r.stdout);
}

/** Published ports as {host_ip, published, target}, from either the short (1.29) or long (v2) form. */
function published(s: ComposeService) {
	return (s.ports ?? []).map((p) => {
		if (typeof p !== "string") return { host_ip: p.host_ip ?? "", published: String(p.published ?? ""), target: p.target };
		const [mapping] = p.split("/");
		const parts = mapping!.split(":");
		const target = Number(parts.pop());
		const pub = parts.pop() ?? "";
		return { host_ip: parts.join(":"), published: pub, target };
	});
}

describe("docker-compose.yml", () => {
	// Read in the tests, not while collecting them: without docker-compose each test fails (and
	// is counted as failed) with the message that says how to install it.
	let resolved: Record<string, ComposeService> | undefined;
	const services = () => (resolved ??= composeConfig().services);

	it("runs each of the seven services in its own container, SERVICES naming it", () => {
		for (const name of SEVEN) {
			expect(services()[name], `no compose service ${name}`).toBeDefined();
			expect(services()[name]!.environment?.SERVICES, name).toBe(name);
		}
		const app = Object.entries(services()).filter(([, s]) => s.environment?.SERVICES !== undefined);
		expect(app.map(([n]) => n).sort()).toEqual([...SEVEN].sort());
	});

	it("builds every app container from the one image, and they talk over NATS", () => {
		for (const name of SEVEN) {
			const s = services()[name]!;
			expect(s.image, name).toBe("oms:latest");
			expect(s.build?.dockerfile, name).toBe("deploy/Dockerfile");
			expect(s.environment?.TRANSPORTER, name).toBe("nats://nats:4222");
			expect(s.environment?.MONGO_URL, name).toBe("mongodb://mongo:27017/");
			expect(s.environment?.REDIS_URL, name).toBe("redis://redis:6379");
			const deps = s.depends_on && !Array.isArray(s.depends_on) ? s.depends_on : {};
			expect(Object.keys(deps), name).toEqual(expect.arrayContaining(["mongo", "redis", "nats"]));
		}
		expect(services().notifications!.environment?.SMTP_URL).toMatch(/^smtp:\/\/mailpit:1025/);
		expect(services().ask!.environment).toHaveProperty("LLM_API_KEY");
	});

	it("publishes port 3000 for the gateway only, on 127.0.0.1 unless asked otherwise", () => {
		for (const [name, s] of Object.entries(services())) {
			const ports = published(s);
			if (name === "gateway") expect(ports).toEqual([{ host_ip: "127.0.0.1", published: "3000", target: 3000 }]);
			else {
				expect(
					ports.filter((p) => p.published === "3000" || p.target === 3000),
					name,
				).toEqual([]);
				if (SEVEN.includes(name)) expect(ports, `${name} is reached over NATS, not from the host`).toEqual([]);
			}
		}
		const open = composeConfig({ OMS_APP_BIND: "0.0.0.0", OMS_APP_PORT: "8080" }).services.gateway!;
		expect(published(open)).toEqual([{ host_ip: "0.0.0.0", published: "8080", target: 3000 }]);
	});

	it("makes NATS require the credentials every app container connects with", () => {
		const credentials = (all: Record<string, ComposeService>) => {
			const cmd = ([] as string[]).concat(all.nats!.command ?? []);
			expect(cmd).toContain("--user");
			expect(cmd).toContain("--pass");
			const required = { user: cmd[cmd.indexOf("--user") + 1], pass: cmd[cmd.indexOf("--pass") + 1] };
			for (const name of SEVEN)
				expect({ user: all[name]!.environment?.NATS_USER, pass: all[name]!.environment?.NATS_PASSWORD }, name).toEqual(required);
			return required;
		};
		expect(credentials(services())).toEqual({ user: "oms", pass: expect.stringMatching(/\S/) });
		const given = composeConfig({ NATS_USER: "bus", NATS_PASSWORD: "a-long-enough-secret-1" }).services;
		expect(credentials(given)).toEqual({ user: "bus", pass: "a-long-enough-secret-1" });
		// scripts/services.sh starts the nats service alone for the tests, without credentials.
		expect(credentials(composeConfig({ NATS_USER: "", NATS_PASSWORD: "" }).services)).toEqual({ user: "", pass: "" });
	});

	it("needs a real NATS password, the local issuer off and the OIDC settings for NODE_ENV=production", () => {
		const production = (s: ComposeService) =>
			loadConfig({
				...Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, v ?? ""])),
				NODE_ENV: "production",
				OIDC_ISSUER: "https://id.example.com",
				OIDC_JWKS_URL: "https://id.example.com/jwks",
				CURSOR_SECRET: "c".repeat(40),
			});
		expect(() => production(services().gateway!), "the development NATS password").toThrow(/NATS_PASSWORD of at least 16/);
		const real = composeConfig({ NATS_PASSWORD: "a-long-enough-secret-1" }).services;
		for (const name of SEVEN) expect(() => production(real[name]!), name).not.toThrow();
		expect(() => production(composeConfig({ NATS_PASSWORD: "a-long-enough-secret-1", DEV_ISSUER: "on" }).services.gateway!)).toThrow(
			/DEV_ISSUER/,
		);
	});

	it("trusts the local development issuer only when asked (DEV_ISSUER=on)", () => {
		for (const name of SEVEN) expect(services()[name]!.environment?.DEV_ISSUER, name).toBe("off");
		const on = composeConfig({ DEV_ISSUER: "on" }).services;
		for (const name of SEVEN) expect(on[name]!.environment?.DEV_ISSUER, name).toBe("on");
	});

	it("keeps the backing services that scripts/services.sh starts on their own", () => {
		for (const name of ["nats", "redis", "mongo", "mailpit"]) {
			expect(services()[name], name).toBeDefined();
			expect(services()[name]!.depends_on ?? {}, `${name} must start without the app`).toEqual({});
		}
		expect(services().mongo!.image).toBe("mongo:8");
		expect(String(services().nats!.command)).toMatch(/-js/);
		// The payload limit an 8 MB import needs (deploy/nats/nats.conf, mounted where -c reads it).
		const nats = ([] as string[]).concat(services().nats!.command ?? []).join(" ");
		expect(nats).toMatch(/-c \/etc\/nats\/nats\.conf/);
		expect(JSON.stringify((services().nats as { volumes?: unknown }).volumes)).toMatch(/deploy\/nats\/nats\.conf/);
		expect(readFileSync(resolve(ROOT, "deploy/nats/nats.conf"), "utf8")).toMatch(/^max_payload: 16MB$/m);
		const redis = ([] as string[]).concat(services().redis!.command ?? []).join(" ");
		expect(redis).toMatch(/--maxmemory-policy noeviction/);
		expect(redis).toMatch(/--appendonly yes/);
	});
});
