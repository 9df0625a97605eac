import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";

// Running services (or the CLI) as their own processes, as production does.

export const ROOT = resolve(import.meta.dirname, "../..");
const NODE = resolve(ROOT, "node_modules/.bin/node");

export async function freePort(): Promise<number> {
	return new Promise((res, rej) => {
		const s = createServer();
		s.once("error", rej);
		s.listen(0, "127.0.0.1", () => {
			const port = (s.address() as { port: number }).port;
			s.close(() => res(port));
		});
	});
}

export interface ServiceProcess {
	child: ChildProcess;
	output(): string;
	stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The NATS to join unless told otherwise: TRANSPORTER, else NATS_URL, else the local server. */
export const localTransporter = (): string => process.env.TRANSPORTER || process.env.NATS_URL || "nats://127.0.0.1:4222";

/**
 * Environment of a service process that joins this test file's processes over NATS: its own
 * namespace, and the file's databases and Redis prefix.
 */
export function natsProcessEnv(extra: Record<string, string> = {}): Record<string, string> {
	return {
		TRANSPORTER: localTransporter(),
		NAMESPACE: `t-${randomBytes(4).toString("hex")}`,
		MONGO_DB_PREFIX: process.env.MONGO_DB_PREFIX!,
		REDIS_PREFIX: process.env.REDIS_PREFIX!,
		NODE_ENV: "test",
		...extra,
	};
}

/** Output kept per process for failure reports (the tail; a long-running cluster must not grow without bound). */
const OUTPUT_KEPT = 256 * 1024;

export function startServiceProcess(env: Record<string, string>, onOutput?: (chunk: string) => void): ServiceProcess {
	let out = "";
	const child = spawn(NODE, ["--import", "tsx", "services/main.ts"], {
		cwd: ROOT,
		env: { ...process.env, ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	const take = (d: Buffer) => {
		out = (out + d).slice(-OUTPUT_KEPT);
		onOutput?.(d.toString());
	};
	child.stdout!.on("data", take);
	child.stderr!.on("data", take);
	return {
		child,
		output: () => out,
		stop: (signal = "SIGTERM") =>
			new Promise((r) => {
				if (child.exitCode !== null || child.signalCode !== null) return r();
				child.once("exit", () => r());
				child.kill(signal);
			}),
	};
}

/** Runs `npm run -s cli -- <args>` the way a developer does (through Node 24); resolves its stdout. */
export function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((res) => {
		const child = spawn(NODE, ["--import", "tsx", "scripts/cli.ts", ...args], {
			cwd: ROOT,
			env: { ...process.env, ...env },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (d) => (stdout += d));
		child.stderr.on("data", (d) => (stderr += d));
		child.on("exit", (code) => res({ code: code ?? -1, stdout, stderr }));
	});
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
	const end = Date.now() + timeoutMs;
	let last: unknown;
	while (Date.now() < end) {
		try {
			const v = await fn();
			if (v !== undefined) return v;
		} catch (e) {
			last = e;
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}
