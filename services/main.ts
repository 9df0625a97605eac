import { config } from "../shared/config.ts";
import { createBroker } from "../shared/broker.ts";
import { selectServices } from "./registry.ts";

// One entry for every deployment shape: all services in one process (the default, no
// transporter), or the SERVICES subset over TRANSPORTER=nats://... as its own process.

const c = config();
const broker = createBroker(selectServices(c.SERVICES));

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
