import { z } from "zod";

// The scope vocabulary: what an API key may be granted. A browser session holds all of them.
export const SCOPE_VALUES = [
	"opportunities:read",
	"opportunities:write",
	"profile:read",
	"profile:write",
	"settings:read",
	"settings:write",
	"dashboard:read",
] as const;
export const Scope = z.enum(SCOPE_VALUES);
export type Scope = z.infer<typeof Scope>;

export const SCOPES: ReadonlyArray<{ value: Scope; label: string; description: string }> = [
	{
		value: "opportunities:read",
		label: "Read opportunities",
		description: "list and read matched solicitations and their scoring rationale",
	},
	{ value: "opportunities:write", label: "Give feedback", description: "send feedback on opportunities" },
	{ value: "profile:read", label: "Read company profile", description: "read company profile, product catalog, certifications" },
	{ value: "profile:write", label: "Edit company profile", description: "change company profile, product catalog, certifications" },
	{ value: "settings:read", label: "Read settings", description: "read digest schedule, recipients, learned decision rules" },
	{ value: "settings:write", label: "Change settings", description: "change digest schedule, recipients, learned decision rules" },
	{
		value: "dashboard:read",
		label: "Read dashboard",
		description: "read the dashboard: opportunity counts by status and score band, upcoming deadlines, last ingestion per source",
	},
];

export const ScopeListItem = z.object({ value: Scope, label: z.string(), description: z.string() }).meta({ id: "ScopeListItem" });
export const ScopeList = z.object({ scopes: z.array(ScopeListItem) }).meta({ id: "ScopeList" });
export type ScopeList = z.infer<typeof ScopeList>;
