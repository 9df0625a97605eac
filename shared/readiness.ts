import type { Redis } from "ioredis";
import type { ServiceBroker } from "moleculer";

// Readiness: does this process reach the backing services it uses? Each user registers the
// check of its own connection where it opens it (queues: Redis; service databases: MongoDB; the
// gateway: its rate-limit Redis and that every service it routes to has an instance), so a
// process checks exactly what it uses. NATS is checked through the broker's transporter. Every
// check is bounded: a probe must never hang. The check states, errors included, are for the ops
// port only: the API port's /readyz answers without them.

export const CHECK_TIMEOUT_MS = 2000;

export interface CheckState {
	status: "up" | "down";
	ms: number;
	error?: string;
}
export interface Readiness {
	ready: boolean;
	checks: Record<string, CheckState>;
}

type Probe = () => Promise<unknown>;
const probes = new Map<string, Probe>();

/** Adds (or replaces) the named check; returns its removal, for when the connection closes. */
export function addReadinessCheck(name: string, probe: Probe): () => void {
	probes.set(name, probe);
	return () => {
		if (probes.get(name) === probe) probes.delete(name);
	};
}

export async function withTimeout<T>(work: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
	try {
		return await Promise.race([work, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * PING over an ioredis connection. One still connecting (a producer opened a moment ago) gets
 * the check's time to get there; one that lost Redis fails at once.
 */
export async function pingRedis(connection: Redis, waitMs = CHECK_TIMEOUT_MS): Promise<void> {
	const until = Date.now() + waitMs;
	while (["wait", "connecting", "connect"].includes(connection.status) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
	if (connection.status !== "ready") throw new Error(`not connected (${connection.status})`);
	await connection.ping();
}

interface NatsLike {
	isClosed(): boolean;
	flush(): Promise<void>;
}

/**
 * The transporter's connection, when there is one. Moleculer's `connected` stays true while the
 * NATS client reconnects on its own, so the check is a round trip (flush = PING/PONG).
 */
async function transporterAnswers(broker: ServiceBroker): Promise<void> {
	const transit = broker.transit as unknown as { connected: boolean; tx: { client?: NatsLike } } | undefined;
	if (!transit?.connected) throw new Error("not connected");
	const client = transit.tx.client;
	if (client && typeof client.flush === "function") {
		if (client.isClosed()) throw new Error("connection closed");
		await client.flush();
	}
}

async function run(probe: Probe): Promise<CheckState> {
	const t0 = Date.now();
	try {
		await withTimeout(probe());
		return { status: "up", ms: Date.now() - t0 };
	} catch (e) {
		return { status: "down", ms: Date.now() - t0, error: (e as Error)?.message ?? String(e) };
	}
}

/** Runs every check of this process (and the transporter's, when the broker has one) at once. */
export async function checkReadiness(broker: ServiceBroker): Promise<Readiness> {
	const all = new Map(probes);
	if (broker.transit) all.set("nats", () => transporterAnswers(broker));
	const names = [...all.keys()].sort();
	const states = await Promise.all(names.map((n) => run(all.get(n)!)));
	const checks = Object.fromEntries(names.map((n, i) => [n, states[i]!]));
	return { ready: states.every((s) => s.status === "up"), checks };
}
