import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, Middleware } from "moleculer";

// The request id of the work in hand, so that every log line written while doing it carries it
// (the logger's mixin reads it; shared/logger.ts). Moleculer carries ctx.requestID from node to
// node over the transporter; this store carries it across the awaits inside one process.

const store = new AsyncLocalStorage<string>();

export const currentRequestId = (): string | undefined => store.getStore();

/** Runs `fn` (and everything it awaits or schedules) under the request id; no id, no change. */
export function withRequestId<T>(requestId: string | null | undefined, fn: () => T): T {
	return requestId ? store.run(requestId, fn) : fn();
}

type Handler = (ctx: Context) => Promise<unknown>;
type Packet = { payload?: { id?: string; requestID?: string | null } };
type PacketHandler = (cmd: string, packet: Packet) => unknown;
type Transit = { pendingRequests: Map<string, { ctx?: Context }> };

/** A request or event names its request id; a reply is matched to the pending call it answers. */
function packetRequestId(transit: Transit, packet: Packet): string | null | undefined {
	const p = packet?.payload;
	return p?.requestID ?? (p?.id ? transit.pendingRequests?.get(p.id)?.ctx?.requestID : undefined);
}

export const RequestContextMiddleware = {
	name: "RequestContext",
	// Action and event handlers (service code, shared helpers, the calls they make).
	localAction: (next: Handler) => (ctx: Context) => withRequestId(ctx.requestID, () => next(ctx)),
	localEvent: (next: Handler) => (ctx: Context) => withRequestId(ctx.requestID, () => next(ctx)),
	// Packets from the transporter, from their arrival on: the framework's own lines around a
	// handler (error handling, the reply) and around a reply received are the request's too.
	transitMessageHandler(this: Transit, next: PacketHandler) {
		// Moleculer binds this hook to the Transit.
		return (cmd: string, packet: Packet) => withRequestId(packetRequestId(this, packet), () => next(cmd, packet));
	},
} as unknown as Middleware;
