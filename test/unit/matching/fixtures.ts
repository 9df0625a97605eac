import type { NoticeView, ProductView } from "../../../services/matching/method/types.ts";

// Small, invented catalog entries and notices for unit tests (no dev-set text).

let n = 0;

export function product(overrides: Partial<ProductView> = {}): ProductView {
	n++;
	return {
		tenantId: "tenant-a",
		productId: `p${String(n).padStart(4, "0")}`,
		partnerId: "norvik",
		oemName: "Norvik Networks",
		partnerAuthorized: true,
		name: "Norvik Stratus 7400 48-port PoE+ Access Switch",
		model: "NX7400-48P-A",
		description: "Stackable enterprise access switch with 48 PoE+ ports and 4 x 10G SFP+ uplinks.",
		commodityCodes: ["43222612"],
		specs: [
			{ key: "ports", value: "48 x 1G PoE+" },
			{ key: "uplinks", value: "4 x 10G SFP+" },
		],
		repStatus: "carried",
		status: "active",
		...overrides,
	};
}

export function notice(overrides: Partial<NoticeView> = {}): NoticeView {
	n++;
	return {
		noticeId: `n${String(n).padStart(4, "0")}`,
		title: "Supply of PoE+ Access Switches",
		description:
			"The county requires network access switches for its branch libraries. Any manufacturer's product may be offered if it meets the requirements.",
		items: [
			{
				description: "48-port PoE+ access switch with 10G SFP+ uplinks",
				quantity: 12,
				unit: "each",
				classification: { scheme: "UNSPSC", code: "43222612" },
			},
		],
		categories: [{ scheme: "UNSPSC", code: "43222612" }],
		issuingBody: "County of Example",
		...overrides,
	};
}

/** The features of a rationale, by name. */
export const features = (r: { rationale: { feature: string }[] }) => r.rationale.map((e) => e.feature);
