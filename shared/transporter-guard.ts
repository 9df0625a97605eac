import { Errors, type Middleware, type ServiceBroker } from "moleculer";

// While the NATS connection is down, Moleculer keeps the remote nodes registered (until their
// heartbeats time out) and the NATS client buffers what is published until it reconnects, so
// a call to another process would wait for its full timeout, and might even run after its
// caller gave up. This middleware makes remote calls fail at once with BrokerDisconnectedError
// (503 at the gateway) while the client is disconnected; the client reconnects by itself
// (maxReconnectAttempts -1), and calls go through again from its "reconnect" event on.

interface NatsStatus {
	type: string;
}
interface NatsClientLike {
	status(): AsyncIterable<NatsStatus>;
	isClosed(): boolean;
}

/** A middleware factory (Moleculer calls it with the broker): state per broker. */
export const FailFastWhileDisconnected = ((broker: ServiceBroker) => {
	let disconnected = false;
	return {
		name: "FailFastWhileDisconnected",
		started() {
			const client = (broker.transit as unknown as { tx?: { client?: NatsClientLike } } | undefined)?.tx?.client;
			if (!client || typeof client.status !== "function") return; // no transporter, or not NATS
			void (async () => {
				for await (const s of client.status()) {
					if (s.type === "disconnect") {
						disconnected = true;
						broker.logger.warn("transporter disconnected: calls to other nodes fail fast until it reconnects");
					} else if (s.type === "reconnect") {
						disconnected = false;
						broker.logger.info("transporter reconnected");
					}
				}
			})().catch(() => undefined);
		},
		remoteAction(next: (ctx: any) => Promise<unknown>) {
			return (ctx: any) =>
				disconnected ? Promise.reject(new (Errors.BrokerDisconnectedError as unknown as new () => Error)()) : next(ctx);
		},
	} as unknown as Middleware;
}) as unknown as Middleware;
