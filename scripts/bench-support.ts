import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { BrokerOptions, ServiceBroker } from "moleculer";
import { callInternal } from "../shared/actions.ts";
import { createBroker } from "../shared/broker.ts";
import { resetConfig } from "../shared/config.ts";
import { dropDatabases } from "../shared/mongo.ts";
import { dropRedisKeys } from "../shared/redis-keys.ts";
import { mintDevIdToken } from "../shared/dev-issuer.ts";
import { freePort, localTransporter } from "../test/support/processes.ts";
import { startCluster, type Cluster } from "./cluster.ts";

// What the benchmarks share: their own cluster (or a running one at --url), a service-less
// broker in it, or a service process of their own beside whatever else runs; companies with API
// keys, HTTP calls, /proc readings, and the count of what was served (2xx) apart from the rest.

export const arg = (name: string, dflt: string): string => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1]! : dflt;
};

export interface BenchTarget {
	base: string;
	broker: ServiceBroker;
	/** The benchmark's own cluster (absent with --url). */
	cluster?: Cluster;
	stop(): Promise<void>;
}

/**
 * Starts a cluster of its own (prefixes `<tag><run>`), or reaches the one at `url` over NATS.
 * Companies sign in through the local development issuer: a running cluster needs DEV_ISSUER=on.
 */
export async function benchTarget(tag: string, url: string, env: Record<string, string> = {}): Promise<BenchTarget> {
	// The benchmark's own broker needs no ops port (the cluster's processes get theirs).
	process.env.OPS_PORT = "off";
	process.env.DEV_ISSUER = "on";
	resetConfig();
	let cluster: Cluster | undefined;
	let prefix = "";
	let base = url;
	let transporter = localTransporter();
	let namespace = process.env.NAMESPACE || "oms";
	if (!url) {
		prefix = `${tag}${randomBytes(3).toString("hex")}`;
		const clusterEnv = {
			LOG_LEVEL: "warn",
			DEV_ISSUER: "on",
			MONGO_DB_PREFIX: prefix,
			REDIS_PREFIX: `oms-${prefix}`,
			...BENCH_RATE_LIMITS,
			...env,
		};
		cluster = await startCluster({ port: 0, opsPortBase: 0, log: () => undefined, env: clusterEnv });
		process.stderr.write(`bench: own cluster\n${cluster.table()}\n`);
		await cluster.ready();
		({ url: base, transporter, namespace } = cluster);
	}
	const broker = createBroker([], {
		transporter: transporter as BrokerOptions["transporter"],
		namespace,
		logger: false,
		skipProcessEventRegistration: true,
	});
	await broker.start();
	await broker.waitForServices(["auth-keys", "catalog", "opportunities", "matching"], 60_000);
	return {
		base,
		broker,
		cluster,
		async stop() {
			await broker.stop();
			await cluster?.stop();
			if (prefix) await Promise.all([dropDatabases(prefix), dropRedisKeys(`oms-${prefix}:`)]);
		},
	};
}

/** An answer other than 2xx, with its status (for Tally). */
export class HttpStatusError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

