import { config } from "../shared/config.ts";
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
const broker = createBroker(services);

let stopping = false;
async function shutdown(signal: string) {
	if (stopping) return;
	stopping = true;
	broker.logger.info(`${signal}: draining and stopping`);
	await broker.stop().catch((e) => broker.logger.error(e));
	process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

try {
	await broker.start();
	if (c.SERVICES === "all" || c.SERVICES.split(",").includes("gateway")) {
		broker.logger.info(`Opportunity Matching Service listening on http://${c.HOST}:${c.PORT}/api/v1 (services: ${c.SERVICES}, transporter: ${c.TRANSPORTER || "none"})`);
	}
} catch (e) {
	broker.logger.fatal(e);
	await broker.stop().catch(() => undefined);
	process.exit(1);
}
