import { describe, expect, it } from "vitest";
import { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { parseSam } from "../../../services/opportunities/feeds/sam.ts";
import { mergeVersion } from "../../../services/opportunities/feeds/versions.ts";
import { readJson, SAM_FIXTURE } from "./files.ts";

type Json = Record<string, unknown>;
const response = () => readJson(SAM_FIXTURE) as { opportunitiesData: Json[] };
const parsed = parseSam(response());
const byNotice = (noticeId: string) => {
	const n = parsed.notices.find((x) => x.version.label === noticeId);
	if (!n) throw new Error(`notice ${noticeId} not parsed`);
	return n;
};

const SWITCHES = "8f3c2a6e5b1d4c0f9a7e6d5c4b3a2f10";
const NETWORK = "2d7e9b41c0a34f5e8b6d1c2a3f4e5d60";
const ULTRASOUND = "c51a0f3e8d2b47e6a9c1b0d2e3f4a5b6";
const TABLETS = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
const FREEZERS = "a9b8c7d6e5f40312a1b2c3d4e5f60718";
const CANCELLED = "0b1c2d3e4f5061728394a5b6c7d8e9f0";
const AWARD = "7e6d5c4b3a2910f8e7d6c5b4a3928170";

describe("SAM.gov search response", () => {
	it("parses every good record and rejects the malformed one with a reason", () => {
		expect(parsed.notices).toHaveLength(7);
		expect(parsed.rejected).toEqual([{ index: 7, ref: "75N95027Q00031", reason: "noticeId missing" }]);
		for (const n of parsed.notices) expect(NormalizedNotice.parse(n)).toEqual(n);
	});

	it("trims padded solicitation numbers and keys the notice by them", () => {
		expect(byNotice(SWITCHES)).toMatchObject({
			source: "sam.gov",
			source_id: "36C24627Q0301",
			rfp_id: "36C24627Q0301",
			reference_number: "36C24627Q0301",
		});
		expect(byNotice(NETWORK)).toMatchObject({ source_id: "FA4890-27-R-0007", rfp_id: "FA4890-27-R-0007" });
		expect(byNotice(TABLETS).rfp_id).toBe("140P1227Q0061");
		expect(byNotice(SWITCHES).dedupe_keys).toContain("ref:36C24627Q0301");
	});

	it("converts each date variant to UTC", () => {
		// Offset given (EDT), naive (Eastern, daylight time), bare (end of day Eastern), offset (EST), offset (CST).
		expect(byNotice(SWITCHES).deadline).toBe("2027-03-15T18:00:00Z");
		expect(byNotice(NETWORK).deadline).toBe("2027-04-02T20:30:00Z");
		expect(byNotice(ULTRASOUND).deadline).toBe("2027-03-21T03:59:59Z");
		expect(byNotice(TABLETS).deadline).toBe("2027-01-30T22:00:00Z");
		expect(byNotice(FREEZERS).deadline).toBe("2027-03-01T18:00:00Z");
		expect(byNotice(AWARD).deadline).toBeNull();
		// postedDate: SAM's "+00", naive (Eastern, standard time), bare (start of day Eastern).
		expect(byNotice(SWITCHES).published_at).toBe("2027-02-01T13:22:07Z");
		expect(byNotice(TABLETS).published_at).toBe("2027-01-12T14:15:00Z");
		expect(byNotice(ULTRASOUND).published_at).toBe("2027-02-05T05:00:00Z");
	});

	it("normalizes set-aside codes and keeps their wording", () => {
		const codes = Object.fromEntries(parsed.notices.map((n) => [n.version.label, n.set_aside?.code ?? null]));
		expect(codes).toEqual({
			[SWITCHES]: "SDVOSBC",
			[NETWORK]: "8A",
			[ULTRASOUND]: "HZC",
			[TABLETS]: "SBA",
			[FREEZERS]: "WOSB",
			[CANCELLED]: null,
			[AWARD]: null,
		});
		expect(byNotice(ULTRASOUND).set_aside?.text).toBe("Historically Underutilized Business (HUBZone) Set-Aside (FAR 19.13)");
		expect(byNotice(AWARD).set_aside).toBeNull();
	});

	it("derives the set-aside code from SAM's wording when the code is missing", () => {
		const record = {
			...response().opportunitiesData[0],
			typeOfSetAside: null,
			typeOfSetAsideDescription: "Women-Owned Small Business (WOSB) Program Sole Source (FAR 19.15)",
		};
		expect(parseSam({ opportunitiesData: [record] }).notices[0]?.set_aside).toEqual({
			code: "WOSBSS",
			text: "Women-Owned Small Business (WOSB) Program Sole Source (FAR 19.15)",
		});
	});

	it("maps cancelled, archived and awarded notices to their status", () => {
		expect(byNotice(CANCELLED).status).toBe("cancelled");
		expect(byNotice(AWARD).status).toBe("awarded");
		expect(byNotice(SWITCHES).status).toBe("open");
		const archived = { ...response().opportunitiesData[1], active: "No" };
		expect(parseSam({ opportunitiesData: [archived] }).notices[0]?.status).toBe("closed");
	});

	it("keeps the description link, or cleans an inline HTML description", () => {
		expect(byNotice(SWITCHES)).toMatchObject({
			description: "",
			description_url: "https://api.sam.gov/prod/opportunities/v1/noticedesc?noticeid=8f3c2a6e5b1d4c0f9a7e6d5c4b3a2f10",
		});
		expect(byNotice(FREEZERS)).toMatchObject({
			title: "Laboratory Refrigerators and -80°C Freezers & Installation",
			description:
				"The USDA Agricultural Research Service, Peoria, IL, requires two (2) laboratory refrigerators " +
				"and one (1) ultra-low freezer (-80°C), brand name or equal.\n" +
				"Delivery, installation & startup included\nEnergy Star certified\nQuotes are due by 12:00 PM Central Time.",
			description_url: null,
		});
		expect(byNotice(CANCELLED)).toMatchObject({ description: "", description_url: null });
	});

	it("maps buyer path, codes, place, contacts, documents and links", () => {
		const n = byNotice(SWITCHES);
		expect(n.issuing_body).toBe(
			"VETERANS AFFAIRS, DEPARTMENT OF > VETERANS AFFAIRS, DEPARTMENT OF > 246-NETWORK CONTRACTING OFFICE 6 (36C246)",
		);
		expect(n.categories).toEqual([
			{ scheme: "NAICS", code: "423430" },
			{ scheme: "PSC", code: "5895" },
		]);
		expect(byNotice(ULTRASOUND).categories.map((c) => c.code)).toEqual(["334510", "339112", "6525"]);
		expect(n.procurement_category).toBe("goods");
		expect(byNotice(NETWORK).procurement_category).toBe("services");
		expect(n.place_of_performance).toEqual({
			country: "USA",
			region: "VA",
			city: "Richmond",
			postal_code: "23249",
			text: "1201 Broad Rock Blvd",
		});
		expect(n.contacts).toEqual([
			{ name: "Dana Whitfield", email: "dana.whitfield@va.gov", phone: "804-555-0142" },
			{ name: "Network Contracting Office 6 Mailbox", email: "ncosix.contracting@va.gov", phone: null },
		]);
		expect(n.documents).toHaveLength(2);
		expect(byNotice(NETWORK).documents).toEqual([{ title: "Additional information", url: "https://www.tinker.af.mil/contracting/" }]);
		expect(n.source_url).toBe("https://sam.gov/opp/8f3c2a6e5b1d4c0f9a7e6d5c4b3a2f10/view");
		expect(n.version).toMatchObject({ label: SWITCHES, released_at: "2027-02-01T13:22:07Z" });
	});

	it("drops a city 'name' that is only SAM's numeric city code", () => {
		const record = {
			...response().opportunitiesData[0],
			placeOfPerformance: { city: { code: "21000", name: "21000" }, state: { code: "OH" }, zip: "45402", country: { code: "USA" } },
		};
		expect(parseSam({ opportunitiesData: [record] }).notices[0]?.place_of_performance).toMatchObject({
			city: null,
			region: "OH",
			postal_code: "45402",
		});
	});

	it("reports a record that cannot be read and goes on with the rest", () => {
		const records = response().opportunitiesData.slice(0, 2);
		const exploding = { ...records[0] };
		Object.defineProperty(exploding, "title", {
			enumerable: true,
			get: () => {
				throw new Error("boom");
			},
		});
		const out = parseSam({ opportunitiesData: [exploding, "not a record", records[1]] });
		expect(out.notices.map((n) => n.version.label)).toEqual([NETWORK]);
		expect(out.rejected).toEqual([
			{ index: 0, ref: SWITCHES, reason: "unreadable record: boom" },
			{ index: 1, reason: "record is not an object" },
		]);
	});

	it("refuses input that is not a search response", () => {
		expect(parseSam({ data: [] })).toEqual({
			notices: [],
			rejected: [{ reason: "not a SAM.gov search response: opportunitiesData array missing" }],
		});
	});

	it("orders a presolicitation before its solicitation so that merging in order amends it", () => {
		const solicitation = response().opportunitiesData[0] as Json;
		const presolicitation = {
			...solicitation,
			noticeId: "11112222333344445555666677778888",
			type: "Presolicitation",
			postedDate: "2027-01-15 14:00:00+00",
			responseDeadLine: null,
		};
		const out = parseSam({ opportunitiesData: [solicitation, presolicitation] });
		expect(out.notices.map((n) => n.version.label)).toEqual(["11112222333344445555666677778888", SWITCHES]);
		const first = mergeVersion(null, out.notices[0] as NormalizedNotice);
		const second = mergeVersion(first.notice, out.notices[1] as NormalizedNotice);
		expect(second.action).toBe("updated");
		expect(second.change?.summary).toContain("deadline set to 2027-03-15T18:00:00Z");
	});
});