/** An API call; throws HttpStatusError on any answer but 2xx. */
export async function json(base: string, method: string, path: string, auth: Record<string, string>, body?: unknown): Promise<any> {
	const res = await fetch(`${base}/api/v1${path}`, {
		method,
		headers: { ...auth, "Content-Type": "application/json", Origin: "http://localhost:3000" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (res.status >= 300) throw new HttpStatusError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
	return text ? JSON.parse(text) : null;
}

const SCOPES = ["opportunities:read", "opportunities:write", "profile:read", "profile:write"];

/** A new company, its owner signed in, and an API key that reads and writes opportunities and the catalog. */
export async function companyWithKey(
	t: BenchTarget,
	name: string,
): Promise<{ tenantId: string; key: string; auth: Record<string, string> }> {
	const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${randomUUID().slice(0, 8)}@example.com`;
	const { tenantId } = await callInternal(t.broker, "auth-keys.createTenant", { name, ownerEmail: email });
	const session = await fetch(`${t.base}/api/v1/session`, {
		method: "POST",
		headers: { Authorization: `Bearer ${await mintDevIdToken({ email })}` },
	});
	const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
	const { secret } = await json(t.base, "POST", "/api-keys", { Cookie: cookie }, { name: "bench", scopes: SCOPES });
	return { tenantId, key: secret, auth: { Authorization: `Bearer ${secret}` } };
}

/** CPU (ticks of user + system time, 100 a second) and RSS of a process, from /proc. */
export function procSample(pid: number): { ticks: number; rssKb: number } | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
		return { ticks: Number(fields[11]) + Number(fields[12]), rssKb: Number(rss?.[1] ?? 0) };
	} catch {
		return null;
	}
}

/** The FerretDB that scripts/services.sh started, if any (its CPU is most of the database's). */
export function ferretdbPid(): number | null {
	try {
		const pid = Number(readFileSync(join(process.env.OMS_CACHE_DIR || join(homedir(), ".cache/oms"), "ferretdb.pid"), "utf8").trim());
		return procSample(pid) ? pid : null;
	} catch {
		return null;
	}
}

/** PostgreSQL's processes (server and backends): with FerretDB, the database's share of the CPU. */
export function postgresPids(): number[] {
	const pids: number[] = [];
	for (const e of readdirSync("/proc")) {
		if (!/^\d+$/.test(e)) continue;
		try {
			if (readFileSync(`/proc/${e}/comm`, "utf8").trim() === "postgres") pids.push(Number(e));
		} catch {
			// gone meanwhile
		}
	}
	return pids;
}

/** The whole machine's busy and total CPU ticks since boot (/proc/stat's first line). */
export function machineTicks(): { busy: number; total: number } {
	const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
	const n = fields.map(Number);
	const total = n.reduce((a, b) => a + b, 0);
	return { busy: total - (n[3] ?? 0) - (n[4] ?? 0), total }; // idle and iowait are not busy
}

/** The value at quantile `p` (0..1) of the numbers. */
export const quantile = (xs: readonly number[], p: number): number =>
	[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;

/** Rate budgets that never refuse a benchmark's own requests, keyed or anonymous. */
export const BENCH_RATE_LIMITS = { RATE_LIMIT_POINTS: "100000000", RATE_LIMIT_ANON_POINTS: "100000000" } as const;

/**
 * The environment of a benchmark's own service process (scripts/run.sh's services, its own
 * databases and Redis keys), which must run beside a developer's `npm start`: a free API port and
 * a free ops port (`OPS_PORT=0`; the default 9464 is the running stack's), and rate budgets that
 * never answer the benchmark 429.
 */
export async function ownServiceEnv(tag: string) {
	const run = randomBytes(3).toString("hex");
	return {
		PORT: String(await freePort()),
		OPS_PORT: "0",
		TRANSPORTER: "", // its services in its own process, never on a running stack's bus
		DEV_ISSUER: "on", // companies sign in through the local development issuer
		LOG_LEVEL: "warn",
		MONGO_DB_PREFIX: `${tag}${run}`,
		REDIS_PREFIX: `oms-${tag}-${run}`,
		...BENCH_RATE_LIMITS,
	};
}

/**
 * Answers of a load run by status. Only 2xx answers are served requests, and only their
 * latencies make the percentiles; a 429 or a 5xx answered fast is no throughput.
 */
export class Tally {
	private readonly servedMs: number[] = [];
	private readonly refused = new Map<number, number>();

	record(status: number, ms: number): void {
		if (status >= 200 && status < 300) this.servedMs.push(ms);
		else this.refused.set(status, (this.refused.get(status) ?? 0) + 1);
	}

	/** autocannon's `setupClient`: records every answer of the client. */
	readonly setupClient = (client: { on(event: "response", fn: (status: number, bytes: number, ms: number) => void): void }): void => {
		client.on("response", (status, _bytes, ms) => this.record(status, ms));
	};

	get served(): number {
		return this.servedMs.length;
	}

	get notServed(): number {
		return [...this.refused.values()].reduce((a, b) => a + b, 0);
	}

	/** Latency (ms) of the served answers at quantile `p`. */
	latency(p: number): number {
		return Math.round(quantile(this.servedMs, p));
	}

	/** Times `call`, recorded by the status it answered (HttpStatusError's, or 0 when none came back). */
	async time(call: () => Promise<unknown>): Promise<void> {
		const t0 = performance.now();
		let status = 200;
		try {
			await call();
		} catch (e) {
			status = e instanceof HttpStatusError ? e.status : 0;
		}
		this.record(status, performance.now() - t0);
	}

	/** The other answers by status, e.g. "429 x 1,204, 503 x 3", or "none" (0: no answer at all). */
	otherStatuses(): string {
		if (this.refused.size === 0) return "none";
		const label = (status: number) => (status === 0 ? "no answer" : String(status));
		return [...this.refused]
			.sort(([a], [b]) => a - b)
			.map(([status, n]) => `${label(status)} x ${n.toLocaleString("en-US")}`)
			.join(", ");
	}
}
