import type { FitRow } from "../../../services/matching/method/fit.ts";
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

/** A stationary VRLA battery (UNSPSC 26111701), for the tests of variants of its kind. */
export const vrlaBattery = () =>
	product({
		name: "Sentinel SBS 190F VRLA battery",
		model: "SBS190F",
		oemName: "Sentinel",
		description: "12 V valve-regulated lead-acid battery for telecom and UPS systems.",
		commodityCodes: ["26111701"],
		specs: [],
	});

/** An ultra-low temperature laboratory freezer, uncoded, for the tests of qualified freezers. */
export const ultFreezer = () =>
	product({
		oemName: "Thermo Fisher",
		name: "Thermo Scientific TSX Series -80 °C ultra-low temperature freezer, 570 L",
		model: "TSX70086V",
		description: "Upright ultra-low temperature freezer for sample storage.",
		commodityCodes: [],
		specs: [],
	});

/** One (company, notice) row for the weight fit, with no company-level step unless given. */
export const fitRow = (over: Partial<FitRow>): FitRow => ({
	tenantId: "t",
	noticeId: "n",
	grade: 0,
	products: [],
	breadth: 0,
	companyFactors: {},
	barredFactor: 1,
	recordMin: 0,
	...over,
});
