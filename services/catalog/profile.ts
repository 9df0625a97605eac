import type { CompanyProfile, SetAside, UpdateProfileBody } from "../../shared/contract/catalog.ts";
import { iso } from "../../shared/contract/common.ts";
import { isDuplicateKeyError } from "../../shared/mongo.ts";
import type { CatalogModels, ProfileDoc } from "./models.ts";
import { authorizedPartnerNames } from "./partners.ts";

// The company profile: what matching needs to judge eligibility. manufacturer_partners is not
// stored here but read from the partners, so it can never disagree with them.

function toProfile(d: ProfileDoc | null, partners: string[]): CompanyProfile {
	return {
		company_name: d?.company_name ?? null,
		certifications: (d?.certifications ?? []).map((c) => ({ name: c.name, number: c.number ?? null, expires_at: iso(c.expires_at) })),
		set_asides: (d?.set_asides ?? []) as SetAside[],
		naics_codes: d?.naics_codes ?? [],
		places_served: d?.places_served ?? [],
		manufacturer_partners: partners,
		updated_at: iso(d?.updated_at),
	};
}

/** A company that never saved its profile gets an empty one (company_name null, no lists). */
export async function getProfile(m: CatalogModels, tenantId: string): Promise<CompanyProfile> {
	const [doc, partners] = await Promise.all([m.profiles.findById(tenantId).lean<ProfileDoc>(), authorizedPartnerNames(m, tenantId)]);
	return toProfile(doc, partners);
}

export async function updateProfile(m: CatalogModels, tenantId: string, body: UpdateProfileBody): Promise<CompanyProfile> {
	const { certifications, ...rest } = body;
	const set: Record<string, unknown> = { ...rest, updated_at: new Date() };
	if (certifications)
		set.certifications = certifications.map((c) => ({
			name: c.name,
			number: c.number ?? null,
			expires_at: c.expires_at ? new Date(c.expires_at) : null,
		}));
	const write = () => m.profiles.updateOne({ _id: tenantId }, { $set: set }, { upsert: true });
	// Two first saves at once: one inserts, the other's upsert collides and simply updates.
	await write().catch((e) => (isDuplicateKeyError(e) ? write() : Promise.reject(e)));
	return getProfile(m, tenantId);
}
