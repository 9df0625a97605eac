import { z } from "zod";
import { Scope } from "../scopes.ts";
import { TenantRef, type InternalAction } from "./common.ts";

// auth-keys' internal actions: the gateway's credential check on every request, and the
// administration the CLI, the tests and the notifications service use (never routed).

/** A presented credential, by the SHA-256 of its secret; a session may choose one of its account's companies. */
export const AuthenticateParams = z.object({
	kind: z.enum(["api_key", "session"]),
	hash: z.string().regex(/^[0-9a-f]{64}$/),
	tenantId: z.string().max(100).optional(),
});
export type AuthenticateParams = z.infer<typeof AuthenticateParams>;

/** Who is calling, as authentication established it; the gateway passes it on in ctx.meta.auth. */
export const AuthContext = z.object({
	kind: z.enum(["api_key", "session"]),
	tenantId: z.string(),
	userId: z.string(),
	membershipId: z.string(),
	scopes: z.array(Scope),
	apiKeyId: z.string().optional(),
	sessionId: z.string().optional(),
	email: z.string().nullable().optional(),
});
export type AuthContext = z.infer<typeof AuthContext>;

/**
 * authenticate's answer: the caller, and when the credential expires (milliseconds since the
 * epoch; null: never), so that a process remembering the answer still checks expiry on every
 * request (shared/auth-stamp.ts).
 */
export const AuthAnswer = z.object({ auth: AuthContext, expiresAt: z.number().nullable() });
export type AuthAnswer = z.infer<typeof AuthAnswer>;

/** An email address, compared trimmed and lower-cased. */
const Email = z.string().trim().toLowerCase().pipe(z.email());

export const CreateTenantParams = z.object({ name: z.string().trim().min(1).max(200), ownerEmail: Email }).strict();
export type CreateTenantParams = z.infer<typeof CreateTenantParams>;
export const CreatedTenant = z.object({ tenantId: z.string(), userId: z.string(), membershipId: z.string() });

/** Where a company's mail goes when it named no recipients: its owner's address, and its name. */
export const TenantContact = z.object({ email: z.string().nullable(), name: z.string().nullable() });
export type TenantContact = z.infer<typeof TenantContact>;

/** Every company's id, in pages ordered by id. */
export const TenantIdsParams = z
	.object({ after: z.string().max(100).default(""), limit: z.number().int().min(1).max(5000).default(1000) })
	.strict();
export type TenantIdsParams = z.infer<typeof TenantIdsParams>;
export const TenantIds = z.object({ ids: z.array(z.string()) });

export const SetMembershipParams = z.object({ tenantId: z.uuid(), email: Email, status: z.enum(["active", "disabled"]) }).strict();
export type SetMembershipParams = z.infer<typeof SetMembershipParams>;
export const MembershipSet = z.object({ membershipId: z.string(), status: z.enum(["active", "disabled"]) });

export const authKeysActions = {
	"auth-keys.authenticate": { params: AuthenticateParams, result: AuthAnswer },
	"auth-keys.createTenant": { params: CreateTenantParams, result: CreatedTenant },
	"auth-keys.contactEmail": { params: TenantRef, result: TenantContact },
	"auth-keys.tenantIds": { params: TenantIdsParams, result: TenantIds },
	"auth-keys.setMembership": { params: SetMembershipParams, result: MembershipSet },
} as const satisfies Record<string, InternalAction>;
