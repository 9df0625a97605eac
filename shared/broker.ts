import { ServiceBroker, type BrokerOptions, type ServiceSchema } from "moleculer";
import { config, type Config } from "./config.ts";
import { loggerConfig } from "./logger.ts";
import { closeProducers } from "./queue.ts";
import { ZodValidator } from "./validation.ts";

/**
 * One broker configuration for every process: in-process (no transporter) by default,
 * NATS when TRANSPORTER is set. Failure handling is on so a dead node is noticed fast.
 */
export function brokerOptions(c: Config = config(), overrides: Partial<BrokerOptions> = {}): BrokerOptions {
	return {
		namespace: c.NAMESPACE,
		nodeID: c.NODE_ID || undefined,
		transporter: (c.TRANSPORTER || null) as BrokerOptions["transporter"],
		logger: loggerConfig(c),
		validator: false,
		// Queue producers are shared by a process's services: closed once, when its broker stops.
		middlewares: [ZodValidator, { name: "QueueProducers", stopped: () => closeProducers() }],
		requestTimeout: c.REQUEST_TIMEOUT_MS,
		retryPolicy: { enabled: true, retries: 2, delay: 100, maxDelay: 1000, factor: 2, check: (err: any) => !!err?.retryable },
		circuitBreaker: { enabled: true, threshold: 0.5, minRequestCount: 20, windowTime: 60, halfOpenTime: 10_000 },
		bulkhead: { enabled: true, concurrency: 50, maxQueueSize: 500 },
		heartbeatInterval: 5,
		heartbeatTimeout: 15,
		tracking: { enabled: true, shutdownTimeout: 10_000 },
		errorRegenerator: undefined,
		...overrides,
	};
}

export type AnyServiceSchema = ServiceSchema<any, any, any, any>;

export function createBroker(services: AnyServiceSchema[], overrides: Partial<BrokerOptions> = {}): ServiceBroker {
	const broker = new ServiceBroker(brokerOptions(config(), overrides));
	for (const s of services) broker.createService(s);
	return broker;
}
