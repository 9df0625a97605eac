import type { ServiceBroker } from "moleculer";

// What the hardening tests check after a storm of refused requests: that no action of this
// process still counts a call in flight (Moleculer's bulkhead gauge), so none is wedged.

/** The actions whose bulkhead still counts calls in flight, with their counts. */
export function busyActions(broker: ServiceBroker): Record<string, number> {
	const metric = broker.metrics.getMetric("moleculer.request.bulkhead.inflight");
	const values = (metric?.snapshot() ?? []) as unknown as { labels: { action: string }; value: number }[];
	return Object.fromEntries(values.filter((v) => v.value !== 0).map((v) => [v.labels.action, v.value]));
}

/** Runs `n` tasks, `width` at a time. */
export async function inParallel(n: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: width }, async () => {
			while (next < n) await task(next++);
		}),
	);
}
