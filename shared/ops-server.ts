import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Middleware, ServiceBroker } from "moleculer";
import type { Config } from "./config.ts";
import { renderMetrics } from "./metrics.ts";
import { checkReadiness } from "./readiness.ts";

// Every process's operations port (OPS_PORT), whatever services it runs: what an orchestrator
// probes and Prometheus scrapes. Nothing here is the API; it answers no one's data.
//   GET /healthz  200 while the broker runs (liveness)
//   GET /readyz   200 while every backing service this process uses answers, else 503 naming them
//   GET /metrics  Prometheus text

const servers = new WeakMap<ServiceBroker, Server>();

/** The port the broker's ops server listens on (tests start it on a free one). */
export function opsPort(broker: ServiceBroker): number | undefined {
	return (servers.get(broker)?.address() as AddressInfo | null)?.port;
}

function send(res: ServerResponse, status: number, body: string, type = "application/json; charset=utf-8"): void {
	res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
	res.end(body);
}

async function handle(broker: ServiceBroker, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const path = (req.url ?? "/").split("?")[0];
	if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, JSON.stringify({ status: "method_not_allowed" }));
	const running = broker.started && !broker.stopping;
	switch (path) {
		case "/healthz":
			return send(
				res,
				running ? 200 : 503,
				JSON.stringify({ status: running ? "ok" : "stopped", nodeID: broker.nodeID, uptime: Math.round(process.uptime()) }),
			);
		case "/readyz": {
			if (!running)
				return send(
					res,
					503,
					JSON.stringify({ status: "unavailable", checks: { broker: { status: "down", error: "not started or stopping" } } }),
				);
			const r = await checkReadiness(broker);
			return send(res, r.ready ? 200 : 503, JSON.stringify({ status: r.ready ? "ready" : "unavailable", checks: r.checks }));
		}
		case "/metrics":
			return send(res, 200, await renderMetrics(broker), "text/plain; version=0.0.4; charset=utf-8");
		default:
			return send(res, 404, JSON.stringify({ status: "not_found", endpoints: ["/healthz", "/readyz", "/metrics"] }));
	}
}

function listen(server: Server, port: number, host: string): Promise<void> {
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(port, host, () => {
			server.off("error", reject);
			resolve();
		});
	});
}

/**
 * The ops server as a broker middleware: listening from the moment the broker starts (so a
 * taken port fails the start before any service runs), closed once it has stopped.
 */
export function opsServerMiddleware(c: Config): Middleware {
	return {
		name: "OpsServer",
		async starting(broker: ServiceBroker) {
			if (c.OPS_PORT === "off") return;
			const server = createServer((req, res) => {
				handle(broker, req, res).catch((e) => {
					broker.logger.warn("ops endpoint failed", e);
					if (!res.headersSent) send(res, 500, JSON.stringify({ status: "error" }));
					else res.end();
				});
			});
			try {
				await listen(server, c.OPS_PORT, c.HOST);
			} catch (e) {
				throw new Error(
					`The ops server cannot listen on ${c.HOST}:${c.OPS_PORT} (${(e as Error).message}); set OPS_PORT to a free port, 0 for any, or off`,
				);
			}
			servers.set(broker, server);
			broker.getLogger("ops").info(`Ops server on http://${c.HOST}:${opsPort(broker)} (/healthz, /readyz, /metrics)`);
		},
		async stopped(broker: ServiceBroker) {
			const server = servers.get(broker);
			if (!server) return;
			servers.delete(broker);
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	} as Middleware;
}
