import type { Middleware } from "moleculer";

// Moleculer's bulkhead counts a call in flight and then calls `handler(ctx).then(...)`: a
// handler or middleware inside it that throws synchronously never returns a promise, so the
// slot it took is never given back (50 such calls wedge an action for every caller). This
// middleware is registered last among ours, so it wraps them all and sits right inside the
// broker's own middlewares: whatever throws beneath it becomes a rejected promise.

type Handler = (ctx: unknown) => unknown;

const guarded = (next: Handler) =>
	function promiseGuard(ctx: unknown): Promise<unknown> {
		try {
			return Promise.resolve(next(ctx));
		} catch (err) {
			return Promise.reject(err);
		}
	};

export const PromiseGuard = {
	name: "PromiseGuard",
	localAction: guarded,
	localEvent: guarded,
	remoteAction: guarded,
} as unknown as Middleware;
