import { createConnection, createServer, type Server, type Socket } from "node:net";

// One address for the cluster's gateways: a TCP proxy that hands each new client connection
// to the next gateway in turn. A gateway that refuses the connection (stopped, restarting) is
// skipped, so clients see one URL and only lose the requests in flight on a gateway that dies.
// It forwards bytes, nothing else (no HTTP parsing): each gateway still sees every request.

export interface RoundRobinProxy {
	server: Server;
	port: number;
	/** Connections handed to each backend port so far. */
	counts: Map<number, number>;
	close(): Promise<void>;
}

export async function startRoundRobinProxy(port: number, backends: () => number[], host = "127.0.0.1"): Promise<RoundRobinProxy> {
	let next = 0;
	const counts = new Map<number, number>();
	const sockets = new Set<Socket>();

	const connect = (client: Socket, tried: Set<number>) => {
		const ports = backends().filter((p) => !tried.has(p));
		if (!ports.length) return client.destroy();
		const target = ports[next++ % ports.length]!;
		tried.add(target);
		const upstream = createConnection({ port: target, host: "127.0.0.1" });
		sockets.add(upstream);
		upstream.once("close", () => sockets.delete(upstream));
		upstream.once("error", () => {
			// Refused before any byte went through: try the next gateway for this client.
			if (!upstream.bytesWritten && !client.destroyed) connect(client, tried);
			else client.destroy();
		});
		upstream.once("connect", () => {
			counts.set(target, (counts.get(target) ?? 0) + 1);
			upstream.removeAllListeners("error");
			upstream.on("error", () => client.destroy());
			client.on("error", () => upstream.destroy());
			client.pipe(upstream);
			upstream.pipe(client);
			client.resume();
		});
	};

	const server = createServer({ pauseOnConnect: true }, (client) => {
		sockets.add(client);
		client.once("close", () => sockets.delete(client));
		client.on("error", () => undefined);
		connect(client, new Set());
	});
	await new Promise<void>((res, rej) => {
		server.once("error", rej);
		server.listen(port, host, () => res());
	});
	return {
		server,
		port: (server.address() as { port: number }).port,
		counts,
		close: () =>
			new Promise<void>((res) => {
				for (const s of sockets) s.destroy();
				server.close(() => res());
			}),
	};
}
