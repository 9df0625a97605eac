import { randomBytes, timingSafeEqual } from "node:crypto";
import type { AuthContext } from "../../shared/auth-context.ts";
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from "../../shared/contract/auth.ts";
import { iso } from "../../shared/contract/common.ts";
import type { Scope } from "../../shared/contract/scopes.ts";
import { config } from "../../shared/config.ts";
import { ApiError, notFound } from "../../shared/errors.ts";
import type { ApiKeyDoc, AuthModels } from "./models.ts";
import { activeMembership } from "./directory.ts";
import { sha256 } from "../../shared/hash.ts";
import { createWithinCap, GIVE_BACK_PLACE } from "./places.ts";
import type { AuthMemory, KnownCredential } from "./auth-memory.ts";
import { KEY_LAST_USED_RESOLUTION_MS } from "../../shared/auth-stamp.ts";
import type { AuthAnswer } from "../../shared/contract/internal/auth-keys-actions.ts";

// API keys: created and revoked by browser sessions, verified by hash on every request.

export const API_KEY_PREFIX = "oms_live_";

export function toApiKey(d: ApiKeyDoc & { _id: string }): ApiKey {
	return {
		id: d._id,
		name: d.name,
		display_suffix: d.display_suffix,
		scopes: d.scopes as Scope[],
		last_used_at: iso(d.last_used_at),
		expires_at: iso(d.expires_at),
		revoked_at: iso(d.revoked_at),
		created_at: iso(d.created_at)!,
	};
}

/** Refused beyond API_KEYS_PER_COMPANY active (neither revoked nor expired) keys, exactly, also under concurrent creates. */
export async function createKey(m: AuthModels, auth: AuthContext, body: CreateApiKeyBody): Promise<CreatedApiKey> {
	const secret = API_KEY_PREFIX + randomBytes(32).toString("base64url");
	const cap = config().API_KEYS_PER_COMPANY;
	const doc = await createWithinCap(
		{ model: m.apiKeys, owner: auth.tenantId, ownerField: "tenant_id", cap, live: { revoked_at: null } },
		(place) =>
			m.apiKeys.create({
				tenant_id: auth.tenantId,
				membership_id: auth.membershipId,
				name: body.name,
				secret_hash: sha256(secret),
				display_suffix: secret.slice(-4),
				scopes: body.scopes,
				expires_at: body.expiresAt ? new Date(body.expiresAt) : null,
				created_at: new Date(),
				place,
			}),
	);
	if (!doc) {
		throw new ApiError(
			"forbidden",
			`This company already has ${cap} active API keys, the most allowed; revoke one (DELETE /api/v1/api-keys/{id}) first`,
		);
	}
	return { key: toApiKey(doc.toObject()), secret };
}

export async function listKeys(m: AuthModels, tenantId: string): Promise<ApiKey[]> {
	const docs = await m.apiKeys.find({ tenant_id: tenantId }).sort({ created_at: -1, _id: 1 }).lean();
	return docs.map(toApiKey);
}

/**
 * Idempotent: a revoked key stays revoked at its first revocation time. Every process forgets
 * what it remembered before this answers (a repeat too, in case the first could not tell them).
 */
export async function revokeKey(m: AuthModels, memory: AuthMemory, tenantId: string, id: string): Promise<void> {
	// The key gives its place under the cap back in the same update that revokes it.
	const doc = await m.apiKeys.findOneAndUpdate(
		{ _id: id, tenant_id: tenantId, revoked_at: null },
		{ $set: { revoked_at: new Date() }, ...GIVE_BACK_PLACE },
	);
	if (!doc && !(await m.apiKeys.exists({ _id: id, tenant_id: tenantId }))) throw notFound("API key");
	await memory.changed("revocation");
}

const unauthorized = () => new ApiError("unauthorized", "Missing or invalid credential");

/**
 * The caller behind an API key hash. Answered from memory while nothing that could take access
 * away has changed since it was read (auth-memory.ts), else from the database; expiry is checked
 * on every request. A revocation or a lost membership takes effect on the very next request.
 */
export async function verifyKey(m: AuthModels, memory: AuthMemory, hash: string): Promise<AuthAnswer> {
	const stamp = await memory.stamp();
	const known = memory.credentials.get(`key:${hash}`, stamp);
	if (known) {
		const now = Date.now();
		if (known.expiresAt !== null && known.expiresAt <= now) throw unauthorized();
		if (now - (known.lastUsedAt ?? 0) >= KEY_LAST_USED_RESOLUTION_MS) {
			known.lastUsedAt = now;
			touchLastUsed(m, known.auth.apiKeyId!, now);
		}
		return { auth: { ...known.auth }, expiresAt: known.expiresAt };
	}
	const read = await readKey(m, hash);
	memory.credentials.set(`key:${hash}`, stamp, read);
	return { auth: read.auth, expiresAt: read.expiresAt };
}

async function readKey(m: AuthModels, hash: string): Promise<KnownCredential> {
	const key = await m.apiKeys.findOne({ secret_hash: hash }).lean();
	// The index lookup found it by hash; compare again in constant time before trusting it.
	if (!key || !timingSafeEqual(Buffer.from(key.secret_hash), Buffer.from(hash))) throw unauthorized();
	const now = Date.now();
	if (key.revoked_at || (key.expires_at && key.expires_at.getTime() <= now)) throw unauthorized();
	const membership = await activeMembership(m, key.membership_id);
	if (!membership || membership.tenant_id !== key.tenant_id) throw unauthorized();
	let lastUsedAt = key.last_used_at?.getTime() ?? 0;
	if (now - lastUsedAt >= KEY_LAST_USED_RESOLUTION_MS) {
		lastUsedAt = now;
		touchLastUsed(m, key._id, now);
	}
	const auth: AuthContext = {
		kind: "api_key",
		tenantId: key.tenant_id,
		userId: membership.user_id,
		membershipId: membership._id,
		scopes: key.scopes as Scope[],
		apiKeyId: key._id,
	};
	return { auth, expiresAt: key.expires_at?.getTime() ?? null, lastUsedAt };
}

/** At most once a minute per key, off the request's critical path. */
function touchLastUsed(m: AuthModels, id: string, now: number): void {
	const stale = new Date(now - KEY_LAST_USED_RESOLUTION_MS);
	m.apiKeys
		.updateOne({ _id: id, $or: [{ last_used_at: null }, { last_used_at: { $lt: stale } }] }, { $set: { last_used_at: new Date(now) } })
		.catch(() => {
			/* best effort: a missed last-use stamp is not worth failing a request */
		});
}
