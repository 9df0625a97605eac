import { describe, expect, it } from "vitest";
import { agreement, bestAgreement, codeNature, parseCode } from "../../../services/matching/method/codes.ts";

const c = (raw: string, scheme?: string) => {
	const code = parseCode(raw, scheme);
	if (!code) throw new Error(`unparsable ${raw}`);
	return code;
};

describe("commodity code hierarchy", () => {
	it("reads codes by shape or by prefix", () => {
		expect(parseCode("43222612")).toEqual({ scheme: "UNSPSC", code: "43222612" });
		expect(parseCode("32420000-3")).toEqual({ scheme: "CPV", code: "32420000" });
		expect(parseCode("423430")).toEqual({ scheme: "NAICS", code: "423430" });
		expect(parseCode("7021")).toEqual({ scheme: "PSC", code: "7021" });
		expect(parseCode("CPV:32420000")).toEqual({ scheme: "CPV", code: "32420000" });
		expect(parseCode("J066", "PSC")).toEqual({ scheme: "PSC", code: "J066" });
		expect(parseCode("nonsense")).toBeNull();
	});

	it("agrees at each UNSPSC level: commodity, class, family, segment", () => {
		const p = c("43222612");
		expect(agreement(p, c("43222612"))?.level).toBe("commodity");
		expect(agreement(p, c("43222609"))?.level).toBe("class");
		expect(agreement(p, c("43221700"))?.level).toBe("family");
		expect(agreement(p, c("43191510"))?.level).toBe("segment");
		expect(agreement(p, c("41103013"))).toBeNull();
		const points = ["43222612", "43222609", "43221700", "43191510"].map((x) => agreement(p, c(x))?.points ?? 0);
		expect(points).toEqual([...points].sort((a, b) => b - a));
	});

	it("treats trailing zeros as unspecified levels", () => {
		expect(agreement(c("43222612"), c("43222600"))?.level).toBe("class");
		expect(agreement(c("43222612"), c("43000000"))?.level).toBe("segment");
	});

	it("agrees at CPV division, group, class and category", () => {
		const p = c("32422000-7");
		// Both codes stop at category level (trailing zeros): they agree as deep as they are specified.
		expect(agreement(p, c("32422000-7"))?.level).toBe("category");
		expect(agreement(c("35125311-2"), c("35125311-2"))?.level).toBe("code");
		expect(agreement(p, c("32421000-0"))?.level).toBe("class");
		expect(agreement(p, c("32410000-0"))?.level).toBe("group");
		expect(agreement(p, c("32500000-8"))?.level).toBe("division");
		expect(agreement(c("35125310-9"), c("35125300-2"))?.level).toBe("category");
	});

	it("agrees at NAICS 2 to 6 digits and PSC group/code", () => {
		const p = c("423430");
		expect(agreement(p, c("423430"))?.level).toBe("national industry");
		expect(agreement(p, c("423490"))?.level).toBe("industry group");
		expect(agreement(p, c("423610"))?.level).toBe("subsector");
		expect(agreement(p, c("425120"))?.level).toBe("sector");
		expect(agreement(c("7021"), c("7025"))?.level).toBe("group");
	});

	it("never mixes schemes", () => {
		expect(bestAgreement([c("43222612")], [c("32422000-7"), c("423430")])).toBeNull();
		expect(bestAgreement([c("43222612"), c("NAICS:423430")], [c("423430")])?.scheme).toBe("NAICS");
	});

	it("tells goods from services and works at the top levels", () => {
		expect(codeNature(c("43222612"))).toBe("goods");
		expect(codeNature(c("81111812"))).toBe("services");
		expect(codeNature(c("72121400"))).toBe("construction");
		expect(codeNature(c("45210000-2"))).toBe("construction");
		expect(codeNature(c("79100000-5"))).toBe("services");
		expect(codeNature(c("J066", "PSC"))).toBe("services");
		expect(codeNature(c("Z2AA", "PSC"))).toBe("construction");
		expect(codeNature(c("5820", "PSC"))).toBe("goods");
	});
});
