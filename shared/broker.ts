import { ServiceBroker, type BrokerOptions, type ServiceSchema } from "moleculer";
import { config, natsSettings, type Config } from "./config.ts";
import { loggerConfig } from "./logger.ts";
import { CallWatchdog } from "./call-watchdog.ts";
import { opsServerMiddleware } from "./ops-server.ts";
import { PromiseGuard } from "./promise-guard.ts";
import { closeProducers } from "./queue.ts";
import { RequestContextMiddleware } from "./request-context.ts";
import { FailFastWhileDisconnected } from "./transporter-guard.ts";
import { ZodValidator } from "./validation.ts";

/**
 * Retried calls are those that certainly never reached a handler: the node went away before
 * taking it, or its bulkhead queue was full. A timeout or a server error may come from a call
 * that ran (a write done, its answer lost), so it is never replayed, whatever Moleculer's
 * `retryable` says; the caller sees 503 and decides.
 */
const NEVER_STARTED = new Set(["ServiceNotAvailableError", "QueueIsFullError"]);
export const retryableCall = (err: unknown): boolean => NEVER_STARTED.has((err as { name?: string } | null)?.name ?? "");

/**
 * The transporter Moleculer gets: for NATS an options object, so the credentials travel as the
 * client's user and pass (percent-decoded, and never part of a URL something might print) and
 * TLS is required where configured. Moleculer's own URL parsing would keep neither.
 */
function transporterOption(t: string | BrokerOptions["transporter"] | undefined, c: Config): BrokerOptions["transporter"] {
	if (typeof t !== "string") return t ?? null;
	if (!t) return null;
	const nats = natsSettings(t, c);
	return (nats ? { type: "NATS", options: nats } : t) as BrokerOptions["transporter"];
}

/**
 * One broker configuration for every process: in-process (no transporter) by default,
 * NATS when TRANSPORTER is set. Failure handling is on so a dead node is noticed fast.
 * A transporter URL among the overrides (a supervisor's or a test's broker) is read the same way.
 */
export function brokerOptions(c: Config = config(), overrides: Partial<BrokerOptions> = {}): BrokerOptions {
	const { transporter, ...rest } = overrides;
	return {
		namespace: c.NAMESPACE,
		nodeID: c.NODE_ID || undefined,
		transporter: transporterOption("transporter" in overrides ? transporter : c.TRANSPORTER, c),
		logger: loggerConfig(c),
		validator: false,
		// Queue producers are shared by a process's services: closed once, when its broker stops.
		// PromiseGuard last: it wraps the others, so nothing below the bulkhead throws synchronously;
		// CallWatchdog (readiness fails on a call stuck in flight) gets a promise from every call.
		middlewares: [
			ZodValidator,
			{ name: "QueueProducers", stopped: () => closeProducers() },
			FailFastWhileDisconnected,
			RequestContextMiddleware,
			opsServerMiddleware(c),
			CallWatchdog,
			PromiseGuard,
		],
		// Rendered by the ops server's GET /metrics (shared/metrics.ts), not by a reporter of its own.
		metrics: { enabled: true, reporter: null },
		requestTimeout: c.REQUEST_TIMEOUT_MS,
		retryPolicy: { enabled: true, retries: 2, delay: 100, maxDelay: 1000, factor: 2, check: retryableCall },
		circuitBreaker: { enabled: true, threshold: 0.5, minRequestCount: 20, windowTime: 60, halfOpenTime: 10_000 },
		bulkhead: { enabled: true, concurrency: 50, maxQueueSize: 500 },
		heartbeatInterval: 5,
		heartbeatTimeout: 15,
		tracking: { enabled: true, shutdownTimeout: 10_000 },
		errorRegenerator: undefined,
		...rest,
	};
}

export type AnyServiceSchema = ServiceSchema<any, any, any, any>;

export function createBroker(services: AnyServiceSchema[], overrides: Partial<BrokerOptions> = {}): ServiceBroker {
	const broker = new ServiceBroker(brokerOptions(config(), overrides));
	for (const s of services) broker.createService(s);
	return broker;
}
