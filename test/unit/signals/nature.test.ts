import { describe, expect, it } from "vitest";
import { extractSignals } from "../../../services/matching/signals/extract.ts";
import { notice } from "./helpers.ts";

const nature = (parts: Parameters<typeof notice>[0]) => extractSignals(notice(parts)).procurement_nature;

describe("procurement_nature", () => {
	it("maintenance of an OEM's equipment is services, not goods", () => {
		expect(
			nature({
				title: "Preventive Maintenance and Repair of Acme MRI Scanners",
				description:
					"The medical center requires preventive maintenance, emergency repair and software updates for two Acme Magna " +
					"3T MRI scanners for one base year and four option years. Replacement parts are included in the service price.",
				items: [{ description: "Acme Magna 3T scanner maintenance, base year", quantity: 12, unit: "month" }],
			}),
		).toBe("services");
	});

	it("installation of buyer-furnished equipment is services", () => {
		expect(
			nature({
				title: "Installation of Government-Furnished Access Control Panels",
				description:
					"The contractor shall install government-furnished card readers and door controllers at three buildings. No equipment is being purchased under this order.",
			}),
		).toBe("services");
	});

	it("training, disposal and leases on a product are services", () => {
		expect(
			nature({
				title: "Administrator Training for Acme Firewalls",
				description: "Instructor-led training for eight network staff, five days.",
			}),
		).toBe("services");
		expect(
			nature({
				title: "Disposal of Surplus Laboratory Freezers",
				description: "Remove and recycle twenty freezers; recover refrigerants.",
			}),
		).toBe("services");
		expect(
			nature({
				title: "Copier Lease with Maintenance, 48 Months",
				description: "Lease of twenty multifunction devices on a cost-per-copy basis.",
			}),
		).toBe("services");
	});

	it("renovation and building work are construction", () => {
		expect(
			nature({
				title: "Renovation of Building 12 Restrooms",
				description:
					"Demolition of existing finishes, new plumbing fixtures and ADA upgrades. Performance and payment bonds are required; Davis-Bacon wage rates apply.",
			}),
		).toBe("construction");
		expect(
			nature({
				title: "Bid Package 3",
				description:
					"Work includes site work, foundations and steel erection. A bid bond of 5% is required and the notice to proceed will follow award. Construction must finish in 240 days.",
				categories: [
					{ scheme: "NAICS", code: "236220" },
					{ scheme: "UNSPSC", code: "72121400" },
				],
			}),
		).toBe("construction");
	});

	it("supply with incidental installation is goods; with substantial services it is mixed", () => {
		// Documented rule: delivery, installation, commissioning and user training are incidental.
		expect(
			nature({
				title: "Supply and Installation of Laboratory Fume Hoods",
				description: "Supply, delivery, installation and commissioning of six ducted fume hoods, with operator training.",
			}),
		).toBe("goods");
		expect(
			nature({
				title: "Storage Array Replacement",
				description:
					"Replace the primary storage array. The contractor shall provide the array, professional services for data " +
					"migration from the legacy platform, removal of the existing array, and five years of on-site maintenance.",
			}),
		).toBe("mixed");
	});

	it("a product purchase is goods, and 'supply only' keeps it goods", () => {
		expect(nature({ title: "Purchase of Forty Laptop Computers", description: "Forty 14-inch laptops with docking stations." })).toBe(
			"goods",
		);
		expect(
			nature({
				title: "Security Cameras",
				description: "Supply only; installation will be performed by the county's maintenance contractor under a separate agreement.",
			}),
		).toBe("goods");
		expect(nature({ title: "9mm Training Ammunition", description: "Frangible training cartridges, 500,000 rounds." })).toBe("goods");
	});

	it("codes decide when the title is silent", () => {
		expect(
			nature({
				title: "Requirement 2027-114",
				description: "See attached statement of work.",
				categories: [{ scheme: "UNSPSC", code: "81112200" }],
			}),
		).toBe("services");
		expect(
			nature({ title: "Requirement 2027-115", description: "See attached list.", categories: [{ scheme: "PSC", code: "6515" }] }),
		).toBe("goods");
	});

	it("reads a SAM.gov PSC prefix in the title as a code", () => {
		expect(
			nature({
				title: "Z--Repair Parking Garage Deck, Building 5",
				description: "Concrete repair of the parking garage deck; performance and payment bonds are required.",
			}),
		).toBe("construction");
	});

	it("warranty extensions, managed services and overhauls are services", () => {
		expect(nature({ title: "Server Warranty Extension", description: "Extend hardware support for 44 servers by 36 months." })).toBe(
			"services",
		);
		expect(nature({ title: "Managed Detection and Response", description: "24x7 monitoring of 3,000 endpoints." })).toBe("services");
		expect(nature({ title: "Overhaul of Two Diesel Generators", description: "Top-end overhaul and load testing." })).toBe("services");
		expect(nature({ title: "Managed Layer 3 Switches", description: "Forty 24-port switches." })).toBe("goods");
	});

	it("a title that buys goods and an ongoing service is mixed", () => {
		expect(
			nature({
				title: "Supply and Maintenance of Photocopiers",
				description: "Twenty photocopiers and a three-year maintenance contract.",
			}),
		).toBe("mixed");
	});

	it("an empty notice is unknown", () => {
		expect(nature({})).toBe("unknown");
	});
});
