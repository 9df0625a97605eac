import { MetricReporters, type ServiceBroker } from "moleculer";
import { outboxes } from "./outbox.ts";
import { producer, QUEUES, queuesUsed, type QueueName } from "./queue.ts";
import { withTimeout } from "./readiness.ts";

// GET /metrics in Prometheus' text format: Moleculer's own metrics (requests, latencies,
// transporter, process), then this process's queues and outboxes, read at scrape time.

/**
 * Moleculer's Prometheus reporter opens an HTTP server of its own; this one only renders, so
 * every process serves its metrics on its one ops port.
 */
class PrometheusText extends MetricReporters.Prometheus {
	override init(registry: Parameters<MetricReporters.Base["init"]>[0]): void {
		MetricReporters.Base.prototype.init.call(this, registry);
		(this as unknown as { defaultLabels: object }).defaultLabels = { namespace: registry.broker.namespace, nodeID: registry.broker.nodeID };
	}
	override stop(): Promise<void> {
		return Promise.resolve();
	}
}

const JOB_STATES = ["waiting", "prioritized", "active", "delayed", "failed"] as const;
/** The matching lag is how long the oldest of these has waited: product saves and notices to match. */
const MATCHING_QUEUES: QueueName[] = [QUEUES.productIndex, QUEUES.noticeMatch];

type Labels = Record<string, string>;
type Sample = [Labels, number];

const labelText = (labels: Labels) => {
	const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
	return parts.length ? `{${parts.join(",")}}` : "";
};

function gauge(name: string, help: string, samples: Sample[]): string {
	if (!samples.length) return "";
	return [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, ...samples.map(([l, v]) => `${name}${labelText(l)} ${v}`), ""].join("\n");
}

/** The enqueue time of the oldest job waiting to run: the tail of the wait list or the head of the prioritized set. */
async function oldestWaitingSince(name: QueueName): Promise<number | undefined> {
	const queue = producer(name);
	const [waiting, prioritized] = await Promise.all([queue.getJobs(["waiting"], 0, 0, true), queue.getJobs(["prioritized"], 0, 0, true)]);
	const times = [...waiting, ...prioritized].map((j) => j?.timestamp).filter((t): t is number => typeof t === "number");
	return times.length ? Math.min(...times) : undefined;
}

interface QueueReading {
	name: QueueName;
	counts?: Record<string, number>;
	oldest?: number;
}

async function readQueue(name: QueueName): Promise<QueueReading> {
	try {
		const [counts, oldest] = await withTimeout(Promise.all([producer(name).getJobCounts(...JOB_STATES), oldestWaitingSince(name)]));
		return { name, counts, oldest };
	} catch {
		return { name };
	}
}

async function queueMetrics(now: number): Promise<string> {
	const readings = await Promise.all(queuesUsed().sort().map(readQueue));
	const ok = readings.filter((r) => r.counts);
	const age = (r: QueueReading) => (r.oldest === undefined ? 0 : Math.max(0, (now - r.oldest) / 1000));
	const matching = ok.filter((r) => MATCHING_QUEUES.includes(r.name));
	return [
		gauge(
			"oms_queue_up",
			"1 when Redis answered for the queue at this scrape, else 0 (and its other series are absent)",
			readings.map((r) => [{ queue: r.name }, r.counts ? 1 : 0]),
		),
		gauge(
			"oms_queue_jobs",
			"Jobs in the queue by state (BullMQ getJobCounts)",
			ok.flatMap((r) => JOB_STATES.map((s): Sample => [{ queue: r.name, state: s }, r.counts![s] ?? 0])),
		),
		gauge(
			"oms_queue_oldest_waiting_seconds",
			"Age of the oldest job waiting to run (0 when none waits)",
			ok.map((r) => [{ queue: r.name }, age(r)]),
		),
		gauge(
			"oms_matching_lag_seconds",
			"Age of the oldest product save or notice waiting for matching (0 when none waits)",
			matching.length ? [[{}, Math.max(...matching.map(age))]] : [],
		),
	].join("");
}

async function outboxMetrics(): Promise<string> {
	const samples = await Promise.all(
		outboxes().map(async (o): Promise<Sample | undefined> => {
			const n = await withTimeout(o.pendingCount()).catch(() => undefined);
			return n === undefined ? undefined : [{ outbox: o.label }, n];
		}),
	);
	return gauge(
		"oms_outbox_pending",
		"Documents whose requested background work is not yet done (collection.field)",
		samples.filter((s): s is Sample => !!s),
	);
}

const renderers = new WeakMap<ServiceBroker, PrometheusText>();

/** The whole scrape for this process. */
export async function renderMetrics(broker: ServiceBroker): Promise<string> {
	let moleculer = "";
	if (broker.isMetricsEnabled()) {
		let r = renderers.get(broker);
		if (!r) {
			r = new PrometheusText();
			r.init(broker.metrics as never);
			renderers.set(broker, r);
		}
		moleculer = r.generatePrometheusResponse();
	}
	const [queues, outbox] = await Promise.all([queueMetrics(Date.now()), outboxMetrics()]);
	return `${moleculer}\n${queues}${outbox}`;
}
