import { z } from "zod";

// What every internal action's declaration is made of (the HTTP operations have theirs in
// ../operation.ts). Internal actions are called between services and by the CLI, never routed.

/**
 * One internal action: the schema its params are validated with (the service's action uses it,
 * shared/actions.ts internalAction) and the shape it answers, which types the callers
 * (callInternal) and is not checked at run time.
 */
export interface InternalAction {
	params: z.ZodType;
	result: z.ZodType;
}

/** The services of the system, as services/registry.ts names them. */
export const SERVICE_NAMES = ["gateway", "auth-keys", "opportunities", "catalog", "matching", "notifications", "ask"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The version token of a durable work request (shared/outbox.ts newVersion), as jobs and "mark done" calls carry it. */
export const RequestVersion = z.string().min(1).max(64);

/** One company, for an action that is not called on its behalf (no ctx.meta.auth). */
export const TenantRef = z.object({ tenantId: z.uuid() }).strict();
export type TenantRef = z.infer<typeof TenantRef>;

/** A reconciler run on demand: re-send the requests pending for longer than graceMs. */
export const ReconcileParams = z.object({ graceMs: z.number().int().min(0).default(10_000) }).strict();
export type ReconcileParams = z.infer<typeof ReconcileParams>;

/** An answer that only says the work was done. */
export const Done = z.object({ ok: z.literal(true) });
