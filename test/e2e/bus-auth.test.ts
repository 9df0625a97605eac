import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import { connect } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNatsServer, type NatsServer } from "../../scripts/cluster-nats.ts";
import { brokerOptions } from "../../shared/broker.ts";
import { loadConfig } from "../../shared/config.ts";
import { freePort, startServiceProcess, waitFor, type ServiceProcess } from "../support/processes.ts";

// The bus between processes is authenticated: over a nats-server of this test that requires a
// user and password (and one that also requires TLS), a broker with the credentials joins the
// others, one without them or with a wrong password is refused, a service process given them in
// its TRANSPORTER joins without the password ever reaching its log, and a production process
// without credentials refuses to start.

const namespace = `bus-auth-${randomBytes(3).toString("hex")}`;
let nats: NatsServer;
const started: ServiceBroker[] = [];
const procs: ServiceProcess[] = [];

/** A broker with the settings a process started with `env` would have (ops server off). */
function brokerWith(env: Record<string, string>, nodeID: string): ServiceBroker {
	const c = loadConfig({ ...process.env, TRANSPORTER: "", NATS_USER: "", NATS_PASSWORD: "", OPS_PORT: "off", ...env });
	// No reconnect loop: a refused broker must not keep retrying after the test.
	return new ServiceBroker(brokerOptions(c, { nodeID, namespace, logger: false, transit: { disableReconnect: true } }));
}

/** Starts it with an `echo` service and waits until it is connected. */
async function joined(env: Record<string, string>, nodeID: string): Promise<ServiceBroker> {
	const b = brokerWith(env, nodeID);
	b.createService({ name: `echo-${nodeID}`, actions: { hello: () => nodeID } });
	started.push(b);
	await b.start();
	return b;
}

/** Starts it without waiting and resolves the transporter's first error (the broker never connects). */
async function refusal(env: Record<string, string>, nodeID: string): Promise<string> {
	const b = brokerWith(env, nodeID);
	const errors: string[] = [];
	b.localBus.on("$transporter.error", (p: { error?: { message?: string; code?: string } }) =>
		errors.push(`${p.error?.code ?? ""} ${p.error?.message ?? ""}`),
	);
	void b.start().catch(() => undefined);
	const first = await waitFor(`${nodeID} to be refused`, async () => errors[0], 10_000);
	expect(b.transit?.connected, `${nodeID} connected`).toBe(false);
	return first;
}

beforeAll(async () => {
	nats = await startNatsServer();
}, 30_000);
afterAll(async () => {
	await Promise.all(procs.map((p) => p.stop()));
	await Promise.all(started.map((b) => b.stop().catch(() => undefined)));
	await nats?.stop();
});

