import { randomBytes } from "node:crypto";
import type { AuthContext } from "../../shared/auth-context.ts";
import type { AuthAnswer } from "../../shared/contract/internal/auth-keys-actions.ts";
import { config } from "../../shared/config.ts";
import type { SessionRecord } from "../../shared/contract/auth.ts";
import { SCOPE_VALUES } from "../../shared/contract/scopes.ts";
import { ApiError } from "../../shared/errors.ts";
import { isDuplicateKeyError } from "../../shared/mongo.ts";
import { defaultMembership, membershipsOf, requireMembership, tenantName } from "./directory.ts";
import type { Identity } from "./id-tokens.ts";
import type { AuthModels } from "./models.ts";
import { sha256 } from "../../shared/hash.ts";
import { createWithinCap, GIVE_BACK_PLACE } from "./places.ts";
import type { AuthMemory } from "./auth-memory.ts";

// Browser sessions: an opaque id in an HttpOnly cookie, only its hash stored.

/** The user an identity signs in as: bound by (issuer, subject), first bound through the email. */
async function userForIdentity(m: AuthModels, id: Identity) {
	const identity = `${id.issuer}|${id.subject}`;
	const bound = await m.users.findOne({ identity }).lean();
	if (bound) return bound;
	const byEmail = await m.users.findOne({ email: id.email }).lean();
	// Bound between the two reads by a concurrent sign-in of the same identity: that is this user.
	if (byEmail && byEmail.identity === identity) return byEmail;
	if (byEmail && !byEmail.identity.startsWith("unbound:")) {
		throw new ApiError("identity_conflict", "This email address is already bound to another identity");
	}
	if (byEmail) {
		const updated = await m.users
			.findOneAndUpdate(
				{ _id: byEmail._id, identity: byEmail.identity },
				{ $set: { issuer: id.issuer, subject: id.subject, identity } },
				{ new: true },
			)
			.lean();
		if (updated) return updated;
		return userForIdentity(m, id); // raced with another sign-in: read what it bound
	}
	try {
		return (await m.users.create({ email: id.email, issuer: id.issuer, subject: id.subject, identity, created_at: new Date() })).toObject();
	} catch (e) {
		if (isDuplicateKeyError(e)) return userForIdentity(m, id);
		throw e;
	}
}

export interface SignIn {
	record: SessionRecord;
	token: string;
	maxAgeSeconds: number;
}

export async function signIn(m: AuthModels, identity: Identity, selectTenant?: string): Promise<SignIn> {
	const user = await userForIdentity(m, identity);
	const membership = selectTenant ? await requireMembership(m, user._id, selectTenant) : await defaultMembership(m, user._id);
	const now = new Date();
	const c = config();
	const ttlMs = c.SESSION_TTL_HOURS * 3600_000;
	const token = randomBytes(32).toString("base64url");
	const cap = c.SESSIONS_PER_ACCOUNT;
	const expires_at = new Date(now.getTime() + ttlMs);
	const created = await createWithinCap(
		{ model: m.sessions, owner: user._id, ownerField: "user_id", cap, live: { ended_at: null } },
		(place) =>
			m.sessions.create({
				token_hash: sha256(token),
				user_id: user._id,
				tenant_id: membership.tenant_id,
				created_at: now,
				expires_at,
				place,
			}),
	);
	if (!created) {
		const message = `This account already has ${cap} live sessions, the most allowed; sign out of one (DELETE /api/v1/session) or let one expire`;
		throw new ApiError("forbidden", message);
	}
	await m.memberships.updateOne({ _id: membership._id }, { $set: { last_used_at: now } });
	return {
		token,
		maxAgeSeconds: Math.floor(ttlMs / 1000),
		record: {
			user: { email: user.email },
			tenant: { id: membership.tenant_id, name: await tenantName(m, membership.tenant_id) },
			memberships: await membershipsOf(m, user._id),
		},
	};
}

const unauthorized = () => new ApiError("unauthorized", "Missing or invalid credential");

/**
 * The caller behind a session cookie hash, acting for the selected (or the session's) company:
 * from memory while nothing that could take access away has changed (auth-memory.ts), else from
 * the database; expiry is checked on every request. Refusals are never remembered.
 */
export async function verifySession(m: AuthModels, memory: AuthMemory, hash: string, selectTenant?: string): Promise<AuthAnswer> {
	const stamp = await memory.stamp();
	const memoKey = `session:${hash}|${selectTenant ?? ""}`;
	const known = memory.credentials.get(memoKey, stamp);
	if (known) {
		if (known.expiresAt! <= Date.now()) throw unauthorized();
		return { auth: { ...known.auth }, expiresAt: known.expiresAt };
	}
	const s = await m.sessions.findOne({ token_hash: hash }).lean();
	if (!s || s.ended_at || s.expires_at.getTime() <= Date.now()) throw unauthorized();
	const user = await m.users.findById(s.user_id).lean();
	if (!user) throw unauthorized();
	const membership = await requireMembership(m, s.user_id, selectTenant ?? s.tenant_id);
	const auth: AuthContext = {
		kind: "session",
		tenantId: membership.tenant_id,
		userId: s.user_id,
		membershipId: membership._id,
		scopes: [...SCOPE_VALUES],
		sessionId: s._id,
		email: user.email,
	};
	const answer = { auth, expiresAt: s.expires_at.getTime() };
	memory.credentials.set(memoKey, stamp, answer);
	return answer;
}

/** Ends the session; every process forgets what it remembered before this answers. */
export async function endSession(m: AuthModels, memory: AuthMemory, sessionId: string): Promise<void> {
	// The session gives its place under the cap back in the same update that ends it.
	await m.sessions.updateOne({ _id: sessionId, ended_at: null }, { $set: { ended_at: new Date() }, ...GIVE_BACK_PLACE });
	await memory.changed("revocation");
}

/** Sessions past their expiry are deleted in code (no TTL indexes on FerretDB). */
export async function purgeExpiredSessions(m: AuthModels): Promise<number> {
	const r = await m.sessions.deleteMany({ expires_at: { $lt: new Date(Date.now() - 24 * 3600_000) } });
	return r.deletedCount;
}

export function sessionCookie(name: string, token: string, maxAgeSeconds: number): string {
	return `${name}=${token}; Path=/api; HttpOnly; Secure; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}
export function clearedCookie(name: string): string {
	return `${name}=; Path=/api; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}
