import type { Server } from "node:http";
import { config, withoutCredentials } from "../shared/config.ts";
import { createBroker } from "../shared/broker.ts";

// One entry for every deployment shape: all services in one process (the default, no
// transporter), or the SERVICES subset over TRANSPORTER=nats://... as its own process.

// Configuration is checked before the service modules load (they read it as they load).
let c: ReturnType<typeof config>;
let services: import("../shared/broker.ts").AnyServiceSchema[];
try {
	c = config();
	services = (await import("./registry.ts")).selectServices(c.SERVICES);
} catch (e) {
	// A configuration mistake is the operator's to fix: say what it is, without a stack trace.
	process.stderr.write(`${(e as Error).message}\n`);
	process.exit(1);
}
// Our own signal handlers below, not Moleculer's too: two would run broker.stop twice at once.
const broker = createBroker(services, { skipProcessEventRegistration: true });

/** How long a stop may take in all (the broker waits up to its tracking timeout for calls in flight). */
const STOP_DEADLINE_MS = 30_000;

let stopping = false;
async function shutdown(signal: string) {
	if (stopping) return;
	stopping = true;
	broker.logger.info(`${signal}: draining and stopping`);
	setTimeout(() => {
		broker.logger.error(`still stopping after ${STOP_DEADLINE_MS} ms: exiting`);
		process.exit(1);
	}, STOP_DEADLINE_MS).unref();
	// The gateway stops accepting connections first (idle keep-alive ones are closed as they go
	// idle), so no new request arrives while the ones in flight finish. broker.stop then empties
	// this node's service list for the other nodes, waits for the calls in flight (tracking), and
	// stops the services: queue workers finish their active job before the databases close.
	const server = (broker.getLocalService("gateway") as unknown as { server?: Server } | undefined)?.server;
	let idle: NodeJS.Timeout | undefined;
	if (server?.listening) {
		server.close();
		idle = setInterval(() => server.closeIdleConnections(), 200);
	}
	await broker.stop().catch((e) => broker.logger.error(e));
	clearInterval(idle);
	process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

try {
	await broker.start();
	if (c.SERVICES === "all" || c.SERVICES.split(",").includes("gateway")) {
		// The transporter URL may carry the NATS password: logged masked.
		const transporter = withoutCredentials(c.TRANSPORTER) || "none";
		broker.logger.info(
			`Opportunity Matching Service listening on http://${c.HOST}:${c.PORT}/api/v1 (services: ${c.SERVICES}, transporter: ${transporter})`,
		);
	}
} catch (e) {
	broker.logger.fatal(e);
	await broker.stop().catch(() => undefined);
	process.exit(1);
}
