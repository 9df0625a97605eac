import { resetConfig } from "../shared/config.ts";
import { startCluster } from "./cluster.ts";

// npm run start:cluster: every service as its own process over the local NATS (two gateways
// behind one port, two matching workers), until SIGINT or SIGTERM stops them gracefully.
// PORT (3000) is the round-robin address, the gateways listen on PORT+1 and PORT+2;
// OPS_PORT (9464) is the first process's ops port, the others count up.

const num = (v: string | undefined, dflt: number) => (v ? Number(v) : dflt);
const opsPortBase = num(process.env.OPS_PORT, 9464);
// The supervisor's own broker (it watches the registry) needs no ops port: its children have theirs.
process.env.OPS_PORT = "off";
resetConfig();
const cluster = await startCluster({
	port: num(process.env.PORT, 3000),
	opsPortBase,
	namespace: process.env.NAMESPACE || "oms",
});
process.stderr.write(`cluster: starting ${cluster.members.length} processes (namespace ${cluster.namespace}, ${cluster.transporter})\n${cluster.table()}\n`);

let stopping = false;
const stop = async (signal: string) => {
	if (stopping) return;
	stopping = true;
	process.stderr.write(`cluster: ${signal}: stopping the gateways, then the other processes\n`);
	await cluster.stop();
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
	process.exit(1);
}
