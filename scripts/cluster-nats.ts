import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { freePort, waitFor } from "../test/support/processes.ts";

// A nats-server of its own, with authorization: `npm run start:cluster` and `npm run
// test:cluster` run their processes over one, so the bus between them is authenticated as in
// production, whatever the machine's shared NATS (no authorization, port 4222) allows; the bus
// tests start one too. The user and a random password go into a configuration file readable
// only by this user (never onto a command line, which every local user can read), together
// with deploy/nats/nats.conf's settings; the processes get them in their environment.

const NATS_CONF = resolve(import.meta.dirname, "../deploy/nats/nats.conf");
const USER = "oms";

export interface NatsServer {
	/** nats://oms:<password>@127.0.0.1:<port> (tls:// when it requires TLS): for TRANSPORTER. */
	url: string;
	/** host:port, without credentials. */
	address: string;
	port: number;
	user: string;
	password: string;
	/** Stops it (SIGTERM, then waits for the exit) and removes its files. */
	stop(): Promise<void>;
}

export interface NatsServerOptions {
	/** Default: a free port on 127.0.0.1. */
	port?: number;
	/** Require TLS with this certificate (clients then need tls:// and the CA). */
	tls?: { certFile: string; keyFile: string };
}

/** nats-server on PATH or where Debian's package puts it. */
function natsServerBinary(): string {
	const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin", "/usr/local/bin"];
	for (const d of dirs.filter(Boolean)) {
		try {
			accessSync(join(d, "nats-server"), constants.X_OK);
			return join(d, "nats-server");
		} catch {
			/* not here */
		}
	}
	throw new Error(
		"nats-server is not installed: `sudo apt-get install -y nats-server` (or set TRANSPORTER to a NATS server that requires credentials)",
	);
}

/** NATS configuration strings are quoted like JSON strings. */
const quoted = (s: string) => JSON.stringify(s);

export async function startNatsServer(o: NatsServerOptions = {}): Promise<NatsServer> {
	const bin = natsServerBinary();
	const port = o.port ?? (await freePort());
	// Letters first: NATS reads an unquoted value that looks like a number as one; quoted anyway.
	const password = `p${randomBytes(24).toString("base64url")}`;
	const dir = mkdtempSync(join(tmpdir(), "oms-nats-"));
	const conf = join(dir, "nats.conf");
	const lines = [
		"# Written by scripts/cluster-nats.ts for one run; removed when it stops.",
		readFileSync(NATS_CONF, "utf8"),
		`listen: ${quoted(`127.0.0.1:${port}`)}`,
		`authorization { user: ${quoted(USER)}, password: ${quoted(password)} }`,
	];
	if (o.tls) lines.push(`tls { cert_file: ${quoted(resolve(o.tls.certFile))}, key_file: ${quoted(resolve(o.tls.keyFile))} }`);
	writeFileSync(conf, `${lines.join("\n")}\n`, { mode: 0o600 });

	let output = "";
	const child: ChildProcess = spawn(bin, ["-c", conf], { stdio: ["ignore", "pipe", "pipe"] });
	const keep = (d: Buffer) => (output = (output + d).slice(-8192));
	child.stdout!.on("data", keep);
	child.stderr!.on("data", keep);
	const kill = () => child.kill("SIGKILL");
	process.once("exit", kill);
	const cleanup = () => {
		process.off("exit", kill);
		rmSync(dir, { recursive: true, force: true });
	};

	const address = `127.0.0.1:${port}`;
	try {
		await waitFor(
			`nats-server on ${address}`,
			async () => {
				if (child.exitCode !== null)
					throw new Error(`nats-server exited (${child.exitCode}): ${output.trim().split("\n").slice(-3).join(" | ")}`);
				return /Server is ready/.test(output) ? true : undefined;
			},
			15_000,
		);
	} catch (e) {
		child.kill("SIGKILL");
		cleanup();
		throw e;
	}
	const scheme = o.tls ? "tls" : "nats";
	return {
		url: `${scheme}://${USER}:${password}@${address}`,
		address,
		port,
		user: USER,
		password,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) {
				await new Promise<void>((r) => {
					child.once("exit", () => r());
					child.kill("SIGTERM");
				});
			}
			cleanup();
		},
	};
}
