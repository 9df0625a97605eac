import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../services/opportunities/feeds/detect.ts";
import { parseEformsXml } from "../../../services/opportunities/feeds/eforms.ts";
import type { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { mergeVersion } from "../../../services/opportunities/feeds/versions.ts";
import { EFORMS_CHANGE, EFORMS_ORIGINAL, EFORMS_TWO_LOTS, readText } from "./files.ts";

const only = (xml: string): NormalizedNotice => {
	const { notices, rejected } = parseEformsXml(xml);
	expect(rejected).toEqual([]);
	expect(notices).toHaveLength(1);
	return notices[0] as NormalizedNotice;
};

const originalXml = readText(EFORMS_ORIGINAL);
const changeXml = readText(EFORMS_CHANGE);
const FOLDER = "31f258b6-5eb2-4875-8997-affa3cdce27c";
const ORIGINAL_LABEL = "c4c415ee-ac08-4465-8fa6-57568cf69462-01";
const CHANGE_LABEL = "71397268-6c47-4f2f-8ab0-f41a26138f81-01";

describe("eForms: the real contract notice", () => {
	const n = only(originalXml);

	it("normalizes it with concrete values", () => {
		expect(n).toMatchObject({
			source: "ted",
			source_id: FOLDER,
			rfp_id: "RC-CPU-19-065",
			reference_number: "RC-CPU-19-065",
			title: "Term Contract for a Planned Programme of In-service Inspection and Testing of Electrical Equipment",
			issuing_body: "Renfrewshire Council",
			notice_type: "cn-standard",
			procurement_category: "services",
			deadline: "2020-04-03T11:00:00Z",
			published_at: "2020-02-28T11:32:13Z",
			estimated_value: 500000,
			currency: "EUR",
			status: "open",
			contacts: [{ name: null, email: "douglas.mcewan@renfrewshire.gov.uk", phone: "(+12)34567890" }],
			documents: [{ title: "DocID1", url: "https://www.publictendersscotland.publiccontractsscotland.gov.uk/" }],
			place_of_performance: {
				country: "GBR",
				region: null,
				city: null,
				postal_code: null,
				text: "Public buildings within the geographical area of Renfrewshire Council.",
			},
			set_aside: null,
		});
		expect(n.categories.map((c) => `${c.scheme} ${c.code}`)).toEqual(["CPV 71630000", "CPV 71314100", "CPV 50300000", "CPV 31600000"]);
		// The lot's item reads its name and its description: the name alone often says little.
		expect(n.items).toEqual([
			{
				description:
					`${n.title}: The purpose of this contract is to formalise the Councils requirement to employ a contractor to carry out ` +
					"a planned programme of in-service inspection and testing of electrical equipment within the Councils public buildings.",
				quantity: null,
				unit: null,
				classification: { scheme: "CPV", code: "71630000" },
				lot: "LOT-0000",
			},
		]);
		// ProcedureCode "open"; the lot's framework-agreement and dps-usage codes are "none".
		expect(n.procedure).toEqual({ kind: "open", competition: "open", code: "open", text: null, framework: null });
		expect(n.description).toMatch(/^The purpose of this contract is to formalise/);
		expect(n.description).toContain("\nThe anticipated annual value of this contract");
		expect(n.eligibility).toMatch(/^Bidders will be required to state if any of the exclusion grounds/);
		expect(n.version).toEqual({
			label: ORIGINAL_LABEL,
			released_at: "2020-02-28T11:32:13Z",
			sort_key: "2020-02-28T11:32:13Z|000001|c4c415ee-ac08-4465-8fa6-57568cf69462",
			supersedes: null,
			note: null,
		});
		expect(n.dedupe_keys).toContain("ref:RCCPU19065");
	});
});

describe("eForms: the real change notice", () => {
	const original = only(originalXml);
	const change = only(changeXml);

	it("is a new version of the same procedure that names the notice it changes", () => {
		expect(change).toMatchObject({
			source: "ted",
			source_id: FOLDER,
			rfp_id: "RC-CPU-19-065",
			deadline: "2020-06-12T11:00:00Z",
			status: "open",
		});
		expect(change.version).toMatchObject({ label: CHANGE_LABEL, released_at: "2020-04-17T11:34:56Z", supersedes: ORIGINAL_LABEL });
		expect(change.version.note).toBe(
			"Changed: Time limit for receipt of tenders or requests to participate; Conditions for opening of tenders. " +
				"Reason: Due to Covid-19 and the UK Government’s decision to extend the UK lockdown period for an additional 3 weeks " +
				"the timescales applicable to this contract notice have been extended accordingly.",
		);
	});

	it("updates the original: the deadline moved, and nothing else normalized changed", () => {
		const created = mergeVersion(null, original);
		const updated = mergeVersion(created.notice, change);
		expect(updated.action).toBe("updated");
		expect(updated.change).toMatchObject({ version: CHANGE_LABEL, at: "2020-04-17T11:34:56Z", fields: ["deadline"] });
		expect(updated.change?.summary).toMatch(
			/^deadline moved from 2020-04-03T11:00:00Z to 2020-06-12T11:00:00Z; source note: Changed: Time limit/,
		);
		expect(updated.notice).toMatchObject({ deadline: "2020-06-12T11:00:00Z", published_at: "2020-02-28T11:32:13Z", status: "open" });
		expect(updated.notice.history.map((h) => [h.version, h.action])).toEqual([
			[ORIGINAL_LABEL, "created"],
			[CHANGE_LABEL, "updated"],
		]);
		// Re-ingesting either file afterwards changes nothing.
		expect(mergeVersion(updated.notice, only(changeXml)).action).toBe("unchanged");
		expect(mergeVersion(updated.notice, only(originalXml)).action).toBe("unchanged");
	});

	it("is newer than the original even if the original arrives second", () => {
		const first = mergeVersion(null, change);
		const late = mergeVersion(first.notice, original);
		expect(late.action).toBe("stale");
		expect(late.notice).toBe(first.notice);
	});

	it("closes the notice when the change is a cancellation", () => {
		const cancelled = only(
			changeXml.replace('listName="change-corrig-justification">update-add<', 'listName="change-corrig-justification">cancel<'),
		);
		expect(cancelled.status).toBe("cancelled");
		const merged = mergeVersion(mergeVersion(null, original).notice, cancelled);
		expect(merged.notice.status).toBe("cancelled");
		expect(merged.change?.fields).toEqual(["deadline", "status"]);
		expect(merged.change?.summary).toContain("cancelled at the source");
	});

	it("marks a contract award notice as awarded", () => {
		const award = originalXml.replace(/ContractNotice/g, "ContractAwardNotice").replace(">cn-standard<", ">can-standard<");
		const out = parseFeed(award);
		expect(out.format).toBe("ted");
		expect(out.notices[0]?.status).toBe("awarded");
	});
});

describe("eForms: lots, languages and links", () => {
	const n = only(readText(EFORMS_TWO_LOTS));

	it("declares the language of the text it keeps: the notice's own, or English when it keeps the English text", () => {
		const xml = readText(EFORMS_TWO_LOTS);
		expect(n.language).toBe("en");
		const irish = xml.replace("<cbc:NoticeLanguageCode>ENG<", "<cbc:NoticeLanguageCode>GLE<");
		expect(only(irish).language).toBe("en");
		const irishOnly = only(irish.replace('<cbc:Name languageID="ENG">Campus Network Switches and Wireless Access Points</cbc:Name>', ""));
		expect(irishOnly.title).toBe("Lasca agus pointí rochtana gan sreang");
		expect(irishOnly.language).toBe("ga");
		expect(only(xml.replace("<cbc:NoticeLanguageCode>ENG</cbc:NoticeLanguageCode>", ""))).toMatchObject({ language: "en" });
	});

	it("flattens lots into items and collects every CPV code", () => {
		expect(n.items).toEqual([
			{
				description: "Access layer switches (48-port PoE+)",
				quantity: null,
				unit: null,
				classification: { scheme: "CPV", code: "32422000" },
				lot: "LOT-0001",
			},
			{
				description: "Wi-Fi 6E access points",
				quantity: null,
				unit: null,
				classification: { scheme: "CPV", code: "32412000" },
				lot: "LOT-0002",
			},
		]);
		expect(n.categories.map((c) => c.code).sort()).toEqual(["32412000", "32420000", "32422000", "32424000", "48000000"]);
	});

	it("takes the earliest lot deadline, sums lot estimates and prefers English text", () => {
		expect(n.deadline).toBe("2024-04-10T17:00:00Z");
		expect(n).toMatchObject({ estimated_value: 370000, currency: "EUR", procurement_category: "goods" });
		expect(n.title).toBe("Campus Network Switches and Wireless Access Points");
		expect(n.issuing_body).toBe("Health Service Executive & Partners");
		expect(n.description).toBe(
			"Supply, delivery & configuration of access switches and Wi-Fi 6E access points for hospital campuses.\nEstimated total: €370,000.",
		);
	});

	it("keeps one copy of a shared document, drops non-http links, and links the TED page", () => {
		expect(n.documents).toEqual([
			{ title: "Tender documents", url: "https://www.etenders.gov.ie/epps/cft/prepareViewCfTWS.do?resourceId=2417731" },
		]);
		expect(n.source_url).toBe("https://ted.europa.eu/en/notice/-/detail/123456-2024");
		expect(n.set_aside?.text).toMatch(/^Reserved for sheltered workshops/);
		expect(n.place_of_performance).toMatchObject({ country: "IRL", region: "IE061", city: "Dublin" });
		expect(n.contacts).toEqual([{ name: "ICT Procurement Team", email: "ict.procurement@example.ie", phone: "+353 1 635 2000" }]);
	});

	it("reads how to submit (BT-17 codes, BT-18 URL) and until when questions may be asked (the earliest lot's BT-13)", () => {
		// Lot 1 requires electronic submission, lot 2 allows it besides written submission.
		expect(n.submission).toEqual({
			methods: ["electronicSubmission", "written"],
			url: "https://www.etenders.gov.ie/epps/submit?resourceId=2417731",
			text: null,
		});
		// Lot 2's bare date ends its day; it is earlier than lot 1's 12:00+01:00 on 5 April.
		expect(n.enquiry_deadline).toBe("2024-04-03T23:59:59Z");
		expect(n.enquiry_deadline_local).toBe("2024-04-03T23:59+00:00");
		expect(only(originalXml).submission).toEqual({
			methods: ["electronicSubmission", "written"],
			url: "https://www.publictendersscotland.publiccontractsscotland.gov.uk/",
			text: null,
		});
		expect(only(originalXml)).not.toHaveProperty("enquiry_deadline");
	});

	it("reads the same notice whatever prefixes the document binds to the namespaces", () => {
		const renamed = originalXml.replace(/xmlns:cbc=/, "xmlns:basic=").replace(/<(\/?)cbc:/g, "<$1basic:");
		expect(only(renamed)).toEqual(only(originalXml));
	});

	it("rejects a notice without a procedure identifier, with a reason", () => {
		const out = parseEformsXml(originalXml.replace(/<cbc:ContractFolderID>[^<]*<\/cbc:ContractFolderID>/, ""));
		expect(out).toEqual({
			notices: [],
			rejected: [{ ref: "c4c415ee-ac08-4465-8fa6-57568cf69462", reason: "cbc:ContractFolderID missing" }],
		});
	});
});

describe("eForms: hostile XML", () => {
	const UBL = "urn:oasis:names:specification:ubl:schema:xsd";
	const XXE = `<?xml version="1.0"?>
<!DOCTYPE ContractNotice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<ContractNotice xmlns="${UBL}:ContractNotice-2" xmlns:cbc="${UBL}:CommonBasicComponents-2" xmlns:cac="${UBL}:CommonAggregateComponents-2">
	<cbc:ID schemeName="notice-id">x</cbc:ID><cbc:ContractFolderID>f</cbc:ContractFolderID>
	<cac:ProcurementProject><cbc:Name>&xxe;</cbc:Name></cac:ProcurementProject>
</ContractNotice>`;
	const LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2"><x>&lol9;</x></ContractNotice>`;

	it("refuses a document with an external entity (XXE) before parsing it", () => {
		for (const out of [parseEformsXml(XXE), parseFeed(XXE)]) {
			expect(out.notices).toEqual([]);
			expect(out.rejected[0]?.reason).toMatch(/DOCTYPE or ENTITY declaration is refused/);
			expect(JSON.stringify(out)).not.toContain("root:");
		}
	});

	it("refuses an entity-expansion bomb at once", () => {
		const started = performance.now();
		const out = parseFeed(LAUGHS);
		expect(performance.now() - started).toBeLessThan(200);
		expect(out).toMatchObject({ format: "unknown", notices: [] });
		expect(out.rejected[0]?.reason).toMatch(/refused/);
	});

	it("leaves an undeclared entity reference as inert text", () => {
		const n = only(originalXml.replace(">Term Contract for a Planned", ">&xxe; Term Contract for a Planned"));
		expect(n.title.startsWith("&xxe; Term Contract")).toBe(true);
	});

	it("refuses element names that could reach a prototype", () => {
		const out = parseEformsXml("<ContractNotice><__proto__><polluted>1</polluted></__proto__></ContractNotice>");
		expect(out.notices).toEqual([]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it("refuses malformed and absurdly nested documents without throwing", () => {
		expect(parseEformsXml("<ContractNotice><a></ContractNotice>").rejected[0]?.reason).toMatch(/^malformed XML/);
		const deep = `<ContractNotice xmlns="urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2">${"<a>".repeat(5_000)}${"</a>".repeat(5_000)}</ContractNotice>`;
		const out = parseEformsXml(deep);
		expect(out.notices).toEqual([]);
		expect(out.rejected).toHaveLength(1);
	});
});

describe("eForms: lots and award criteria (what ask reads)", () => {
	it("keeps the lot with its name and description, and each criterion with its type, name, description and weight", () => {
		const n = only(originalXml);
		expect(n.lots).toEqual([
			expect.objectContaining({
				id: "LOT-0000",
				title: "Term Contract for a Planned Programme of In-service Inspection and Testing of Electrical Equipment",
				value: null,
			}),
		]);
		expect(n.lots?.[0]?.description).toMatch(/^The purpose of this contract is to formalise/);
		expect(n.award_criteria?.method).toBeNull();
		expect(n.award_criteria?.criteria.map((c) => [c.type, c.name, c.weight])).toEqual([
			["quality", "Methodology and approach", "15 %"],
			["quality", "Fair working practices", "5 %"],
			["quality", "Community benefits offered", "3 %"],
			["quality", "Community benefit methodology", "2 %"],
			["price", "Price", "75 %"],
		]);
		expect(n.award_criteria?.criteria[4]).toMatchObject({ lot: "LOT-0000", description: "The price is evaluated by..." });
	});
});

describe("eForms: the lots' planned period", () => {
	it("keeps BT-36 with its unit and BT-536 as the contract period", () => {
		expect(only(readText(EFORMS_ORIGINAL)).contract_period).toMatchObject({ start: "2020-08-31T22:00:00Z", duration: "36 months" });
	});
});
