import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { config, resetConfig, withoutCredentials } from "../shared/config.ts";
import { ROOT } from "../test/support/processes.ts";
import { startCluster } from "./cluster.ts";

// npm run start:cluster: every service as its own process (two gateways behind one port, two
// matching workers), until SIGINT or SIGTERM stops them gracefully. They talk over a NATS of
// the cluster's own that requires a generated user and password, as production's does (the
// machine's shared NATS takes anyone), unless TRANSPORTER names a NATS to use instead.
// PORT (3000) is the round-robin address, the gateways listen on PORT+1 and PORT+2;
// OPS_PORT (9464) is the first process's ops port, the others count up.

/** Where a developer finds the bus's URL, password included, to join it (bench:load --url, a CLI). */
const TRANSPORTER_FILE = resolve(ROOT, ".data/cluster-transporter");

const num = (v: string | undefined, dflt: number) => (v ? Number(v) : dflt);
const opsPortBase = num(process.env.OPS_PORT, 9464);
// The supervisor's own broker (it watches the registry) needs no ops port: its children have theirs.
process.env.OPS_PORT = "off";
resetConfig();
const cluster = await startCluster({
	port: num(process.env.PORT, 3000),
	opsPortBase,
	namespace: process.env.NAMESPACE || "oms",
	ownNats: !config().TRANSPORTER,
});
let bus = withoutCredentials(cluster.transporter);
if (cluster.nats) {
	mkdirSync(dirname(TRANSPORTER_FILE), { recursive: true });
	writeFileSync(TRANSPORTER_FILE, `${cluster.transporter}\n`, { mode: 0o600 });
	bus += `, the cluster's own NATS: user ${cluster.nats.user}, URL with the password in ${TRANSPORTER_FILE}`;
}
process.stderr.write(
	`cluster: starting ${cluster.members.length} processes (namespace ${cluster.namespace}, ${bus})\n${cluster.table()}\n`,
);

let stopping = false;
const stop = async (signal: string) => {
	if (stopping) return;
	stopping = true;
	process.stderr.write(`cluster: ${signal}: stopping the gateways, then the other processes\n`);
	await cluster.stop();
	if (cluster.nats) rmSync(TRANSPORTER_FILE, { force: true });
	process.stderr.write("cluster: stopped\n");
	process.exit(0);
};
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));

try {
	await cluster.ready();
	process.stderr.write(`cluster: ready on ${cluster.url}/api/v1 (gateways ${cluster.gatewayUrls.join(", ")})\n`);
} catch (e) {
	process.stderr.write(`cluster: ${(e as Error).message}\n`);
	await cluster.stop();
	if (cluster.nats) rmSync(TRANSPORTER_FILE, { force: true });
	process.exit(1);
}
