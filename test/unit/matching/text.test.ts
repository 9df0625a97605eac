import { describe, expect, it } from "vitest";
import { analyze, normalizeText, sentences, stem, tokenize } from "../../../services/matching/method/text.ts";

describe("tokenization", () => {
	it("keeps numbers whole: thousands separators and decimals", () => {
		expect(tokenize("1,000 mL and 2.5 Gbps")).toEqual(["1000", "ml", "and", "2.5", "gbps"]);
		expect(tokenize("100-1,000 uL")).toEqual(["100", "1000", "ul"]);
	});

	it("splits dimension products and folds symbols", () => {
		expect(tokenize("4x1G uplinks")).toEqual(["4", "x", "1g", "uplinks"]);
		expect(tokenize("384x288")).toEqual(["384", "x", "288"]);
		expect(tokenize("PoE+ 10 µL at −80 °C")).toEqual(["poe", "10", "ul", "at", "80", "c"]);
		expect(normalizeText("a–b—c")).toBe("a-b-c");
	});

	it("adds hyphen compounds so both spellings meet", () => {
		const bag = analyze("Bench-top Wi-Fi rack-mount unit").bag;
		for (const t of ["bench", "top", "benchtop", "wifi", "rackmount"]) expect(bag.has(t), t).toBe(true);
	});

	it("folds plurals and British spellings (Snowball stems) but leaves look-alikes and codes alone", () => {
		expect(stem("switches")).toBe(stem("switch"));
		expect(stem("batteries")).toBe(stem("battery"));
		expect(stem("centrifuges")).toBe(stem("centrifuge"));
		expect(stem("centre")).toBe(stem("center"));
		expect(stem("litres")).toBe(stem("liter"));
		expect(stem("access")).not.toBe(stem("acces"));
		expect(stem("ups")).toBe("ups");
		expect(stem("x50s")).toBe("x50s");
	});

	it("drops stop words and lone digits from the bag", () => {
		const bag = analyze("The 2 switches shall be delivered for the 48 ports").bag;
		expect(bag.has("the")).toBe(false);
		expect(bag.has("2")).toBe(false);
		expect(bag.has("48")).toBe(true);
		expect(bag.has("switch")).toBe(true);
	});

	it("relates abbreviations and long forms in both directions", () => {
		expect(analyze("Next-Generation Firewall").bag.has("ngfw")).toBe(true);
		expect(analyze("branch NGFWs").bag.has(stem("firewall"))).toBe(true);
		expect(analyze("uninterruptible power supply").bag.has("ups")).toBe(true);
		expect(analyze("biosafety cabinet").bag.has("bsc")).toBe(true);
	});

	it("splits descriptions into sentences and list lines", () => {
		expect(sentences("Requirements:\n- Two units. Delivery in May.\n1. Warranty")).toEqual([
			"Requirements:",
			"Two units.",
			"Delivery in May.",
			"Warranty",
		]);
	});
});
