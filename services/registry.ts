import type { AnyServiceSchema } from "../shared/broker.ts";
import { AskService } from "./ask/ask.service.ts";
import { AuthKeysService } from "./auth-keys/auth-keys.service.ts";
import { CatalogService } from "./catalog/catalog.service.ts";
import { GatewayService } from "./gateway/gateway.service.ts";
import { MatchingService } from "./matching/matching.service.ts";
import { NotificationsService } from "./notifications/notifications.service.ts";
import { OpportunitiesService } from "./opportunities/opportunities.service.ts";

// The seven services by name, as SERVICES selects them.
export const SERVICE_SCHEMAS: Record<string, AnyServiceSchema> = {
	gateway: GatewayService,
	"auth-keys": AuthKeysService,
	opportunities: OpportunitiesService,
	catalog: CatalogService,
	matching: MatchingService,
	notifications: NotificationsService,
	ask: AskService,
};

/** "all" or a comma-separated list of names -> their schemas; an unknown name is an error. */
export function selectServices(spec: string): AnyServiceSchema[] {
	const names =
		spec.trim() === "all" || spec.trim() === ""
			? Object.keys(SERVICE_SCHEMAS)
			: spec
					.split(",")
					.map((s) => s.trim())
					.filter(Boolean);
	return names.map((n) => {
		const s = SERVICE_SCHEMAS[n];
		if (!s) throw new Error(`Unknown service "${n}" in SERVICES; known: ${Object.keys(SERVICE_SCHEMAS).join(", ")}`);
		return s;
	});
}
