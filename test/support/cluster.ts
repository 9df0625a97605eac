import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { BrokerOptions } from "moleculer";
import { expect } from "vitest";
import { createBroker } from "../../shared/broker.ts";
import { config, resetConfig } from "../../shared/config.ts";
import { startCluster, type Cluster, type ClusterOptions } from "../../scripts/cluster.ts";
import { freePort, waitFor } from "./processes.ts";
import type { Stack } from "./stack.ts";

// Tests and the cluster: (1) the e2e suite against a running cluster (`npm run test:cluster`,
// scripts/cluster-test.ts): OMS_TEST_CLUSTER describes it, and startStack() joins it instead
// of starting services here; (2) clusters and private NATS and Redis servers for the fault
// tests, which stop and kill them (never the shared servers other tests use).

/** What OMS_TEST_CLUSTER holds (JSON). */
export interface ClusterRef {
	url: string;
	transporter: string;
	namespace: string;
	mongoPrefix: string;
	redisPrefix: string;
	/** A file each test file that joins the cluster appends its name to. */
	report?: string;
}

/**
 * Test files that need their services in their own process even when a cluster is given, and
 * why. Files that pass broker options or change the environment (their own settings) keep
 * theirs in-process anyway.
 */
export const IN_PROCESS_ONLY: Record<string, string> = {
	"ask.test.ts": "sets ASK_RATE_PER_MINUTE for its ask service and counts to its limit",
	"ask-llm.test.ts": "points its ask service at a fake LLM (LLM_* settings)",
	"digest-delivery.test.ts": "its own SMTP server (SMTP_URL) and the notifications service's models",
	"feed-pollers.test.ts": "its own FEEDS and the opportunities service's models",
	"ops-endpoints.test.ts": "its own Redis (REDIS_URL) and the ops server of its own broker",
	"indexing-lanes.test.ts": "reads its own product-index queue, opened before the stack starts, and counts its whole backlog",
	"ingestion.test.ts":
		"counts what ingesting the dev set creates; notices are shared by every company, and other files' notices would be counted too",
	"auth-queries.test.ts": "counts the queries of its own auth-keys service's database connection",
	"matching-pipeline.test.ts":
		"asserts on everything its company is matched to; in the cluster, the notices of other files (the same switch model) would be matched too",
};

let joined = false;

// The environment before the test file's own code ran (test/support/env.ts keeps it): a file that
// changes it configures services of its own, which the cluster's processes would not see.
const envAtLoad = (globalThis as { omsEnvAtStart?: NodeJS.ProcessEnv }).omsEnvAtStart ?? { ...process.env };
const changedEnv = () =>
	[...new Set([...Object.keys(envAtLoad), ...Object.keys(process.env)])].filter(
		(k) => !k.startsWith("VITEST") && envAtLoad[k] !== process.env[k],
	);

/** The cluster this test file runs against, if any. */
export function clusterForThisFile(): ClusterRef | null {
	const raw = process.env.OMS_TEST_CLUSTER;
	if (!raw) return null;
	const file = basename(expect.getState().testPath ?? "");
	if (!file || file in IN_PROCESS_ONLY || changedEnv().length) return null;
	return JSON.parse(raw) as ClusterRef;
}

/** True once this test process uses a cluster's databases (which are not its to drop). */
export const joinedCluster = () => joined;

/**
 * A stack whose services are the cluster's: a service-less broker in the cluster's namespace
 * (stack.broker.call reaches them over NATS), and its URL. The process's database and Redis
 * prefixes become the cluster's, so helpers that read queues or collections see the cluster's.
 */
export async function joinCluster(ref: ClusterRef): Promise<Stack> {
	process.env.MONGO_DB_PREFIX = ref.mongoPrefix;
	process.env.REDIS_PREFIX = ref.redisPrefix;
	resetConfig();
	joined = true;
	const stack = await stackOn(ref, ["auth-keys", "opportunities", "catalog", "matching", "notifications", "ask"]);
	if (ref.report) appendFileSync(ref.report, `${basename(expect.getState().testPath ?? "?")}\n`);
	return stack;
}

/** A Stack over a cluster's URL and services: a service-less broker in its namespace, once `services` are there. */
export async function stackOn(c: Pick<ClusterRef, "url" | "transporter" | "namespace">, services: string[]): Promise<Stack> {
	const broker = createBroker([], {
		transporter: c.transporter as BrokerOptions["transporter"],
		namespace: c.namespace,
		logger: false,
		skipProcessEventRegistration: true,
	});
	await broker.start();
	await broker.waitForServices(services, 60_000);
	return { broker, url: c.url, stop: () => broker.stop() };
}

/** A cluster for one test file: its own namespace, the file's database and Redis prefixes, free ports, logs kept. */
export async function testCluster(o: ClusterOptions = {}): Promise<Cluster & { logs: string[] }> {
	const logs: string[] = [];
	const c = config();
	const cluster = await startCluster({
		port: 0,
		opsPortBase: 0,
		restart: true,
		stopGraceMs: 15_000,
		log: (l) => {
			logs.push(l);
			if (logs.length > 5000) logs.splice(0, 1000);
		},
		...o,
		env: {
			MONGO_DB_PREFIX: c.MONGO_DB_PREFIX,
			REDIS_PREFIX: c.REDIS_PREFIX,
			REDIS_URL: c.REDIS_URL,
			LOG_LEVEL: "warn",
			NODE_ENV: "test",
			...(o.env ?? {}),
		},
	});
	return Object.assign(cluster, { logs });
}

export interface PrivateServer {
	url: string;
	port: number;
	/** Stops it (SIGTERM, waits for the exit). */
	stop(): Promise<void>;
	/** Starts it again on the same port. */
	start(): Promise<void>;
}

async function privateServer(
	what: string,
	scheme: string,
	args: (port: number, dir: string) => [string, string[]],
	answers: (port: number) => Promise<boolean>,
): Promise<PrivateServer> {
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), `oms-${what}-`));
	let child: ChildProcess | undefined;
	const server: PrivateServer = {
		url: `${scheme}://127.0.0.1:${port}`,
		port,
		async start() {
			const [cmd, argv] = args(port, dir);
			child = spawn(cmd, argv, { stdio: "ignore" });
			await waitFor(`the test's ${what} on ${port}`, async () => ((await answers(port)) ? true : undefined), 15_000);
		},
		async stop() {
			const c = child;
			if (!c || c.exitCode !== null || c.signalCode !== null) return;
			await new Promise<void>((r) => {
				c.once("exit", () => r());
				c.kill("SIGTERM");
			});
		},
	};
	await server.start();
	process.once("exit", () => {
		child?.kill("SIGKILL");
		rmSync(dir, { recursive: true, force: true });
	});
	return server;
}

const tcpAnswers = (port: number) =>
	new Promise<boolean>((res) => {
		import("node:net").then(({ createConnection }) => {
			const s = createConnection({ port, host: "127.0.0.1" });
			s.once("connect", () => (s.destroy(), res(true)));
			s.once("error", () => res(false));
		});
	});

/** A nats-server of this test alone (the shared one on 4222 is never stopped). */
export const privateNats = () =>
	privateServer(
		"nats",
		"nats",
		(port, dir) => ["/usr/sbin/nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir]],
		tcpAnswers,
	);

/** A redis-server of this test alone, persisting to its folder so a restart keeps the queues, as a real one would. */
export const privateRedis = () =>
	privateServer(
		"redis",
		"redis",
		(port, dir) => [
			"/usr/bin/redis-server",
			["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes"],
		],
		tcpAnswers,
	);
