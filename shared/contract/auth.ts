import { z } from "zod";
import { DateTime, IdPath } from "./common.ts";
import { Scope } from "./scopes.ts";

// Sessions, the caller's identity and API keys (auth-keys service).

export const Membership = z.object({ tenantId: z.string(), tenantName: z.string().nullable() }).meta({ id: "Membership" });
export type Membership = z.infer<typeof Membership>;

export const SessionRecord = z
	.object({
		user: z.object({ email: z.string().nullable() }),
		tenant: z.object({ id: z.string(), name: z.string().nullable() }),
		memberships: z.array(Membership).describe("Every company the account can act for"),
	})
	.meta({ id: "SessionRecord" });
export type SessionRecord = z.infer<typeof SessionRecord>;

export const Me = z
	.object({
		user: z.object({ id: z.string(), email: z.string().nullable() }),
		tenant: z.object({ id: z.string(), name: z.string().nullable() }),
		memberships: z.array(Membership),
		credential: z.object({
			kind: z.enum(["api_key", "session"]),
			api_key_id: z.string().nullable(),
			scopes: z.array(Scope).describe("What this credential may do; a browser session holds every scope"),
		}),
	})
	.meta({ id: "Me" });
export type Me = z.infer<typeof Me>;

export const ApiKey = z
	.object({
		id: z.string(),
		name: z.string(),
		display_suffix: z.string().describe("The last 4 characters of the secret, for display"),
		scopes: z.array(Scope),
		last_used_at: DateTime.nullable(),
		expires_at: DateTime.nullable(),
		revoked_at: DateTime.nullable(),
		created_at: DateTime,
	})
	.meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z.object({ keys: z.array(ApiKey) }).meta({ id: "ApiKeyList" });

export const CreateApiKeyBody = z
	.object({
		name: z.string().min(1).max(100).describe("1 to 100 characters"),
		scopes: z
			.array(Scope)
			.max(Scope.options.length)
			.default([])
			.refine((s) => new Set(s).size === s.length, "Scopes must be unique")
			.describe("Values from the scope vocabulary; an empty list grants nothing"),
		expiresAt: DateTime.nullable()
			.default(null)
			.refine((s) => s === null || Date.parse(s) > Date.now(), "expiresAt must be in the future")
			.describe("UTC with trailing Z; null or absent means no expiry"),
	})
	.strict()
	.meta({ id: "CreateApiKeyRequest" });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const CreatedApiKey = z
	.object({ key: ApiKey, secret: z.string().describe("Shown only here: only its SHA-256 hash is stored") })
	.meta({ id: "CreatedApiKey" });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyIdPath = IdPath;
