import { describe, expect, it } from "vitest";
import { DATE_RE, MONEY_RE, RELATIVE_RE, splitSentences, stem, term, terms } from "../../../services/ask/text.ts";

describe("splitSentences", () => {
	it("splits on sentence ends and line breaks, not after abbreviations, initials or times", () => {
		const text =
			"Proposals are due 3:00 p.m. Eastern Time on March 12, 2027 at 200 N. Main Street. Questions go to Lt. Dana Rhodes by Feb. 8, 2027. The U.S. Army Corps of Engineers buys it; offerors shall state the country.\n- PM2.5 sensor\n- IP65 enclosure";
		expect(splitSentences(text)).toEqual([
			"Proposals are due 3:00 p.m. Eastern Time on March 12, 2027 at 200 N. Main Street.",
			"Questions go to Lt. Dana Rhodes by Feb. 8, 2027.",
			"The U.S. Army Corps of Engineers buys it; offerors shall state the country.",
			"- PM2.5 sensor",
			"- IP65 enclosure",
		]);
	});

	it("splits long clauses at semicolons but keeps short lists together", () => {
		const long = `${"a".repeat(170)} words here; Then another clause begins.`;
		expect(splitSentences(long)).toHaveLength(2);
		expect(splitSentences("Lot 1: GBP 430,000; Lot 2: GBP 110,000.")).toHaveLength(1);
	});
});

describe("terms", () => {
	it("meets inflections and synonyms of procurement English", () => {
		expect(stem("delivered")).toBe(stem("delivery"));
		expect(stem("installation")).toBe(stem("install"));
		expect(stem("acceptable")).toBe(stem("accepted"));
		expect(stem("currently")).toBe(stem("current"));
		expect(stem("validated")).toBe(stem("validation"));
		expect(stem("supplies")).toBe("supply");
		expect(term("quotes")).toBe(term("proposal"));
		expect(term("deadline")).toBe(term("due"));
		expect(term("contractor")).toBe(term("vendor"));
		expect(term("annual")).toBe(term("year"));
	});

	it("drops stop words and keeps hyphenated words with their parts", () => {
		expect(terms("Is this set aside for a small business?")).toEqual([term("set-aside"), "set", stem("aside"), stem("small"), stem("business")]);
		expect(terms("FIPS 140-2 validated")).toEqual(["fip", "140-2", stem("validated")]);
	});
});

describe("value patterns", () => {
	it("recognizes dates, amounts and relative times, not weights or clause numbers", () => {
		expect(DATE_RE.test("due February 9, 2027 at 11:00 AM")).toBe(true);
		expect(DATE_RE.test("by 3 March 2027")).toBe(true);
		expect(DATE_RE.test("moved to 2027-03-10T22:00:00Z")).toBe(true);
		expect(MONEY_RE.test("estimated at GBP 540,000")).toBe(true);
		expect(MONEY_RE.test("approximately $95,000")).toBe(true);
		expect(MONEY_RE.test("380,000 pounds per year of linen")).toBe(false);
		expect(RELATIVE_RE.test("within 21 days of award")).toBe(true);
		expect(RELATIVE_RE.test("30 days after receipt of order")).toBe(true);
		expect(RELATIVE_RE.test("subscription, 3 years")).toBe(false);
	});
});
