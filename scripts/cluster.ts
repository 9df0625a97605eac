import { randomBytes } from "node:crypto";
import type { BrokerOptions, ServiceBroker } from "moleculer";
import { createBroker } from "../shared/broker.ts";
import { freePort, localTransporter, startServiceProcess, waitFor, type ServiceProcess } from "../test/support/processes.ts";
import { startNatsServer, type NatsServer } from "./cluster-nats.ts";
import { startRoundRobinProxy, type RoundRobinProxy } from "./cluster-proxy.ts";

// The multi-process shape on one machine: each service its own process over NATS (two
// gateways, two matching workers), supervised: their logs prefixed and forwarded, a process
// that dies restarted with backoff, and a graceful stop (SIGTERM, wait, then SIGKILL).
// Clients use one URL, a round-robin TCP proxy over the gateways (cluster-proxy.ts); each
// gateway is also reachable on its own port. Used by `npm run start:cluster`
// (cluster-start.ts), the cluster e2e run (cluster-test.ts), the fault tests and bench:load.

export interface ProcessSpec {
	/** Name of the process kind; members are `<name>-1`, `<name>-2`... */
	name: string;
	/** SERVICES of the process. */
	services: string;
	count?: number;
	/**
	 * When it stops, lowest first (default: 0 for gateways, 2 otherwise). Processes whose jobs
	 * call other services stop before those services, so their last jobs finish against them.
	 */
	stopStage?: number;
	/**
	 * MongoDB connections of this kind's processes, instead of the cluster's `mongoPoolPerProcess`:
	 * the one opportunities process serves most of the API's requests, and with 3 connections
	 * they queued for a connection, not for the store.
	 */
	mongoPool?: number;
}

/** Every service on its own, with two gateways and two matching workers. */
export const FULL_LAYOUT: ProcessSpec[] = [
	{ name: "gateway", services: "gateway", count: 2 },
	{ name: "auth-keys", services: "auth-keys" },
	{ name: "opportunities", services: "opportunities", mongoPool: 16 },
	{ name: "catalog", services: "catalog", mongoPool: 6 },
	{ name: "matching", services: "matching", count: 2, stopStage: 1 },
	{ name: "notifications", services: "notifications", stopStage: 1 },
	{ name: "ask", services: "ask", stopStage: 1 },
];

export interface ClusterOptions {
	layout?: ProcessSpec[];
	/** The proxy's port (the cluster's URL); gateways listen on the following ports. 0: free ports everywhere. */
	port?: number;
	/** Ops port of the first process, the others count up from it. 0: free ports. */
	opsPortBase?: number;
	/** The NATS to join (default: the local one, localTransporter()). */
	transporter?: string;
	/**
	 * Start a nats-server of the cluster's own that requires a generated user and password
	 * (cluster-nats.ts) and run every process over it; stopped with the cluster. Ignored when
	 * `transporter` is given.
	 */
	ownNats?: boolean;
	namespace?: string;
	/** Extra environment of every process (prefixes, backing service URLs, tuning). */
	env?: Record<string, string>;
	/** Restart a process that exits on its own (default true). */
	restart?: boolean;
	/** Where the prefixed log lines go (default stdout). */
	log?: (line: string) => void;
	readyTimeoutMs?: number;
	/** MongoDB connections per service database in each process (MONGO_POOL_SIZE). */
	mongoPoolPerProcess?: number;
	/** How long a process may take to stop after SIGTERM before it is killed. */
	stopGraceMs?: number;
}

export interface ClusterMember {
	/** Slot id (`matching-2`); the node id of the running process is `nodeID` (a restart adds `-r<n>`). */
	id: string;
	spec: ProcessSpec;
	/** 1 for the first process of its kind, 2 for the second... */
	replica: number;
	nodeID: string;
	/** The gateway's own HTTP port (gateways only). */
	port?: number;
	opsPort: number;
	proc: ServiceProcess;
	restarts: number;
	startedAt: number;
}

export interface Cluster {
	/** The one URL: the round-robin proxy over the gateways. */
	url: string;
	gatewayUrls: string[];
	/** The NATS URL every process joins, with its credentials when it has some (mask it for output: withoutCredentials). */
	transporter: string;
	/** The cluster's own nats-server (ownNats). */
	nats?: NatsServer;
	namespace: string;
	/** The environment every process got (besides its own SERVICES, NODE_ID, PORT, OPS_PORT). */
	env: Record<string, string>;
	members: ClusterMember[];
	proxy: RoundRobinProxy;
	/** A service-less broker of the supervisor in the cluster (used to wait for readiness). */
	broker: ServiceBroker;
	member(id: string): ClusterMember;
	/** Sends a signal to a member's current process (the supervisor restarts it unless stopping). */
	kill(id: string, signal?: NodeJS.Signals): void;
	/** A redeploy: every process stopped gracefully (gateways first), then all started again. */
	restartAll(): Promise<void>;
	/** Until every member's current node is in the registry with its services. */
	ready(timeoutMs?: number): Promise<void>;
	table(): string;
	stop(): Promise<void>;
}

