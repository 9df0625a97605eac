import { randomUUID } from "node:crypto";
import { Schema, type Connection, type InferSchemaType, type Model } from "mongoose";
import { PLACE_INDEX } from "./places.ts";

// The auth-keys service's own collections. Ids are UUID strings; emails are stored
// lower-cased for lookups (no collation indexes on FerretDB).

const id = { type: String, default: () => randomUUID() };

const TenantSchema = new Schema(
	{ _id: id, name: { type: String, required: true }, created_at: { type: Date, required: true } },
	{ versionKey: false },
);

const UserSchema = new Schema(
	{
		_id: id,
		email: { type: String, required: true, unique: true },
		// The OpenID Connect identity bound at first sign-in; absent for an invited user.
		issuer: { type: String, default: null },
		subject: { type: String, default: null },
		identity: { type: String, required: true },
		created_at: { type: Date, required: true },
	},
	{ versionKey: false },
);
// "issuer|subject" once bound, "unbound:<id>" before: a unique index rejects binding one
// identity to two users without needing a partial index (FerretDB has none).
UserSchema.index({ identity: 1 }, { unique: true });

const MembershipSchema = new Schema(
	{
		_id: id,
		tenant_id: { type: String, required: true },
		user_id: { type: String, required: true },
		role: { type: String, enum: ["owner", "member"], default: "member" },
		status: { type: String, enum: ["active", "disabled"], default: "active" },
		last_used_at: { type: Date, default: null },
		created_at: { type: Date, required: true },
	},
	{ versionKey: false },
);
MembershipSchema.index({ user_id: 1, tenant_id: 1 }, { unique: true });
MembershipSchema.index({ tenant_id: 1 });

const SessionSchema = new Schema(
	{
		_id: id,
		token_hash: { type: String, required: true, unique: true },
		user_id: { type: String, required: true },
		tenant_id: { type: String, required: true },
		created_at: { type: Date, required: true },
		expires_at: { type: Date, required: true },
		ended_at: { type: Date, default: null },
		// One of the account's SESSIONS_PER_ACCOUNT places while live (places.ts); absent once ended.
		place: { type: String },
	},
	{ versionKey: false },
);
SessionSchema.index({ expires_at: 1 });
SessionSchema.index({ place: 1 }, PLACE_INDEX);

const ApiKeySchema = new Schema(
	{
		_id: id,
		tenant_id: { type: String, required: true },
		membership_id: { type: String, required: true },
		name: { type: String, required: true },
		secret_hash: { type: String, required: true, unique: true },
		display_suffix: { type: String, required: true },
		scopes: { type: [String], default: [] },
		expires_at: { type: Date, default: null },
		revoked_at: { type: Date, default: null },
		last_used_at: { type: Date, default: null },
		created_at: { type: Date, required: true },
		// One of the company's API_KEYS_PER_COMPANY places while active (places.ts); absent once revoked.
		place: { type: String },
	},
	{ versionKey: false },
);
ApiKeySchema.index({ tenant_id: 1, created_at: -1 });
ApiKeySchema.index({ place: 1 }, PLACE_INDEX);

export type Tenant = InferSchemaType<typeof TenantSchema>;
export type User = InferSchemaType<typeof UserSchema>;
export type Membership = InferSchemaType<typeof MembershipSchema>;
export type Session = InferSchemaType<typeof SessionSchema>;
export type ApiKeyDoc = InferSchemaType<typeof ApiKeySchema>;

export interface AuthModels {
	tenants: Model<Tenant>;
	users: Model<User>;
	memberships: Model<Membership>;
	sessions: Model<Session>;
	apiKeys: Model<ApiKeyDoc>;
}

export function authModels(conn: Connection): AuthModels {
	return {
		tenants: conn.model("Tenant", TenantSchema, "tenants"),
		users: conn.model("User", UserSchema, "users"),
		memberships: conn.model("Membership", MembershipSchema, "memberships"),
		sessions: conn.model("Session", SessionSchema, "sessions"),
		apiKeys: conn.model("ApiKey", ApiKeySchema, "api_keys"),
	};
}
