// Why: TED's legacy R2.0.9 XML was refused as "not eForms"; its notices (archives, republished
// TED notices) must read like any other feed, procedure and contract nature included.
import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../services/opportunities/feeds/detect.ts";
import type { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { readText, TED_R209_TWO_LOTS } from "./files.ts";

const xml = readText(TED_R209_TWO_LOTS);
const only = (text: string): NormalizedNotice => {
	const out = parseFeed(text);
	expect(out.format).toBe("ted");
	expect(out.rejected).toEqual([]);
	return out.notices[0] as NormalizedNotice;
};

describe("TED R2.0.9: a contract notice", () => {
	const n = only(xml);

	it("reads the original-language form, not the translation listed first", () => {
		expect(n).toMatchObject({
			language: "fi",
			source: "ted",
			source_id: "123456-2021",
			rfp_id: "EY-2021-17",
			reference_number: "EY-2021-17",
			title: "Laboratoriosentrifugit",
			issuing_body: "Esimerkkikaupungin yliopisto",
			description: "Puitejärjestely laboratoriosentrifugien hankinnasta.\nKaksi osaa.",
			notice_type: "F02",
			published_at: "2021-05-27T00:00:00Z",
			estimated_value: 250000,
			currency: "EUR",
			status: "open",
			eligibility: "Tarjoajan on oltava merkitty kaupparekisteriin.",
			contacts: [{ name: "Hankintapalvelut", email: "hankinnat@example.fi", phone: "+358 1234567" }],
			documents: [{ title: null, url: "https://tarjouspalvelu.example.fi/hanke/42" }],
			source_url: "http://ted.europa.eu/udl?uri=TED:NOTICE:123456-2021:TEXT:FI:HTML",
			place_of_performance: { country: "FI", region: "FI1B1", city: null, postal_code: null, text: "Yliopiston laboratoriot." },
		});
	});

	it("takes the deadline in the buyer's local time (Finland: UTC+3 in summer)", () => {
		expect(n.deadline).toBe("2021-06-28T09:00:00Z");
	});

	it("reads the procedure, the framework, the contract nature and the reserved contract", () => {
		expect(n.procedure).toEqual({
			kind: "restricted",
			competition: "restricted",
			code: "PT_RESTRICTED",
			text: "Restricted procedure",
			framework: "agreement",
		});
		expect(n.procurement_category).toBe("goods");
		expect(n.set_aside?.text).toMatch(/^Reserved for sheltered workshops/);
	});

	it("turns lots into items and keeps the CPV codes with their labels", () => {
		expect(n.items).toEqual([
			{
				description: "Pöytäsentrifugit: Jäähdytetyt pöytäsentrifugit, 12 kpl.",
				quantity: null,
				unit: null,
				classification: { scheme: "CPV", code: "42931100" },
				lot: "1",
			},
			{
				description: "Ultrasentrifugi: Lattiamallinen ultrasentrifugi.",
				quantity: null,
				unit: null,
				classification: { scheme: "CPV", code: "38000000", label: "Laboratory, optical and precision equipments (excl. glasses)" },
				lot: "2",
			},
		]);
		expect(n.categories.map((c) => c.code)).toEqual(["38000000", "42931100"]);
	});

	it("reads a qualification system from the document type when no PT_ element names the procedure", () => {
		const qualification = xml
			.replace("<PT_RESTRICTED/>", "")
			.replace(">Contract notice<", ">Qualification system without call for competition<")
			.replace('TD_DOCUMENT_TYPE CODE="3"', 'TD_DOCUMENT_TYPE CODE="Q"');
		expect(only(qualification).procedure).toMatchObject({ kind: "qualification_system", competition: "restricted", code: "Q" });
	});

	it("reads where to submit: the participation URL and address, or none when the only link is unsafe", () => {
		expect(n.submission).toBeUndefined();
		const electronic = xml.replace(
			"<URL_PARTICIPATION>javascript:alert(1)</URL_PARTICIPATION>",
			"<URL_PARTICIPATION>https://tarjouspalvelu.example.fi/tarjous/42</URL_PARTICIPATION>",
		);
		expect(only(electronic).submission).toEqual({
			methods: ["electronicSubmission"],
			url: "https://tarjouspalvelu.example.fi/tarjous/42",
			text: null,
		});
		// ADDRESS_PARTICIPATION_IDEM: to the contracting body's own address.
		const byPost = xml.replace("<URL_PARTICIPATION>javascript:alert(1)</URL_PARTICIPATION>", "<ADDRESS_PARTICIPATION_IDEM/>");
		expect(only(byPost).submission).toEqual({
			methods: ["written"],
			url: null,
			text: "Esimerkkikaupungin yliopisto, Esimerkki, FI, hankinnat@example.fi",
		});
	});

	it("rejects a notice without a title, with a reason", () => {
		const out = parseFeed(xml.replace(/<TITLE><P>Laboratoriosentrifugit<\/P><\/TITLE>/, ""));
		expect(out.notices).toEqual([]);
		expect(out.rejected).toEqual([{ ref: "123456-2021", reason: "OBJECT_CONTRACT/TITLE missing" }]);
	});
});

describe("TED R2.0.9: lots and award criteria (what ask reads)", () => {
	it("keeps each lot's number, title and description", () => {
		expect(only(xml).lots).toEqual([
			{ id: "1", title: "Pöytäsentrifugit", description: "Jäähdytetyt pöytäsentrifugit, 12 kpl.", value: null },
			{ id: "2", title: "Ultrasentrifugi", description: "Lattiamallinen ultrasentrifugi.", value: null },
		]);
	});

	it("keeps a lot's quality, cost and price criteria with their weights, and its value", () => {
		const criteria =
			"<AC><AC_QUALITY><AC_CRITERION>Tekninen laatu</AC_CRITERION><AC_WEIGHTING>60</AC_WEIGHTING></AC_QUALITY>" +
			"<AC_PRICE><AC_WEIGHTING>40</AC_WEIGHTING></AC_PRICE></AC>" +
			'<VAL_OBJECT CURRENCY="EUR">120000</VAL_OBJECT>';
		const n = only(xml.replace(/(<OBJECT_DESCR ITEM="1">)/, `$1${criteria}`));
		expect(n.award_criteria).toEqual({
			method: null,
			text: null,
			criteria: [
				{ lot: "1", type: "quality", name: "Tekninen laatu", description: null, weight: "60" },
				{ lot: "1", type: "price", name: null, description: null, weight: "40" },
			],
		});
		expect(n.lots?.[0]?.value).toEqual({ amount: 120000, currency: "EUR" });
		expect(only(xml)).not.toHaveProperty("award_criteria");
	});
});

describe("TED R2.0.9: the lots' DURATION", () => {
	const xml = readText(TED_R209_TWO_LOTS);
	it("gives one duration when the lots agree, and each lot's when they differ", () => {
		let k = 0;
		const same = xml.replace(/<\/OBJECT_DESCR>/g, () => `<DURATION TYPE="MONTH">24</DURATION></OBJECT_DESCR>`);
		expect(only(same).contract_period).toEqual({ start: null, end: null, duration_days: null, duration: "24 months" });
		const differ = xml.replace(/<\/OBJECT_DESCR>/g, () => `<DURATION TYPE="DAY">${++k * 30}</DURATION></OBJECT_DESCR>`);
		expect(only(differ).contract_period?.duration).toMatch(/^lot \S+: 30 days; lot \S+: 60 days$/);
	});
	it("states none when no lot does", () => expect(only(xml).contract_period).toBeUndefined());
});
