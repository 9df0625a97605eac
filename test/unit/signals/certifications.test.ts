import { describe, expect, it } from "vitest";
import { extractSignals } from "../../../services/matching/signals/extract.ts";
import { goods, notice } from "./helpers.ts";

const certs = (sentence: string) => [...extractSignals(goods(sentence)).mandatory_certifications].sort();

describe("mandatory_certifications: mandatory mentions, normalized", () => {
	it.each([
		["All laptops must be TAA compliant and EPEAT Gold registered.", ["EPEAT", "TAA"]],
		["Offered products shall comply with the Trade Agreements Act.", ["TAA"]],
		["The contractor shall maintain ISO 9001:2015 certification throughout performance.", ["ISO 9001"]],
		["The hosting provider must be certified to ISO 27001.", ["ISO/IEC 27001"]],
		["Calibration must be performed by a laboratory accredited to ISO/IEC 17025.", ["ISO/IEC 17025"]],
		["Cryptographic modules must be validated under FIPS 140-3.", ["FIPS 140-3"]],
		["Self-encrypting drives shall be FIPS 140-2 validated.", ["FIPS 140-2"]],
		["The cloud service must hold a FedRAMP Moderate authorization.", ["FedRAMP"]],
		["The offeror must have achieved CMMC Level 2 certification before award.", ["CMMC Level 2"]],
		["Each unit shall be UL listed.", ["UL"]],
		["Electrical components must be certified to UL 61010-1.", ["UL"]],
		["Monitors must be ENERGY STAR certified.", ["ENERGY STAR"]],
		["Web content delivered must conform to Section 508 accessibility standards.", ["Section 508"]],
		["All cameras must comply with Section 889 of the FY2019 NDAA.", ["NDAA Section 889"]],
		["Respirators must be NIOSH-approved N95 devices.", ["NIOSH"]],
		["Gloves shall be FDA 510(k) cleared.", ["FDA 510(k)"]],
		["The Buy American Act applies; only domestic end products will be accepted.", ["Buy American"]],
		["Radios must be listed on the P25 Compliance Assessment Program (CAP) approved equipment list.", ["P25 CAP"]],
		["Helmets must be certified to NFPA 1971.", ["NFPA 1971"]],
		["At least one engineer must be a Juniper Networks Certified Internet Expert.", ["Juniper Networks Certified Internet Expert"]],
		["Technicians must hold a current CCNP Security certification.", ["CCNP Security"]],
		["Vests must be certified to NIJ Standard 0101.07 Level IIIA.", ["NIJ Level IIIA"]],
		["The provider must hold SOC 2 Type II attestation and comply with NIST SP 800-171.", ["NIST SP 800-171", "SOC 2 Type II"]],
		["Elevator mechanics must hold QEI certification.", ["QEI"]],
		["Beds must be certified to EN ISO 13485 and EN 60601-1.", ["EN 60601-1", "ISO 13485"]],
	])("%s -> %j", (sentence, expected) => {
		expect(certs(sentence)).toEqual([...expected].sort());
	});

	it("a requirement list line counts without a modal verb", () => {
		const input = notice({
			title: "Office Monitors",
			description: "Minimum requirements:\n- 27-inch IPS panel, 2560 x 1440\n- ENERGY STAR qualified\n- Three-year warranty",
		});
		expect(extractSignals(input).mandatory_certifications).toEqual(["ENERGY STAR"]);
	});
});

describe("mandatory_certifications: what is left out", () => {
	it("preferred, desirable or scored items", () => {
		expect(certs("ISO 14001 certification is preferred but not required.")).toEqual([]);
		expect(certs("Vendors holding EPEAT Silver registration will receive additional evaluation credit.")).toEqual([]);
		expect(certs("Monitors must be ENERGY STAR certified; EPEAT registration is desirable.")).toEqual(["ENERGY STAR"]);
	});

	it("either/or alternatives", () => {
		expect(certs("The supplier must be certified to ISO 9001 or AS9100.")).toEqual([]);
		expect(certs("Products shall be UL listed or ETL listed.")).toEqual([]);
		expect(certs("Either ISO 9001 or ISO 13485 registration is acceptable.")).toEqual([]);
		expect(certs("Packaging must carry the Blue Angel label or an equivalent eco-label.")).toEqual([]);
		expect(certs("Encryption modules must be FIPS 140-2/140-3 validated.")).toEqual([]);
		expect(certs("The firm must hold ISO 9001, AS9100, or an equivalent quality registration.")).toEqual([]);
		expect(certs("Chemicals must be Green Seal certified or EPA Safer Choice labeled.")).toEqual([]);
	});

	it("an 'or equal' that belongs to the product does not void the regime", () => {
		expect(certs("All switches must be TAA compliant, Acme NetSwitch 4800 or equal.")).toEqual(["TAA"]);
	});

	it("specification and test standards, licences and insurance", () => {
		expect(certs("Units must be tested to MIL-STD-810H and rated IP67; enclosures shall meet NEMA 4X.")).toEqual([]);
		expect(certs("The contractor must hold a valid state electrical contractor license and carry general liability insurance.")).toEqual(
			[],
		);
		expect(certs("Test methods shall follow ASTM D6319; the projector must reach 5,000 ISO lumens.")).toEqual([]);
		expect(certs("Switches must support IEEE 802.3at PoE+ and IEEE 1588 precision time.")).toEqual([]);
	});

	it("a regime declared inapplicable, a superseded standard, a clause title", () => {
		expect(certs("Section 508 does not apply to this acquisition.")).toEqual([]);
		expect(certs("Coats must comply with NFPA 1970, which replaces the former NFPA 1971.")).toEqual(["NFPA 1970"]);
		expect(certs("Clauses incorporated by reference: FAR 52.225-1, Buy American-Supplies.")).toEqual([]);
	});

	it("market research notices demand nothing", () => {
		const input = notice({
			title: "Sources Sought: Encrypted Radios",
			description: "This is a sources sought notice. Radios would need FIPS 140-2 validated encryption and P25 CAP listing.",
		});
		expect(extractSignals(input).mandatory_certifications).toEqual([]);
	});
});
