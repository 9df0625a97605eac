// Why: the kinds of value a sentence holds decide whether it answers a question (a date for "when",
// an amount for "how much"); they are read from the runtime's locale data in every language, and a
// count must count what was asked about.
import { describe, expect, it } from "vitest";
import { hasCountOf, kindsIn, namesMeasureUnit, normalizeForMatch, tokensOf } from "../../../services/ask/values.ts";

const kinds = (text: string, lang: Parameters<typeof kindsIn>[1] = "en") => [...kindsIn(text, lang)];

describe("kindsIn", () => {
	it("finds dates and times written in the notices' own languages", () => {
		expect(kinds("Frist for å svare på høringen er 16. oktober kl. 12.00.", "no")).toEqual(expect.arrayContaining(["date", "time"]));
		expect(kinds("do dnia 3 stycznia 2026r.", "pl")).toContain("date");
		expect(kinds("lähettää viimeistään 18.9.2023 kello 12.00", "fi")).toEqual(expect.arrayContaining(["date", "time"]));
		expect(kinds("Nye Aker skal settes i drift i 2031.", "no")).toContain("date");
		expect(kinds("Bids are due March 3, 2027 at 2:00 PM Pacific Time.")).toEqual(expect.arrayContaining(["date", "time"]));
	});

	it("finds amounts by currency code, symbol or name, not by a unit of measure that shares the name", () => {
		expect(kinds("en verdi på 150-250 million kroner", "no")).toContain("money");
		expect(kinds("Część 1: 19 000,00 zł;", "pl")).toContain("money");
		expect(kinds("approximately $95,000")).toContain("money");
		expect(kinds("380,000 pounds per year of linen")).not.toContain("money");
	});

	it("finds durations in the units of time of each language", () => {
		expect(kinds("Wartung für einen Zeitraum von 36 Monaten", "de")).toContain("duration");
		expect(kinds("Termen de garanţie-12 luni.", "ro")).toContain("duration");
		expect(kinds("przez okres 90 dni", "pl")).toContain("duration");
	});

	it("finds street addresses, not section numbers", () => {
		expect(kinds("Deliver to 800 Hospital Drive, Columbia, MO 65201.")).toContain("address");
		expect(kinds("transpordib toidu aadressil Lubja 14, Tartu linn.", "et")).toContain("address");
		expect(kinds("must conform to the Section 508 accessibility standards (36 CFR Part 1194).")).not.toContain("address");
	});
});

describe("hasCountOf", () => {
	const count = (text: string, counted: string[], lang: Parameters<typeof kindsIn>[1] = "en") => {
		const stems = new Set(counted.map((w) => tokensOf(w, lang)[0]!.stem));
		return hasCountOf(
			text,
			lang,
			(t) => stems.has(t.stem),
			new Set(),
			(t) => ["lot", "czesc"].includes(t.stem),
		);
	};
	it("counts the noun phrase a number heads, in digits or words", () => {
		expect(count("requests quotes for twelve (12) refurbished Panasonic Toughbook CF-31 rugged laptops", ["laptops"])).toBe(true);
		expect(count("Anskaffelsen gjennomføres i fellesskap blant 23 kommuner.", ["kommuner"], "no")).toBe(true);
		expect(count("Item 1: Body-worn camera; quantity 120 each", ["cameras"])).toBe(true);
	});
	it("follows a list of counts to the noun it counts, past its commas and its 'and'", () => {
		expect(count("Four (4) two flexible, one business and one economy class return air tickets to Geneva", ["tickets"])).toBe(true);
		expect(count("Four chairs for the office, and tickets", ["tickets"])).toBe(false);
		expect(count("two flexible, one business and one economy class return air tickets", ["tickets"])).toBe(true);
		expect(count("Levering av 85 pakker levert til en stor kommune", ["kommune"], "no")).toBe(false);
	});
	it("reads a heading in capitals as a count, not as a street address", () => {
		expect(count("AUTOBUS, 20 PASSAGERS, ADAPTÉ POUR FAUTEUIL ROULANT.", ["passagers"], "fr")).toBe(true);
	});
	it("does not count codes, list labels, house numbers, shares or other things", () => {
		expect(count("REFURBISHED Panasonic Toughbook CF-31 Laptops for Patrol Vehicles", ["vehicles"])).toBe(false);
		expect(count("1) Część 1 - Sukcesywna dostawa ryb do magazynu", ["ryb"], "pl")).toBe(false);
		expect(count("Ship to Elk Ridge Police Department, 120 Aspen Street, Elk Ridge, CO.", ["department"])).toBe(false);
		expect(count("This acquisition is a 100% set-aside for small businesses.", ["businesses"])).toBe(false);
		expect(count("85 vehicle mounting kits for its highway maintenance crews", ["crews"])).toBe(false);
	});
});

describe("normalizeForMatch", () => {
	it("ignores case, runs of white space and digit-group separators", () => {
		expect(normalizeForMatch("NOK  7 500 000")).toBe("nok 7500000");
		expect(normalizeForMatch("9,920")).toBe(normalizeForMatch("9 920"));
		expect(normalizeForMatch("659,777.8")).toBe("659777.8");
	});
});

describe("namesMeasureUnit", () => {
	it("finds a unit a question names, and no unit in a function word that spells one", () => {
		expect(namesMeasureUnit("¿Cuál es la superficie en metros cuadrados?", "es")).toBe(true);
		expect(namesMeasureUnit("How many kWh are supplied?", "en")).toBe(true);
		expect(namesMeasureUnit("In how many stages will the tenders be run?", "en")).toBe(false);
		expect(namesMeasureUnit("Hvor mange boenheter skal huset ha?", "no")).toBe(false);
	});
});
