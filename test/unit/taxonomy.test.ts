// Real lookups against the committed taxonomy data: CPV codes and labels in several EU languages,
// the code syntax of the four schemes, and the crosswalks to CPV that make code agreement work
// between catalogs (UNSPSC) and notices (CPV).
import { describe, expect, it } from "vitest";
import {
	ancestors,
	cpvLabel,
	cpvLabels,
	fromCpv,
	isWithin,
	lookup,
	normalizeCode,
	resolveCode,
	structuralAncestors,
	toCpv,
} from "../../shared/taxonomy/index.ts";

describe("CPV", () => {
	it("accepts the spellings notices use, check digit and all", () => {
		expect(normalizeCode("cpv", "30213100-6")).toBe("30213100");
		// a real code whose check digit breaks the usual weighted-sum rule
		expect(lookup("cpv", "35125300-2")?.title).toBe("Security cameras");
		expect(normalizeCode("cpv", " 302131006 ")).toBe("30213100");
		expect(normalizeCode("cpv", "30.213.100")).toBe("30213100");
		expect(normalizeCode("cpv", "3021310")).toBeUndefined();
	});

	it("has all codes of CPV 2008 with labels in the EU languages", () => {
		expect(lookup("cpv", "38911000")?.title).toBe("Manual swab test kits");
		expect(lookup("cpv", "42931100-4")?.title).toBe("Laboratory centrifuges and accessories");
		expect(cpvLabel("42931100", "de")).toBe("Laborzentrifugen und Zubehör");
		expect(cpvLabel("42931100", "fr")).toMatch(/centrifugeuse/i);
		expect(cpvLabel("33182100", "pl")).toMatch(/defibrylator/i);
		expect(cpvLabel("33182100", "el")).toMatch(/απινιδωτ/i);
		expect(cpvLabel("30213100", "bg")).toMatch(/компютри/i);
		expect(cpvLabel("35125300", "it")).toBe("Camere di sicurezza");
		expect(cpvLabel("35125300", "es")).toMatch(/cámaras/i);
		expect(Object.keys(cpvLabels("30213100") ?? {})).toHaveLength(24);
		expect(cpvLabel("30213100", "xx")).toBe("Portable computers");
	});

	it("walks the parent chain by prefix even where a level is missing", () => {
		expect(ancestors("cpv", "30213100").map((e) => e.code)).toEqual(["30213000", "30210000", "30200000", "30000000"]);
		expect(lookup("cpv", "30213100")?.parent).toBe("30213000");
		expect(lookup("cpv", "30000000")?.level).toBe(1);
		expect(isWithin("cpv", "30213100-6", "30200000")).toBe(true);
		expect(isWithin("cpv", "30213100", "33000000")).toBe(false);
		// a code that is not in CPV resolves to the nearest one that is
		expect(resolveCode("cpv", "30213190")?.code).toBe("30213100");
	});
});

describe("code syntax of UNSPSC, NAICS and PSC", () => {
	it("normalizes and walks codes by structure", () => {
		expect(normalizeCode("unspsc", "43211503")).toBe("43211503");
		expect(normalizeCode("unspsc", "4321150301")).toBe("43211503"); // business function suffix
		expect(normalizeCode("unspsc", "432115")).toBe("43211500");
		expect(structuralAncestors("unspsc", "43211503")).toEqual(["43211500", "43210000", "43000000"]);
		expect(structuralAncestors("naics", "334111")).toEqual(["33411", "3341", "334", "33"]);
		expect(normalizeCode("psc", "d302")).toBe("D302");
		expect(structuralAncestors("psc", "7021")).toEqual(["70"]);
		expect(structuralAncestors("psc", "D302")).toEqual(["D30", "D3", "D"]);
		expect(normalizeCode("naics", "5415111")).toBeUndefined();
	});
});

describe("crosswalks to CPV", () => {
	it("maps the catalogs' UNSPSC codes onto the CPV codes notices carry", () => {
		expect(toCpv("unspsc", "43211503")[0]?.cpv).toBe("30213100"); // notebook computers -> portable computers
		expect(toCpv("unspsc", "43211507")[0]?.cpv).toBe("30213300"); // desktop computers
		expect(toCpv("unspsc", "41103900")[0]?.cpv).toBe("42931100"); // laboratory centrifuges
		expect(toCpv("unspsc", "46171610")[0]?.cpv).toBe("35125300"); // security cameras
		expect(toCpv("unspsc", "43222609")[0]?.cpv).toBe("32413100"); // network routers
		expect(toCpv("unspsc", "42172101")[0]?.cpv).toBe("33182100"); // automated external defibrillators
	});

	it("falls back to the class for a commodity the list does not know", () => {
		const hit = toCpv("unspsc", "41103999")[0];
		expect(hit?.via).toBe("41103900");
		expect(hit?.cpv).toBe("42931100");
	});

	it("maps PSC and NAICS codes", () => {
		expect(toCpv("psc", "7021")[0]?.cpv).toBe("30211500"); // ADP central processing unit -> CPU or processors
		expect(toCpv("psc", "6515")[0]?.cpv.slice(0, 2)).toBe("33"); // medical and surgical instruments -> medical division
		expect(toCpv("naics", "481211")[0]?.cpv).toBe("60423000"); // nonscheduled chartered air transport -> air-charter services
	});

	it("finds the UNSPSC codes behind a notice's CPV code", () => {
		expect(fromCpv("unspsc", "30213100-6")).toContain("43211503");
		expect(fromCpv("unspsc", "42900000")).toContain("41103900"); // below a CPV group
		expect(fromCpv("unspsc", "nonsense")).toEqual([]);
	});

	it("answers nothing, never throws, for codes that are not codes", () => {
		expect(toCpv("unspsc", "laptop")).toEqual([]);
		expect(lookup("cpv", "")).toBeUndefined();
		expect(ancestors("naics", "x")).toEqual([]);
	});
});
