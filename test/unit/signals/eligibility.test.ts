import { describe, expect, it } from "vitest";
import { extractSignals } from "../../../services/matching/signals/extract.ts";
import { goods, notice } from "./helpers.ts";

const elig = (sentence: string) => extractSignals(goods(sentence)).bid_eligibility;

describe("bid_eligibility: set-asides", () => {
	it.each([
		["This solicitation is issued as a total small business set-aside under FAR 19.5.", "small_business"],
		["Set-Aside: Partial Small Business Set-Aside (FAR 19.502-3).", "small_business"],
		["Competition is restricted to small business concerns under NAICS 334290.", "small_business"],
		["The procurement is reserved for small businesses; large firms may not submit.", "small_business"],
		["This contract is set aside for participants in the SBA 8(a) Business Development Program.", "8a"],
		["This is a competitive 8(a) award under NAICS 541512.", "8a"],
		["Only HUBZone-certified small business concerns may submit offers.", "hubzone"],
		["The requirement is set aside for Historically Underutilized Business Zone firms.", "hubzone"],
		["This procurement is 100 percent set aside for service-disabled veteran-owned small business concerns.", "sdvosb"],
		["SDVOSB set-aside; offers from other than SDVOSB concerns will not be considered.", "sdvosb"],
		["This requirement is set aside for women-owned small businesses (WOSB) under the WOSB program.", "wosb"],
		["Set aside for economically disadvantaged women-owned small businesses (EDWOSB).", "wosb"],
		["Competition is restricted to veteran-owned small businesses verified in VetCert.", "other_set_aside"],
		["A VOSB/SDVOSB set-aside applies to this order.", "other_set_aside"],
		["This acquisition is set aside for Indian Small Business Economic Enterprises (ISBEE).", "other_set_aside"],
		["This is a reserved contract for supported employment providers.", "other_set_aside"],
	])("%s -> %s", (sentence, expected) => {
		expect(elig(sentence)).toBe(expected);
	});

	it("the most specific kind wins when a notice names a program and small business", () => {
		expect(elig("This acquisition is set aside for HUBZone small business concerns.")).toBe("hubzone");
	});

	it("a hypothetical or denied set-aside does not count", () => {
		expect(elig("If fewer than two quotes are received, the order may be re-solicited as a small business set-aside.")).toBe("unknown");
		expect(elig("This solicitation is not a set-aside; all vendors may respond.")).toBe("open");
		expect(elig("Women-owned and minority businesses are encouraged to participate.")).toBe("unknown");
	});

	it("a structured set-aside code wins over the text", () => {
		const input = goods("This is a full and open competition.");
		expect(extractSignals({ ...input, set_aside_code: "SDVOSBC" }).bid_eligibility).toBe("sdvosb");
		expect(extractSignals({ ...input, set_aside_code: "8A" }).bid_eligibility).toBe("8a");
		expect(extractSignals({ ...input, set_aside_code: "HZC" }).bid_eligibility).toBe("hubzone");
		expect(extractSignals({ ...input, set_aside_code: "EDWOSB" }).bid_eligibility).toBe("wosb");
		expect(extractSignals({ ...input, set_aside_code: "SBA" }).bid_eligibility).toBe("small_business");
		expect(extractSignals({ ...input, set_aside_code: "8AN" }).bid_eligibility).toBe("restricted");
		// An unknown code leaves the decision to the text.
		expect(extractSignals({ ...input, set_aside_code: "ZZZ" }).bid_eligibility).toBe("open");
	});

	it("reads the eligibility text field as well as the description", () => {
		expect(
			extractSignals(notice({ title: "Office Chairs", set_aside_text: "Total Small Business Set-Aside (FAR 19.5)" })).bid_eligibility,
		).toBe("small_business");
	});
});

describe("bid_eligibility: open, restricted, unknown", () => {
	it.each([
		"The acquisition will be conducted using full and open competition.",
		"This requirement will be competed on a full and open basis.",
		"This is an unrestricted procurement.",
		"The contract will be awarded following an open procedure.",
		"This invitation to bid is open to all qualified suppliers.",
		"All responsible sources may submit a quotation.",
		"Any qualified vendor may submit a bid.",
		"Set-Aside: None.",
	])("%s -> open", (sentence) => {
		expect(elig(sentence)).toBe("open");
	});

	it("a notice that says nothing about who may bid is unknown", () => {
		expect(elig("Each unit must hold at least 23 cubic feet.")).toBe("unknown");
	});

	it("brand name only restricts the product, not the bidders", () => {
		expect(elig("Brand name only: Acme CoolLab 500. No substitutes will be accepted.")).toBe("unknown");
		expect(elig("Brand name or equal: Acme CoolLab 500 or equal.")).toBe("unknown");
	});

	it("sole source, incumbent-only and other-than-full-and-open are restricted", () => {
		expect(
			elig("The agency intends to negotiate on a sole-source basis with Acme Instruments, the only firm able to service the units."),
		).toBe("restricted");
		expect(elig("The agency plans to issue this order on a noncompetitive basis.")).toBe("restricted");
		expect(elig("Competition is limited to the incumbent contractor.")).toBe("restricted");
		expect(elig("This acquisition is conducted using other than full and open competition under FAR 6.302-1.")).toBe("restricted");
		expect(
			extractSignals(
				notice({
					title: "Notice of Intent to Sole Source - Analyzer Service Agreement",
					description: "The office intends to award a contract to the manufacturer.",
				}),
			).bid_eligibility,
		).toBe("restricted");
	});

	it("a denied sole source is not restricted", () => {
		expect(elig("This is not a sole source requirement; full and open competition applies.")).toBe("open");
	});

	it("a brand-name justification on a set-aside keeps the set-aside", () => {
		expect(elig("Brand name only; a sole source justification is attached. This is a total small business set-aside.")).toBe(
			"small_business",
		);
	});

	it("a sources-sought notice is unknown even when it lists set-aside programs", () => {
		const input = notice({
			title: "Sources Sought - Portable Generators",
			description:
				"This is a sources sought notice for market research purposes only. " +
				"Respondents should state their socioeconomic status (small business, 8(a), HUBZone, SDVOSB, WOSB). " +
				"Responses will help determine whether to set aside the requirement for small business.",
		});
		expect(extractSignals(input).bid_eligibility).toBe("unknown");
	});
});