const RESTART_BASE_MS = 500;
const RESTART_MAX_MS = 15_000;
/** A process that ran this long before dying starts its backoff again from the base delay. */
const STABLE_AFTER_MS = 30_000;

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
	const layout = o.layout ?? FULL_LAYOUT;
	const nats = o.ownNats && !o.transporter ? await startNatsServer() : undefined;
	// The children get the credentials in their environment (TRANSPORTER), never on a command line.
	const transporter = o.transporter ?? nats?.url ?? localTransporter();
	const namespace = o.namespace ?? `oms-cluster-${randomBytes(3).toString("hex")}`;
	const log = o.log ?? ((l: string) => process.stdout.write(`${l}\n`));
	const restart = o.restart ?? true;
	const grace = o.stopGraceMs ?? 20_000;
	// FerretDB 1.24 (the stand-in here) deadlocks when its PostgreSQL pool is exhausted (see
	// scripts/services.sh): nine processes keep their connections few.
	const env = { TRANSPORTER: transporter, NAMESPACE: namespace, MONGO_POOL_SIZE: String(o.mongoPoolPerProcess ?? 3), ...(o.env ?? {}) };

	const slots = layout.flatMap((spec) =>
		Array.from({ length: spec.count ?? 1 }, (_, i) => ({ spec, replica: i + 1, id: `${spec.name}-${i + 1}` })),
	);
	const gatewaySlots = slots.filter((s) => s.spec.services.split(",").includes("gateway"));
	const proxyPort = o.port ?? 3000;
	const gatewayPorts = await Promise.all(gatewaySlots.map((_, i) => (proxyPort === 0 ? freePort() : proxyPort + 1 + i)));
	const opsPorts = await Promise.all(slots.map((_, i) => (o.opsPortBase === 0 ? freePort() : (o.opsPortBase ?? 9464) + i)));
	const width = Math.max(...slots.map((s) => s.id.length)) + 3;

	let stopping = false;
	let restartSeq = 0;
	/** Members being stopped on purpose (stop, restart): not restarted by the exit handler. */
	const held = new Set<ClusterMember>();
	const members: ClusterMember[] = [];

	const broker = createBroker([], {
		transporter: transporter as BrokerOptions["transporter"],
		namespace,
		nodeID: `supervisor-${process.pid}-${randomBytes(2).toString("hex")}`,
		logger: false,
		skipProcessEventRegistration: true,
	});
	try {
		await broker.start();
	} catch (e) {
		await nats?.stop();
		throw e;
	}

	/** Whether the member's current node is in the registry with all its services. */
	const joined = (m: ClusterMember) => {
		const n = broker.registry.getNodeList({ onlyAvailable: true, withServices: true }).find((x: { id: string }) => x.id === m.nodeID) as
			| { services?: Array<{ name: string }> }
			| undefined;
		return !!n && m.spec.services.split(",").every((s) => n.services?.some((x) => x.name === s));
	};

	const spawnMember = (member: ClusterMember): void => {
		let pending = "";
		const prefix = `${member.id.padEnd(width)}| `;
		const proc = startServiceProcess(
			{
				...env,
				...(member.spec.mongoPool && !o.env?.MONGO_POOL_SIZE ? { MONGO_POOL_SIZE: String(member.spec.mongoPool) } : {}),
				SERVICES: member.spec.services,
				NODE_ID: member.nodeID,
				OPS_PORT: String(member.opsPort),
				...(member.port ? { PORT: String(member.port) } : {}),
			},
			(chunk) => {
				// Whole lines only, each under the member's name.
				const lines = (pending + chunk).split("\n");
				pending = lines.pop() ?? "";
				for (const l of lines) if (l) log(prefix + l);
			},
		);
		member.proc = proc;
		member.startedAt = Date.now();
		proc.child.once("exit", (code, signal) => {
			if (pending) log(prefix + pending);
			if (stopping || member.proc !== proc || held.has(member)) return;
			if (!restart) return log(`${"supervisor".padEnd(width)}| ${member.nodeID} exited (${signal ?? `code ${code}`}); not restarting`);
			if (Date.now() - member.startedAt > STABLE_AFTER_MS) member.restarts = 0;
			const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** member.restarts);
			member.restarts++;
			// A new node id per restart: the registry sees a new node, not a flapping one, and
			// BullMQ's processedBy tells the runs apart.
			const nodeID = `${member.id}-r${++restartSeq}`;
			log(`${"supervisor".padEnd(width)}| ${member.nodeID} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms as ${nodeID}`);
			setTimeout(async () => {
				if (stopping) return;
				member.nodeID = nodeID;
				// Ports chosen free at start may be another program's by now (tests run side by side):
				// where the cluster takes any free ports, a restart takes ports that are free now
				// (the proxy reads each gateway's port when it connects).
				if (o.opsPortBase === 0) member.opsPort = await freePort();
				if (proxyPort === 0 && member.port) member.port = await freePort();
				spawnMember(member);
			}, delay).unref();
		});
	};

	/**
	 * The first process of each kind at once; a second one once the first has joined. Two
	 * processes of a service starting together create the same collections and indexes at the
	 * same moment, which can deadlock FerretDB (FerretDB#5167) for every client.
	 */
	const launch = async () => {
		for (const m of members) if (m.replica === 1) spawnMember(m);
		const replicas = members.filter((m) => m.replica > 1);
		if (!replicas.length) return;
		const firsts = members.filter((m) => m.replica === 1 && replicas.some((r) => r.spec === m.spec));
		await waitFor(
			"the first process of each replicated kind to join",
			async () => (firsts.every(joined) ? true : undefined),
			o.readyTimeoutMs ?? 120_000,
		);
		for (const m of replicas) spawnMember(m);
	};

	let gw = 0;
	for (const [i, s] of slots.entries()) {
		const isGateway = gatewaySlots.includes(s);
		members.push({
			id: s.id,
			spec: s.spec,
			replica: s.replica,
			nodeID: s.id,
			opsPort: opsPorts[i]!,
			port: isGateway ? gatewayPorts[gw++] : undefined,
			restarts: 0,
		} as ClusterMember);
	}
	const gatewayMembers = members.filter((m) => m.port);
	// Only gateways whose process is alive get new connections.
	const proxy = await startRoundRobinProxy(proxyPort, () =>
		gatewayMembers.filter((m) => m.proc && m.proc.child.exitCode === null && m.proc.child.signalCode === null).map((m) => m.port!),
	);

	const stopMembers = async (list: ClusterMember[]) => {
		await Promise.all(
			list.map(async (m) => {
				held.add(m);
				if (!m.proc) return; // never started (its first process did not join)
				const exited = m.proc.stop("SIGTERM");
				const timer = setTimeout(() => {
					log(`${"supervisor".padEnd(width)}| ${m.nodeID} did not stop within ${grace} ms: SIGKILL`);
					m.proc.child.kill("SIGKILL");
				}, grace);
				await exited;
				clearTimeout(timer);
			}),
		);
	};
	// Gateways first: they stop taking requests and finish the ones in flight while the services
	// behind them are still there; then the queue workers, whose last jobs still call the
	// services of the last stage; then those.
	const stageOf = (m: ClusterMember) => m.spec.stopStage ?? (m.port ? 0 : 2);
	const stopAll = async () => {
		for (const stage of [...new Set(members.map(stageOf))].sort((a, b) => a - b))
			await stopMembers(members.filter((m) => stageOf(m) === stage));
	};

	const cluster: Cluster = {
		url: `http://127.0.0.1:${proxy.port}`,
		get gatewayUrls() {
			return gatewayMembers.map((m) => `http://127.0.0.1:${m.port}`);
		},
		transporter,
		nats,
		namespace,
		env,
		members,
		proxy,
		broker,
		member(id) {
			const m = members.find((x) => x.id === id || x.nodeID === id);
			if (!m) throw new Error(`no cluster member ${id}`);
			return m;
		},
		kill(id, signal = "SIGKILL") {
			cluster.member(id).proc.child.kill(signal);
		},
		async ready(timeoutMs = o.readyTimeoutMs ?? 120_000) {
			await waitFor(
				"every cluster process to join with its services",
				async () => {
					const missing = members.filter((m) => !joined(m));
					if (missing.length) throw new Error(`not yet: ${missing.map((m) => m.nodeID).join(", ")}`);
					for (const u of cluster.gatewayUrls) if (!(await fetch(`${u}/healthz`)).ok) throw new Error(`${u} not answering`);
					return true;
				},
				timeoutMs,
			).catch((e) => {
				const tails = members.map((m) => `--- ${m.nodeID}:\n${m.proc?.output().slice(-2000) ?? "(not started)"}`).join("\n");
				throw new Error(`${(e as Error).message}\n${tails}`);
			});
		},
		table() {
			const rows = [
				["process", "node id", "services", "pid", "http", "ops"],
				...members.map((m) => [
					m.id,
					m.nodeID,
					m.spec.services,
					String(m.proc?.child.pid ?? "-"),
					m.port ? String(m.port) : "",
					String(m.opsPort),
				]),
			];
			rows.push(["proxy", "(supervisor)", "round robin over the gateways", String(process.pid), String(proxy.port), ""]);
			const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
			return rows
				.map((r) =>
					r
						.map((v, c) => v.padEnd(widths[c]!))
						.join("  ")
						.trimEnd(),
				)
				.join("\n");
		},
		async restartAll() {
			await stopAll();
			for (const m of members) {
				m.nodeID = `${m.id}-r${++restartSeq}`;
				held.delete(m);
			}
			await launch();
		},
		async stop() {
			if (stopping) return;
			stopping = true;
			await stopAll();
			await proxy.close();
			await broker.stop();
			await nats?.stop();
		},
	};
	try {
		await launch();
	} catch (e) {
		await cluster.stop();
		throw e;
	}
	return cluster;
}
