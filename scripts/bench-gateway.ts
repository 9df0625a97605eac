import autocannon from "autocannon";
import { cli, startServiceProcess, waitFor } from "../test/support/processes.ts";
import { dropDatabases } from "../shared/mongo.ts";
import { ownServiceEnv, Tally } from "./bench-support.ts";

// npm run bench:gateway [-- --duration 10 --connections 20]
// Starts the whole service (one process, its defaults but free ports, its own databases and
// rate budgets that never refuse the benchmark), beside anything already running, then
// measures an authenticated GET /api/v1/me with an API key against a bare moleculer-web route
// (/healthz: no auth, no database) in the same run. Only 2xx answers count as served (req/s
// and latencies); any other status is printed apart.

const arg = (name: string, dflt: number) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const duration = arg("duration", 10);
const connections = arg("connections", 20);

const env = await ownServiceEnv("bench");
const server = startServiceProcess(env);
const base = `http://127.0.0.1:${env.PORT}`;

try {
	await waitFor("the service to start", async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 60_000);
	const email = `bench-${Date.now()}@example.com`;
	const tenant = await cli(["tenant:create", "--name", "Bench Co", "--owner", email], env);
	if (tenant.code !== 0) throw new Error(tenant.stderr);
	const token = (await cli(["dev:token", "--email", email], env)).stdout.trim();
	const session = await fetch(`${base}/api/v1/session`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
	const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
	const created = await fetch(`${base}/api/v1/api-keys`, {
		method: "POST",
		headers: { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" },
		body: JSON.stringify({ name: "bench", scopes: ["opportunities:read"] }),
	});
	const { secret } = (await created.json()) as { secret: string };

	const run = async (title: string, path: string, headers: Record<string, string>) => {
		// A short warm-up so JIT and connection pools are settled before measuring.
		await autocannon({ url: `${base}${path}`, headers, connections, duration: 2 });
		const tally = new Tally();
		const r = await autocannon({ url: `${base}${path}`, headers, connections, duration, setupClient: tally.setupClient });
		const perSecond = tally.served / r.duration;
		const failed = r.errors + r.timeouts;
		console.log(
			`${title.padEnd(34)} ${perSecond.toFixed(0).padStart(7)} req/s served (2xx)   p50 ${String(tally.latency(0.5)).padStart(4)} ms   p99 ${String(tally.latency(0.99)).padStart(4)} ms` +
				`   not 2xx: ${tally.otherStatuses()}${failed ? `   connection errors ${r.errors}, timeouts ${r.timeouts}` : ""}`,
		);
		return { perSecond, p50: tally.latency(0.5) };
	};

	console.log(
		`bench:gateway  ${connections} connections, ${duration} s each, Node ${process.version}, ${(await import("node:os")).cpus().length} cores`,
	);
	const bare = await run("GET /healthz (bare, no auth)", "/healthz", {});
	// The full /api/v1 pipeline (request id, Redis rate limit, action call) without the database.
	await run("GET /api/v1/scopes (public)", "/api/v1/scopes", {});
	const authed = await run("GET /api/v1/me (API key)", "/api/v1/me", { Authorization: `Bearer ${secret}` });
	console.log(
		`GET /me served ${(authed.perSecond / bare.perSecond).toFixed(3)}x the bare route's rate (${(bare.perSecond / authed.perSecond).toFixed(1)}x fewer), p50 ${authed.p50 - bare.p50} ms more`,
	);
} finally {
	await server.stop();
	await dropDatabases(env.MONGO_DB_PREFIX);
}
