import { describe, expect, it } from "vitest";
import { judgeEligibility } from "../../../services/matching/eligibility.ts";
import type { Signals } from "../../../shared/contract/opportunities.ts";

// A restricted procedure that published a call for competition (restricted, negotiated with a
// call, competitive dialogue) is one any supplier may ask to take part in: it is noted, not
// barred. A direct award, a sole source or a framework's call-off still bars.

const signals = (bid_eligibility: Signals["bid_eligibility"]): Signals =>
	({
		bid_eligibility,
		requires_manufacturer: false,
		requires_oem_documentation: false,
		mandatory_certifications: [],
		actual_product_category: null,
		summary: "",
		procurement_nature: "goods",
	}) as unknown as Signals;

describe("judgeEligibility and restricted procedures", () => {
	it("bars a restricted notice without a published call", () => {
		const e = judgeEligibility(signals("restricted"), null, true, false);
		expect(e).toMatchObject({ barred: true, eligible: false });
	});

	it("notes, but does not bar, a restricted procedure with a published call for competition", () => {
		const e = judgeEligibility(signals("restricted"), null, true, true);
		expect(e).toMatchObject({ barred: false, eligible: true });
		expect(e.reasons.join(" ")).toMatch(/call for competition/);
	});

	it("leaves open notices alone", () => {
		expect(judgeEligibility(signals("open"), null, true, false)).toEqual({ eligible: true, reasons: [], barred: false });
	});
});
