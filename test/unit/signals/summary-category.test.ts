import { describe, expect, it } from "vitest";
import { extractSignals } from "../../../services/matching/signals/extract.ts";
import { MAX_SUMMARY_CHARS } from "../../../services/matching/signals/summary.ts";
import { normalizeText, splitSentences } from "../../../services/matching/signals/text.ts";
import { notice } from "./helpers.ts";

const flat = (s: string) => normalizeText(s, 1_000_000).replace(/\s+/g, " ");

describe("summary", () => {
	const description = [
		"This is a combined synopsis/solicitation for commercial products prepared in accordance with the format in FAR Subpart 12.6.",
		"The Riverbend Water Authority requests quotes for six portable turbidity meters for its field crews.",
		"Meters must read 0 to 1,000 NTU and store at least 500 readings.",
		"Delivery is required within 30 days after award.",
		"Quotes are due March 3, 2027 by email to buyer@example.org.",
	].join(" ");

	it("is two or three sentences taken from the description, skipping boilerplate", () => {
		const { summary } = extractSignals(notice({ title: "Portable Turbidity Meters", description }));
		expect(summary.startsWith("The Riverbend Water Authority requests quotes")).toBe(true);
		expect(summary).not.toMatch(/synopsis|@/);
		const sentences = splitSentences(summary);
		expect(sentences.length).toBeGreaterThanOrEqual(2);
		expect(sentences.length).toBeLessThanOrEqual(3);
		for (const s of sentences) expect(flat(description)).toContain(s);
	});

	it("is bounded, and a long sentence is cut at a word boundary", () => {
		const long = `The agency requires ${"replacement parts for its fleet of maintenance vehicles and ".repeat(40)}spare tires.`;
		const { summary } = extractSignals(notice({ title: "Fleet Parts", description: long }));
		expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
		expect(summary.endsWith("…")).toBe(true);
		expect(flat(long)).toContain(summary.slice(0, -1));
	});

	it("falls back to the title and item lines when there is no prose", () => {
		const { summary } = extractSignals(notice({ title: "Road Salt", items: [{ description: "Bulk rock salt, 2,000 tons" }] }));
		expect(summary).toBe("Road Salt. Bulk rock salt, 2,000 tons");
	});
});

describe("actual_product_category", () => {
	it.each([
		["Brand Name Only - Acme NX-4800 Access Switches with Optics - Main Campus", "access switches"],
		["Supply of CO2 Incubators for the Cell Biology Institute", "co2 incubators"],
		["Janitorial Services - North Clinic", "janitorial services"],
		["Purchase of Six (6) Pickup Trucks", "pickup trucks"],
	])("%s -> %s", (title, expected) => {
		expect(extractSignals(notice({ title })).actual_product_category).toBe(expected);
	});

	it("is lower-case and short", () => {
		const c = extractSignals(
			notice({ title: "VERY LONG TITLE OF MANY WORDS DESCRIBING A COMPLEX LABORATORY INSTRUMENT PACKAGE" }),
		).actual_product_category;
		expect(c).toBe(c.toLowerCase());
		expect(c.split(" ").length).toBeLessThanOrEqual(6);
	});
});

describe("text splitting", () => {
	it("does not split on abbreviations, initials or statute citations", () => {
		expect(splitSentences("Products must comply with 19 U.S.C. 2501 et seq. Delivery is FOB destination.")).toEqual([
			"Products must comply with 19 U.S.C. 2501 et seq.",
			"Delivery is FOB destination.",
		]);
		expect(splitSentences("Contact John Q. Public, Acme Inc. Smithville.")).toHaveLength(1);
	});

	it("splits on line breaks and sentence ends", () => {
		expect(splitSentences("Line one here\n- bullet two here. Third sentence here.")).toEqual([
			"Line one here",
			"- bullet two here.",
			"Third sentence here.",
		]);
	});
});
