import { randomUUID } from "node:crypto";
import type { Membership as MembershipOut } from "../../shared/contract/auth.ts";
import { ApiError } from "../../shared/errors.ts";
import type { AuthModels } from "./models.ts";

// Tenants, users and memberships: who may act for which company.

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function activeMembership(m: AuthModels, membershipId: string) {
	const ms = await m.memberships.findOne({ _id: membershipId, status: "active" }).lean();
	if (!ms || !(await m.tenants.exists({ _id: ms.tenant_id }))) return null;
	return ms;
}

/** The user's membership in a tenant, or no_membership / membership_disabled. */
export async function requireMembership(m: AuthModels, userId: string, tenantId: string) {
	const ms = await m.memberships.findOne({ user_id: userId, tenant_id: tenantId }).lean();
	if (!ms || !(await m.tenants.exists({ _id: tenantId }))) throw new ApiError("no_membership", "This account has no membership in the selected company");
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

/** Every company the account can act for (active memberships), by name. */
export async function membershipsOf(m: AuthModels, userId: string): Promise<MembershipOut[]> {
	const ms = await m.memberships.find({ user_id: userId, status: "active" }).sort({ created_at: 1, _id: 1 }).lean();
	const tenants = await m.tenants.find({ _id: { $in: ms.map((x) => x.tenant_id) } }).lean();
	const names = new Map(tenants.map((t) => [t._id, t.name]));
	return ms.filter((x) => names.has(x.tenant_id)).map((x) => ({ tenantId: x.tenant_id, tenantName: names.get(x.tenant_id) ?? null }));
}

export async function tenantName(m: AuthModels, tenantId: string): Promise<string | null> {
	return (await m.tenants.findById(tenantId).lean())?.name ?? null;
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

/** A tenant with its owner's active membership (CLI and tests). */
export async function createTenant(m: AuthModels, name: string, ownerEmail: string) {
	const user = await userForEmail(m, normalizeEmail(ownerEmail));
	const tenant = await m.tenants.create({ name, created_at: new Date() });
	const membership = await m.memberships.create({ tenant_id: tenant._id, user_id: user._id, role: "owner", status: "active", created_at: new Date() });
	return { tenantId: tenant._id, userId: user._id, membershipId: membership._id };
}

/** Adds (or re-enables / disables) a member; used by the CLI and tests. */
export async function setMembership(m: AuthModels, tenantId: string, email: string, status: "active" | "disabled") {
	if (!(await m.tenants.exists({ _id: tenantId }))) throw new ApiError("not_found", "Tenant not found");
	const user = await userForEmail(m, normalizeEmail(email));
	const existing = await m.memberships.findOne({ tenant_id: tenantId, user_id: user._id });
	if (existing) {
		existing.status = status;
		await existing.save();
		return existing.toObject();
	}
	return (await m.memberships.create({ tenant_id: tenantId, user_id: user._id, status, created_at: new Date() })).toObject();
}
