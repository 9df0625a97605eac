import { randomUUID } from "node:crypto";
import type { Membership as MembershipOut } from "../../shared/contract/auth.ts";
import { ApiError } from "../../shared/errors.ts";
import type { AuthMemory } from "./auth-memory.ts";
import type { AuthModels } from "./models.ts";

// Tenants, users and memberships: who may act for which company.

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Tenants are never deleted, so an active membership is enough to act for its company. */
export async function activeMembership(m: AuthModels, membershipId: string) {
	return m.memberships.findOne({ _id: membershipId, status: "active" }).lean();
}

/** The user's membership in a tenant, or no_membership / membership_disabled. */
export async function requireMembership(m: AuthModels, userId: string, tenantId: string) {
	const ms = await m.memberships.findOne({ user_id: userId, tenant_id: tenantId }).lean();
	if (!ms || !(await m.tenants.exists({ _id: tenantId })))
		throw new ApiError("no_membership", "This account has no membership in the selected company");
	if (ms.status !== "active") throw new ApiError("membership_disabled", "This account's membership in the selected company is disabled");
	return ms;
}

/** The most recently used active membership (the default company at sign-in). */
export async function defaultMembership(m: AuthModels, userId: string) {
	const all = await m.memberships.find({ user_id: userId }).sort({ last_used_at: -1, created_at: -1, _id: 1 }).lean();
	if (all.length === 0) throw new ApiError("no_membership", "This account has no membership in any company");
	const active = all.find((x) => x.status === "active");
	if (!active) throw new ApiError("membership_disabled", "Every membership of this account is disabled");
	return active;
}

/** auth-memory.ts's memory, and the stamp read for the request being answered. */
export interface Remembered {
	memory: AuthMemory;
	stamp: string | null;
}

/**
 * Every company the account can act for (active memberships), by name. With `remembered`, from
 * memory while no membership has changed since it was read (auth-memory.ts).
 */
export async function membershipsOf(m: AuthModels, userId: string, remembered?: Remembered): Promise<MembershipOut[]> {
	const { memory, stamp } = remembered ?? { memory: undefined, stamp: null };
	const known = memory?.memberships.get(userId, stamp);
	if (known) return known;
	const ms = await m.memberships.find({ user_id: userId, status: "active" }).sort({ created_at: 1, _id: 1 }).lean();
	const names = await tenantNames(
		m,
		ms.map((x) => x.tenant_id),
	);
	const list = ms.map((x) => ({ tenantId: x.tenant_id, tenantName: names.get(x.tenant_id) ?? null }));
	memory?.memberships.set(userId, stamp, list);
	return list;
}

/** A user's email (it never changes once the user exists), from memory when known. */
export async function emailOf(m: AuthModels, { memory, stamp }: Remembered, userId: string): Promise<string | null> {
	const known = memory.emails.get(userId, stamp);
	if (known !== undefined) return known;
	const email = (await m.users.findById(userId, { email: 1 }).lean())?.email ?? null;
	if (email !== null) memory.emails.set(userId, stamp, email);
	return email;
}

// Company names are display data read on every /me; a short-lived copy spares the database.
// Nothing that decides access is cached.
const NAME_TTL_MS = 30_000;
const nameCache = new Map<string, { name: string | null; at: number }>();

async function tenantNames(m: AuthModels, ids: string[]): Promise<Map<string, string | null>> {
	const now = Date.now();
	const out = new Map<string, string | null>();
	const missing: string[] = [];
	for (const id of ids) {
		const hit = nameCache.get(id);
		if (hit && now - hit.at < NAME_TTL_MS) out.set(id, hit.name);
		else missing.push(id);
	}
	if (missing.length) {
		for (const t of await m.tenants.find({ _id: { $in: missing } }).lean()) {
			out.set(t._id, t.name);
			if (nameCache.size > 10_000) nameCache.clear();
			nameCache.set(t._id, { name: t.name, at: now });
		}
	}
	return out;
}

export async function tenantName(m: AuthModels, tenantId: string): Promise<string | null> {
	return (await tenantNames(m, [tenantId])).get(tenantId) ?? null;
}

/** Finds or creates the user for an email (not yet bound to an identity). */
async function userForEmail(m: AuthModels, email: string) {
	const existing = await m.users.findOne({ email }).lean();
	if (existing) return existing;
	try {
		const _id = randomUUID();
		return (await m.users.create({ _id, email, identity: `unbound:${_id}`, created_at: new Date() })).toObject();
	} catch (e) {
		const again = await m.users.findOne({ email }).lean();
		if (again) return again;
		throw e;
	}
}

/** A tenant with its owner's active membership (CLI and tests); the owner's memberships list changes. */
export async function createTenant(m: AuthModels, memory: AuthMemory, name: string, ownerEmail: string) {
	const user = await userForEmail(m, normalizeEmail(ownerEmail));
	const tenant = await m.tenants.create({ name, created_at: new Date() });
	const membership = await m.memberships.create({
		tenant_id: tenant._id,
		user_id: user._id,
		role: "owner",
		status: "active",
		created_at: new Date(),
	});
	await memory.changed("grant");
	return { tenantId: tenant._id, userId: user._id, membershipId: membership._id };
}

/**
 * Adds (or re-enables / disables) a member; used by the CLI and tests. Every process forgets what
 * it remembered before this answers, so a disabled member is refused on the very next request.
 */
export async function setMembership(m: AuthModels, memory: AuthMemory, tenantId: string, email: string, status: "active" | "disabled") {
	if (!(await m.tenants.exists({ _id: tenantId }))) throw new ApiError("not_found", "Tenant not found");
	const user = await userForEmail(m, normalizeEmail(email));
	const existing = await m.memberships.findOne({ tenant_id: tenantId, user_id: user._id });
	if (existing) existing.status = status;
	const doc = existing ?? new m.memberships({ tenant_id: tenantId, user_id: user._id, status, created_at: new Date() });
	await doc.save();
	await memory.changed(status === "active" ? "grant" : "revocation");
	return doc.toObject();
}

/** The company's contact email: its first active owner's, else its first active member's. */
export async function contactEmail(m: AuthModels, tenantId: string): Promise<string | null> {
	const ms = await m.memberships.find({ tenant_id: tenantId, status: "active" }).sort({ created_at: 1, _id: 1 }).lean();
	const pick = ms.find((x) => x.role === "owner") ?? ms[0];
	if (!pick) return null;
	return (await m.users.findById(pick.user_id, { email: 1 }).lean())?.email ?? null;
}
