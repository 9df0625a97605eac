import { describe, expect, it } from "vitest";
import { extractSignals } from "../../../services/matching/signals/extract.ts";
import { goods, notice } from "./helpers.ts";

const doc = (sentence: string) => extractSignals(goods(sentence)).requires_oem_documentation;
const mfr = (sentence: string) => extractSignals(goods(sentence)).requires_manufacturer;

describe("requires_oem_documentation", () => {
	it.each([
		"Quoters shall submit a Letter of Authorization from the OEM with their quote.",
		"An LOA from the manufacturer is required; quotes without one are non-responsive.",
		"A reseller authorization letter issued by the manufacturer must accompany the bid.",
		"Vendors must provide documentation demonstrating that they are an authorized partner of the manufacturer.",
		"Bids must include evidence that the bidder is an authorized Acme Cooling distributor.",
		"Offerors must be authorized resellers of the proposed equipment.",
		"The vendor must be an authorized Acme Systems channel partner and include a letter from Acme confirming authorization.",
		"Offerors must be the manufacturer or an authorized reseller.",
		"Proof of authorized dealer status is required at the time of quote submission.",
	])("%s -> true", (sentence) => {
		expect(doc(sentence)).toBe(true);
	});

	it.each([
		"All units must carry the full manufacturer warranty.",
		"Products must comply with Section 889 of the National Defense Authorization Act.",
		"Technicians should be factory trained on the installed equipment.",
		"Brand name or equal: Acme CoolLab 500 or equal.",
		"Quotes must be signed by an authorized representative of the offeror.",
	])("%s -> false", (sentence) => {
		expect(doc(sentence)).toBe(false);
	});

	it("a sources-sought question about channel status demands nothing", () => {
		const input = notice({
			title: "Request for Information - Network Appliances",
			description:
				"This is a request for information only. Respondents should state whether they are the manufacturer or an authorized reseller and provide a letter of authorization if available.",
		});
		expect(extractSignals(input).requires_oem_documentation).toBe(false);
	});
});

describe("requires_manufacturer", () => {
	it("a sole-source award to the OEM for its proprietary product is a purchase from the manufacturer", () => {
		const input = notice({
			title: "Notice of Intent to Award Sole Source - Analyzer Software Support",
			description:
				"The laboratory intends to award a sole source purchase order to Acme Analytics, Inc. " +
				"for software support of its analyzers. Acme Analytics is the original equipment manufacturer and the only " +
				"source of the proprietary firmware updates.",
		});
		const s = extractSignals(input);
		expect(s.requires_manufacturer).toBe(true);
		expect(s.bid_eligibility).toBe("restricted");
	});

	it.each([
		"The subscription is available only directly from the manufacturer.",
		"Licenses will only be accepted from the manufacturer; resellers are not eligible.",
	])("%s -> true", (sentence) => {
		expect(mfr(sentence)).toBe(true);
	});

	it.each([
		"Offerors must be an authorized reseller of the OEM and provide an LOA.",
		"Genuine OEM parts only; brand name only.",
		"Items shall be shipped directly from the manufacturer to the site.",
		"Offerors must be the manufacturer or an authorized reseller.",
	])("%s -> false", (sentence) => {
		expect(mfr(sentence)).toBe(false);
	});
});
