import type { z } from "zod";
import { authKeysActions } from "./auth-keys-actions.ts";
import { catalogActions } from "./catalog-actions.ts";
import { matchingActions } from "./matching-actions.ts";
import { notificationsActions } from "./notifications-actions.ts";
import { opportunitiesActions } from "./opportunities-actions.ts";

// Every internal action by its full name ("service.action"): the one place its params and result
// are declared. The owning service validates with the params (shared/actions.ts internalAction);
// callers type their calls with both (callInternal). test/unit/internal-contract.test.ts checks
// that every action a service registers is either routed or declared here.

export const INTERNAL_ACTIONS = {
	...authKeysActions,
	...catalogActions,
	...opportunitiesActions,
	...matchingActions,
	...notificationsActions,
};

export type InternalActionName = keyof typeof INTERNAL_ACTIONS;
/** What a caller passes (defaults may be left out). */
export type InternalParams<A extends InternalActionName> = z.input<(typeof INTERNAL_ACTIONS)[A]["params"]>;
/** What the handler receives, validated. */
export type InternalParsedParams<A extends InternalActionName> = z.output<(typeof INTERNAL_ACTIONS)[A]["params"]>;
export type InternalResult<A extends InternalActionName> = z.output<(typeof INTERNAL_ACTIONS)[A]["result"]>;
