import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { cli, freePort, startServiceProcess, waitFor } from "../test/support/processes.ts";

// npm run bench:gateway [-- --duration 10 --connections 20]
// Starts the whole service (one process, its defaults but a free port and a bench-sized
// rate budget), then measures an authenticated GET /api/v1/me with an API key against a
// bare moleculer-web route (/healthz: no auth, no database) in the same run. Where the
// MongoDB stand-in is FerretDB, the authenticated figure is bound by its query rate.

const arg = (name: string, dflt: number) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const duration = arg("duration", 10);
const connections = arg("connections", 20);

const port = await freePort();
// DEV_ISSUER: the benchmark signs in through the local development issuer (dev:token).
const env = {
	PORT: String(port),
	DEV_ISSUER: "on",
	LOG_LEVEL: "warn",
	RATE_LIMIT_POINTS: "100000000",
	MONGO_DB_PREFIX: `bench${randomBytes(3).toString("hex")}`,
	REDIS_PREFIX: `oms-bench-${randomBytes(3).toString("hex")}`,
};
const server = startServiceProcess(env);
const base = `http://127.0.0.1:${port}`;

try {
	await waitFor("the service to start", async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 60_000);
	const email = `bench-${Date.now()}@example.com`;
	const tenant = await cli(["tenant:create", "--name", "Bench Co", "--owner", email], env);
	if (tenant.code !== 0) throw new Error(tenant.stderr);
	const token = (await cli(["dev:token", "--email", email], env)).stdout.trim();
	const session = await fetch(`${base}/api/v1/session`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
	const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
	const created = await fetch(`${base}/api/v1/api-keys`, { method: "POST", headers: { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" }, body: JSON.stringify({ name: "bench", scopes: ["opportunities:read"] }) });
	const { secret } = (await created.json()) as { secret: string };

	const run = async (title: string, path: string, headers: Record<string, string>) => {
		// A short warm-up so JIT and connection pools are settled before measuring.
		await autocannon({ url: `${base}${path}`, headers, connections, duration: 2 });
		const r = await autocannon({ url: `${base}${path}`, headers, connections, duration });
		const errors = r.errors + r.timeouts + (r.non2xx ?? 0);
		console.log(`${title.padEnd(34)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${errors}`);
		return r;
	};

	console.log(`bench:gateway  ${connections} connections, ${duration} s each, Node ${process.version}, ${(await import("node:os")).cpus().length} cores`);
	const bare = await run("GET /healthz (bare, no auth)", "/healthz", {});
	// The full /api/v1 pipeline (request id, Redis rate limit, action call) without the database.
	await run("GET /api/v1/scopes (public)", "/api/v1/scopes", {});
	const authed = await run("GET /api/v1/me (API key)", "/api/v1/me", { Authorization: `Bearer ${secret}` });
	console.log(`authentication cost: ${(bare.requests.average / authed.requests.average).toFixed(2)}x fewer req/s, p50 ${authed.latency.p50 - bare.latency.p50} ms more`);
} finally {
	await server.stop();
}
