// The image's HEALTHCHECK (plain JavaScript: it runs without tsx, quickly, every 15 s).
// A process that runs the gateway is healthy when the API answers GET /healthz on PORT; any
// other process when its ops server (OPS_PORT, every process has one) answers GET /healthz,
// which reports that its broker is running. Exit 0 = healthy, 1 = unhealthy (Docker's meaning).

const services = (process.env.SERVICES || "all").split(",").map((s) => s.trim());
const runsGateway = services.includes("all") || services.includes("gateway");
const port = runsGateway ? process.env.PORT || "3000" : process.env.OPS_PORT || "9464";

try {
	const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
	process.exit(res.ok ? 0 : 1);
} catch {
	process.exit(1);
}
