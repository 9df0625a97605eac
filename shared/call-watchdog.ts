import type { Middleware, ServiceBroker } from "moleculer";
import { config } from "./config.ts";
import { addReadinessCheck } from "./readiness.ts";

// A call that never settles holds its action's concurrency slot for good; enough of them and
// the action stops answering for everyone, while the process itself looks alive. This
// middleware remembers when each local call started and, through the readiness check
// `calls@<node>`, reports the process as not ready once any call has been in flight longer
// than CALL_STUCK_MS, so an orchestrator takes the pod out and restarts what cannot recover.

type Handler = (ctx: { id: string; action?: { name?: string } }) => Promise<unknown>;

interface InFlight {
	action: string;
	since: number;
}

/** The calls in flight longer than `ms`, counted by action: "catalog.get (2 calls, oldest 75 s)". */
export function stuckCalls(calls: Iterable<InFlight>, ms: number, now = Date.now()): string[] {
	const byAction = new Map<string, { n: number; oldest: number }>();
	for (const c of calls) {
		if (now - c.since <= ms) continue;
		const s = byAction.get(c.action) ?? { n: 0, oldest: now };
		byAction.set(c.action, { n: s.n + 1, oldest: Math.min(s.oldest, c.since) });
	}
	return [...byAction.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([action, s]) => `${action} (${s.n} call${s.n === 1 ? "" : "s"}, oldest ${Math.round((now - s.oldest) / 1000)} s)`);
}

/** A middleware factory (Moleculer calls it with the broker): the calls of this broker only. */
export const CallWatchdog = ((broker: ServiceBroker) => {
	const calls = new Map<object, InFlight>();
	let removeCheck: (() => void) | undefined;
	const track = (next: Handler) => (ctx: Parameters<Handler>[0]) => {
		calls.set(ctx, { action: ctx.action?.name ?? "?", since: Date.now() });
		return next(ctx).finally(() => calls.delete(ctx));
	};
	return {
		name: "CallWatchdog",
		localAction: track,
		started() {
			removeCheck = addReadinessCheck(`calls@${broker.nodeID}`, async () => {
				const stuck = stuckCalls(calls.values(), config().CALL_STUCK_MS);
				if (stuck.length) throw new Error(`calls stuck for over ${config().CALL_STUCK_MS} ms: ${stuck.join(", ")}`);
			});
		},
		stopped() {
			removeCheck?.();
		},
	} as unknown as Middleware;
}) as unknown as Middleware;
