import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { resetConfig } from "../shared/config.ts";
import { dropDatabases } from "../shared/mongo.ts";
import { ROOT } from "../test/support/processes.ts";
import type { ClusterRef } from "../test/support/cluster.ts";
import { startCluster } from "./cluster.ts";

// npm run test:cluster [-- <vitest args>]: starts the cluster (every service its own process,
// two gateways behind one URL, two matching workers) on its own namespace and prefixes, runs
// test/e2e against it (OMS_TEST_CLUSTER; test/support/cluster.ts says which files keep their
// services in-process and why), then stops it and drops its databases. The cluster's logs go
// to .data/cluster-test.log.

// This supervisor's own broker needs no ops port (its children get theirs).
process.env.OPS_PORT = "off";
const run = randomBytes(3).toString("hex");
const mongoPrefix = `tcl${run}`;
const redisPrefix = `oms-tcl-${run}`;
process.env.MONGO_DB_PREFIX = mongoPrefix;
resetConfig();
mkdirSync(resolve(ROOT, ".data"), { recursive: true });
const logFile = resolve(ROOT, ".data/cluster-test.log");
const logStream = createWriteStream(logFile);
const report = resolve(ROOT, `.data/cluster-test-${run}.joined`);

const cluster = await startCluster({
	port: 0,
	opsPortBase: 0,
	namespace: `tcl-${run}`,
	// Over an authenticated NATS of its own, as production runs: the test files join with its credentials.
	ownNats: true,
	log: (l) => logStream.write(`${l}\n`),
	env: {
		NODE_ENV: "test",
		// The test files sign in with ID tokens of the local development issuer.
		DEV_ISSUER: "on",
		LOG_LEVEL: "warn",
		LOG_PRETTY: "false",
		MONGO_DB_PREFIX: mongoPrefix,
		REDIS_PREFIX: redisPrefix,
		// Every test file calls from 127.0.0.1: one shared address budget would be spent by the
		// suite as a whole (each in-process stack has a budget of its own).
		RATE_LIMIT_ANON_POINTS: "1000000",
	},
});
process.stderr.write(`test:cluster: ${cluster.members.length} processes\n${cluster.table()}\n`);
let code = 1;
try {
	await cluster.ready();
	process.stderr.write(`test:cluster: ready on ${cluster.url}; running test/e2e against it\n`);
	const ref: ClusterRef = {
		url: cluster.url,
		transporter: cluster.transporter,
		namespace: cluster.namespace,
		mongoPrefix,
		redisPrefix,
		report,
	};
	const args = process.argv.slice(2);
	code = await new Promise<number>((res) => {
		// One file at a time: nine service processes, FerretDB and the files' own stacks share two
		// cores, and two files at once left each waiting on the other's background work.
		const vitest = spawn(
			process.execPath,
			["node_modules/vitest/vitest.mjs", "run", "--no-file-parallelism", ...(args.length ? args : ["test/e2e"])],
			{
				cwd: ROOT,
				stdio: "inherit",
				env: { ...process.env, OMS_TEST_CLUSTER: JSON.stringify(ref), OPS_PORT: "0" },
			},
		);
		vitest.on("exit", (c) => res(c ?? 1));
	});
	const joined = existsSync(report) ? readFileSync(report, "utf8").split("\n").filter(Boolean).sort() : [];
	const all = readdirSync(resolve(ROOT, "test/e2e")).filter((f) => f.endsWith(".test.ts"));
	process.stderr.write(`test:cluster: against the cluster: ${joined.join(", ") || "none"}\n`);
	process.stderr.write(`test:cluster: services in their own process: ${all.filter((f) => !joined.includes(f)).join(", ")}\n`);
	const restarts = cluster.members.filter((m) => m.restarts > 0).map((m) => `${m.id} (${m.restarts})`);
	process.stderr.write(`test:cluster: process restarts during the run: ${restarts.join(", ") || "none"}; logs in ${logFile}\n`);
} finally {
	await cluster.stop();
	rmSync(report, { force: true });
	await dropDatabases(mongoPrefix);
	logStream.end();
}
process.exit(code);
