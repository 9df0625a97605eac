import type { CompanyProfile } from "../../shared/contract/catalog.ts";
import type { Signals } from "../../shared/contract/opportunities.ts";

// Whether the company may bid, from the notice's signals and its profile: set-asides held,
// company certifications held and unexpired, and an authorized partner when the buyer wants
// OEM authorization proof. Product compliance regimes (TAA, Section 508, ENERGY STAR...) are
// properties of what is offered, not of the company, so they do not decide eligibility.

const PRODUCT_REGIMES =
	/^(taa|trade agreements act|section 508|energy star|epeat|buy american|baa|ndaa|fips|ul|etl|ce|fcc|rohs|reach|niosh|fda|nist|common criteria|tempest|jitc|dod uc apl|ipv6|wcag)/i;

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** A held certification satisfies a required one when one name starts with the other ("ISO 9001" and "ISO 9001:2015"). */
function holds(profile: CompanyProfile, required: string, now: Date): boolean {
	const r = norm(required);
	return profile.certifications.some((c) => {
		const h = norm(c.name);
		const valid = !c.expires_at || Date.parse(c.expires_at) > now.getTime();
		return valid && h.length > 0 && (h.startsWith(r) || r.startsWith(h));
	});
}

export interface Eligibility {
	eligible: boolean;
	reasons: string[];
	/** The company may not bid at all (a set-aside it does not hold, restricted competition). */
	barred: boolean;
}

/**
 * `openCall`: the notice is restricted, but by a procedure that published a call for competition,
 * so the company may ask to take part: a note, not a bar.
 */
export function judgeEligibility(
	signals: Signals | null,
	profile: CompanyProfile | null,
	hasAuthorizedProduct: boolean,
	openCall = false,
	now = new Date(),
): Eligibility {
	if (!signals) return { eligible: true, reasons: [], barred: false };
	const reasons: string[] = [];
	const held = new Set(profile?.set_asides ?? []);
	const smallBusiness = held.size > 0; // every set-aside status the profile can hold is a small business one
	switch (signals.bid_eligibility) {
		case "small_business":
			if (!smallBusiness) reasons.push("small business set-aside; the profile holds no small business status");
			break;
		case "8a":
		case "hubzone":
		case "sdvosb":
		case "wosb":
			if (!held.has(signals.bid_eligibility)) reasons.push(`${signals.bid_eligibility} set-aside; the profile does not hold it`);
			break;
		case "other_set_aside":
			reasons.push("set aside for a kind of business the profile cannot show");
			break;
		case "restricted":
			if (!openCall)
				reasons.push("restricted competition (sole source, direct award, brand name only, incumbent or a framework's members)");
			break;
	}
	const barred = reasons.length > 0;
	for (const cert of signals.mandatory_certifications) {
		if (PRODUCT_REGIMES.test(cert)) continue;
		if (!profile || !holds(profile, cert, now)) reasons.push(`requires ${cert}, which the profile does not hold (or it has expired)`);
	}
	if (signals.requires_oem_documentation && !hasAuthorizedProduct)
		reasons.push("requires proof of OEM authorization; no authorized partner's product matched");
	const eligible = reasons.length === 0;
	// Worth knowing, not a bar: the company must ask to take part before it can bid.
	if (openCall) reasons.push("restricted procedure with a published call for competition: ask to take part before the deadline");
	return { eligible, reasons, barred };
}