describe("a NATS that requires a user and password", () => {
	it("refuses a client without credentials (the server enforces it, not our code)", async () => {
		expect(nats.url).toMatch(/^nats:\/\/oms:[^@]{16,}@127\.0\.0\.1:\d+$/);
		await expect(connect({ servers: nats.address, reconnect: false })).rejects.toThrow(/authorization/i);
		const nc = await connect({ servers: nats.address, user: nats.user, pass: nats.password, reconnect: false });
		await nc.close();
	});

	it("lets brokers with the credentials (in the URL or as NATS_USER and NATS_PASSWORD) call each other", async () => {
		const inUrl = await joined({ TRANSPORTER: nats.url }, "in-url");
		const separate = await joined(
			{ TRANSPORTER: `nats://${nats.address}`, NATS_USER: nats.user, NATS_PASSWORD: nats.password },
			"separate",
		);
		await inUrl.waitForServices(["echo-separate"], 10_000);
		await separate.waitForServices(["echo-in-url"], 10_000);
		expect(await inUrl.call("echo-separate.hello")).toBe("separate");
		expect(await separate.call("echo-in-url.hello")).toBe("in-url");
	});

	it("refuses a broker without credentials or with a wrong password", async () => {
		expect(await refusal({ TRANSPORTER: `nats://${nats.address}` }, "anonymous")).toMatch(/authorization violation/i);
		const wrong = { TRANSPORTER: `nats://${nats.address}`, NATS_USER: nats.user, NATS_PASSWORD: `${nats.password}x` };
		expect(await refusal(wrong, "wrong")).toMatch(/authorization violation/i);
	});

	it("runs a service process that joins with the credentials and never logs the password", async () => {
		const port = await freePort();
		// debug: everything Moleculer and our code log about the transporter and its connection.
		const env = {
			SERVICES: "gateway",
			NODE_ID: "gw-auth",
			PORT: String(port),
			NAMESPACE: namespace,
			TRANSPORTER: nats.url,
			NODE_ENV: "test",
		};
		const gateway = startServiceProcess({ ...env, LOG_LEVEL: "debug", LOG_PRETTY: "false" });
		procs.push(gateway);
		const watcher = await joined({ TRANSPORTER: nats.url }, "watcher");
		const onBus = async () => (watcher.registry.nodes.get("gw-auth")?.available ? true : undefined);
		await waitFor("the gateway process on the authenticated bus", onBus, 45_000).catch((e) => {
			throw new Error(`${(e as Error).message}\n${gateway.output()}`);
		});
		await waitFor("the gateway's start-up line", async () => (/listening on/.test(gateway.output()) ? true : undefined), 15_000);
		expect(gateway.output()).toMatch(/transporter: nats:\/\/oms:\*\*\*@127\.0\.0\.1/);
		expect(gateway.output()).not.toContain(nats.password);
	}, 60_000);

	it("a production process refuses to start over NATS without credentials unless told", async () => {
		const prod = {
			NODE_ENV: "production",
			SERVICES: "gateway",
			CURSOR_SECRET: "c".repeat(40),
			OIDC_ISSUER: "https://id.example.com",
			OIDC_JWKS_URL: "https://id.example.com/jwks",
			TRANSPORTER: `nats://${nats.address}`,
			NATS_USER: "",
			NATS_PASSWORD: "",
			DEV_ISSUER: "off",
			PORT: String(await freePort()),
		};
		const p = startServiceProcess(prod);
		procs.push(p);
		const exited = new Promise<number | null>((r) => p.child.once("exit", (c) => r(c)));
		const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("still running after 20 s"), 20_000))]);
		expect(code, p.output().slice(-2000)).toBe(1);
		expect(p.output()).toMatch(/production needs NATS_USER and NATS_PASSWORD/);
		expect(p.output()).toMatch(/NATS_ALLOW_UNAUTHENTICATED=true/);
	}, 30_000);
});

describe("a NATS that also requires TLS", () => {
	let dir: string;
	let tlsNats: NatsServer;

	beforeAll(async () => {
		// A private CA and a server certificate for 127.0.0.1, as cert-manager would issue (the
		// NATS client checks an IP address server under the name localhost).
		dir = mkdtempSync(join(tmpdir(), "oms-nats-tls-"));
		const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
		const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
		ssl("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=oms test CA");
		ssl("req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
		writeFileSync(join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
		ssl(
			"x509",
			"-req",
			"-in",
			"server.csr",
			"-CA",
			"ca.crt",
			"-CAkey",
			"ca.key",
			"-CAcreateserial",
			"-out",
			"server.crt",
			"-days",
			"1",
			"-extfile",
			"san.ext",
		);
		tlsNats = await startNatsServer({ tls: { certFile: join(dir, "server.crt"), keyFile: join(dir, "server.key") } });
	}, 30_000);
	afterAll(async () => {
		await tlsNats?.stop();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("joins over tls:// with the CA that signed the server's certificate", async () => {
		const env = {
			TRANSPORTER: `tls://${tlsNats.address}`,
			NATS_USER: tlsNats.user,
			NATS_PASSWORD: tlsNats.password,
			NATS_TLS_CA_FILE: join(dir, "ca.crt"),
		};
		const a = await joined(env, "tls-a");
		const b = await joined(env, "tls-b");
		await a.waitForServices(["echo-tls-b"], 10_000);
		expect(await a.call("echo-tls-b.hello")).toBe("tls-b");
		expect(b.transit?.connected).toBe(true);
	});

	it("refuses a server whose certificate it cannot verify", async () => {
		const err = await refusal(
			{ TRANSPORTER: `tls://${tlsNats.address}`, NATS_USER: tlsNats.user, NATS_PASSWORD: tlsNats.password },
			"no-ca",
		);
		expect(err).toMatch(/certificate/i);
	});
});
