// Why: each feed's structured procedure (OCDS procurementMethod and its details, eForms procedure
// code, notice type and framework codes, SAM.gov's "no set-aside" and justification notices) must
// reach the normalized notice in one vocabulary; before, none of it was read.
import { describe, expect, it } from "vitest";
import { parseEformsXml } from "../../../services/opportunities/feeds/eforms.ts";
import type { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { parseOcds } from "../../../services/opportunities/feeds/ocds.ts";
import { parseSam } from "../../../services/opportunities/feeds/sam.ts";
import { kindOfProcedureName, procedureNamedIn } from "../../../shared/procedure-names.ts";
import { EFORMS_ORIGINAL, EFORMS_TWO_LOTS, readText } from "./files.ts";

describe("procedure names, in the publishers' languages", () => {
	it.each([
		["Open procedure", "open"],
		["Restricted procedure", "restricted"],
		["Non-open procedure", "restricted"],
		["Negotiated procedure without prior publication", "negotiated_without_call"],
		["Negotiated with prior publication of a call for competition / competitive with negotiation", "negotiated"],
		["Competitive dialogue", "competitive_dialogue"],
		["Innovation partnership", "innovation_partnership"],
		["Call-off from a framework", "call_off"],
		["Mini-competition under the framework", "call_off"],
		["Single tender action", "direct_award"],
		["The contract is awarded to a single supplier without competition.", "direct_award"],
		["Other single stage procedure", "other_single_stage"],
		["Other multiple stage procedure", "other_multi_stage"],
		["Procedimiento abierto", "open"],
		["Licitación Pública Nacional", "open"],
		["Invitación restringida a cuando menos tres proveedores", "restricted"],
		["Adjudicación directa", "direct_award"],
		["Procédure restreinte", "restricted"],
		["Procédure concurrentielle avec négociation", "negotiated"],
		["Marché subséquent à un accord-cadre", "call_off"],
		["Offenes Verfahren", "open"],
		["Nichtoffenes Verfahren", "restricted"],
		["Verhandlungsverfahren ohne Teilnahmewettbewerb", "negotiated_without_call"],
		["Procedura aperta", "open"],
		["Procedura negoziata senza previa pubblicazione del bando", "negotiated_without_call"],
		["Affidamento diretto", "direct_award"],
		["Niet-openbare procedure", "restricted"],
		["Openbare procedure", "open"],
		["Przetarg nieograniczony", "open"],
		["Zamówienie z wolnej ręki", "direct_award"],
		["Öppet förfarande", "open"],
		["Åpen anbudskonkurranse", "open"],
		["Konkurranse med forhandling", "negotiated"],
		["Avoin menettely", "open"],
		["Ανοικτή διαδικασία", "open"],
		["Открита процедура", "open"],
		["Qualification system", "qualification_system"],
		["Qualification system without call for competition", "qualification_system"],
	])("%s -> %s", (label, kind) => {
		expect(kindOfProcedureName(label)).toBe(kind);
	});

	it("names nothing when the words are not a procedure's", () => {
		expect(kindOfProcedureName("Supply of laptops")).toBeNull();
		expect(kindOfProcedureName("")).toBeNull();
		expect(kindOfProcedureName(null)).toBeNull();
	});

	it("reads running text only for the notice's own procedure", () => {
		expect(procedureNamedIn("Anskaffelsesprosedyre er åpen anbudskonkurranse etter FOA del II.")).toBe("open");
		expect(procedureNamedIn("Sykehusinnkjøp HF ønsker å varsle en kommende konkurranse med forhandling for drift av parkering.")).toBe(
			"negotiated",
		);
		// Boilerplate about later work and later call-offs is not the procedure being run.
		expect(
			procedureNamedIn("The authority reserves the right to use the negotiated procedure without prior publication for repeat services."),
		).toBeNull();
		expect(procedureNamedIn("Call-offs under the framework will be made by mini-competition.")).toBeNull();
		// A loose word is not a procedure's name in running text (it is in a procurementMethodDetails field).
		expect(procedureNamedIn("Prices may be negotiated after award.")).toBeNull();
		expect(kindOfProcedureName("Negotiated")).toBe("negotiated");
	});
});

type Json = Record<string, unknown>;

/** A minimal OCDS tender release carrying only the fields under test. */
function release(tender: Json, extra: Json = {}): Json {
	return {
		ocid: "ocds-abc123-0001",
		id: "0001-tender",
		date: "2027-03-01T10:00:00Z",
		tag: ["tender"],
		tender: {
			id: "T-1",
			title: "Laboratory centrifuges",
			items: [{ id: "1", description: "Centrifuge", quantity: 2, unit: { name: "each" } }],
			...tender,
		},
		...extra,
	};
}

const ocds = (r: Json): NormalizedNotice => {
	const out = parseOcds(r);
	expect(out.rejected).toEqual([]);
	return out.notices[0] as NormalizedNotice;
};

describe("OCDS: the procedure and the contract nature", () => {
	it("reads procurementMethod, and the publisher's own name for the procedure over it", () => {
		expect(ocds(release({ procurementMethod: "open" })).procedure).toEqual({
			kind: "open",
			competition: "open",
			code: "open",
			text: null,
			framework: null,
		});
		expect(
			ocds(release({ procurementMethod: "selective", procurementMethodDetails: "Procédure concurrentielle avec négociation" })).procedure,
		).toMatchObject({
			kind: "negotiated",
			competition: "restricted",
			code: "selective",
		});
		expect(ocds(release({ procurementMethod: "direct" })).procedure).toMatchObject({ kind: "direct_award", competition: "restricted" });
		expect(ocds(release({ procurementMethod: "limited", procurementMethodDetails: "Call-off from a framework" })).procedure).toMatchObject({
			kind: "call_off",
			framework: "call_off",
		});
	});

	it("reads a national procedure's name put where the codelist value belongs", () => {
		expect(ocds(release({ procurementMethod: "Licitaţie publică" })).procedure).toMatchObject({
			kind: "open",
			competition: "open",
			code: "Licitaţie publică",
		});
	});

	it("uses the rationale only when neither the method nor its details name a kind", () => {
		expect(
			ocds(release({ procurementMethodRationale: "Arrendamiento de bienes inmuebles por adjudicación directa." })).procedure,
		).toMatchObject({
			kind: "direct_award",
			competition: "restricted",
		});
	});

	it("marks frameworks: a related framework process makes a call-off, techniques one that sets it up", () => {
		const related = { relatedProcesses: [{ id: "1", relationship: ["framework"], identifier: "ocds-abc123-0000" }] };
		const callOff = ocds(release({ procurementMethod: "open" }, related));
		expect(callOff.procedure).toMatchObject({ kind: "call_off", competition: "restricted", framework: "call_off" });
		const setsUp = ocds(release({ procurementMethod: "open", techniques: { hasFrameworkAgreement: true } }));
		expect(setsUp.procedure).toMatchObject({ kind: "open", competition: "open", framework: "agreement" });
	});

	it("states no procedure when the release says nothing, and ignores codes that are not the codelist's", () => {
		expect(ocds(release({})).procedure).toBeNull();
		expect(ocds(release({ procurementMethod: "constructor" })).procedure).toMatchObject({
			kind: null,
			competition: null,
			code: "constructor",
		});
	});

	it("takes the single additional category when the main one is missing", () => {
		expect(ocds(release({ additionalProcurementCategories: ["services"] })).procurement_category).toBe("services");
		expect(ocds(release({ additionalProcurementCategories: ["goods", "services"] })).procurement_category).toBeNull();
	});

	it("turns lots into items when the tender lists no items", () => {
		const n = ocds(
			release({
				items: [],
				lots: [
					{ id: "L1", title: "Lot 1", description: "Benchtop centrifuges" },
					{ id: "L2", title: "Lot 2: ultra-low freezers" },
				],
			}),
		);
		expect(n.items.map((i) => [i.lot, i.description])).toEqual([
			["L1", "Lot 1: Benchtop centrifuges"],
			["L2", "Lot 2: ultra-low freezers"],
		]);
	});

	it("reads a national catalogue built on UNSPSC as UNSPSC", () => {
		const n = ocds(
			release({
				items: [
					{
						id: "1",
						description: "Servicio de construccion de asfaltado",
						quantity: 1,
						classification: { scheme: "Catálogo nacional", id: "72131701-004", description: "Catálogo nacional Nivel 5, basado en UNSPSC" },
					},
				],
			}),
		);
		expect(n.items[0]?.classification).toEqual({ scheme: "UNSPSC", code: "72131701" });
		expect(n.categories).toContainEqual({ scheme: "UNSPSC", code: "72131701" });
	});
});

describe("eForms: the procedure, lots and quantities", () => {
	const twoLots = readText(EFORMS_TWO_LOTS);
	const only = (xml: string): NormalizedNotice => {
		const out = parseEformsXml(xml);
		expect(out.rejected).toEqual([]);
		return out.notices[0] as NormalizedNotice;
	};

	it("reads the real notice's procedure code", () => {
		expect(only(readText(EFORMS_ORIGINAL)).procedure).toEqual({
			kind: "open",
			competition: "open",
			code: "open",
			text: null,
			framework: null,
		});
	});

	it("maps every procedure code and marks lots that set up a framework", () => {
		const withCode = (code: string) => twoLots.replace(">open</cbc:ProcedureCode>", `>${code}</cbc:ProcedureCode>`);
		expect(only(withCode("neg-wo-call")).procedure).toMatchObject({
			kind: "negotiated_without_call",
			competition: "restricted",
			code: "neg-wo-call",
		});
		expect(only(withCode("comp-dial")).procedure).toMatchObject({ kind: "competitive_dialogue", competition: "restricted" });
		expect(only(withCode("oth-single")).procedure).toMatchObject({ kind: "other_single_stage", competition: "open" });
		const framework = twoLots.replace(
			"<cac:TenderSubmissionDeadlinePeriod>",
			'<cac:ContractingSystem><cbc:ContractingSystemTypeCode listName="framework-agreement">fa-wo-rc</cbc:ContractingSystemTypeCode>' +
				"</cac:ContractingSystem><cac:TenderSubmissionDeadlinePeriod>",
		);
		expect(only(framework).procedure).toMatchObject({ kind: "open", framework: "agreement" });
	});

	it("reads a qualification system from the notice type when there is no procedure code", () => {
		const noCode = twoLots.replace(/<cac:TenderingProcess>\s*<cbc:ProcedureCode[^<]*<\/cbc:ProcedureCode>\s*<\/cac:TenderingProcess>/, "");
		const qualification = noCode.replace(">cn-standard<", ">qu-sy<");
		expect(only(qualification).procedure).toMatchObject({ kind: "qualification_system", competition: "restricted", code: "qu-sy" });
	});

	it("gives each lot's item its description, quantity and unit (BT-25, BT-625)", () => {
		const n = only(
			twoLots.replace(
				'<cbc:Name languageID="ENG">Access layer switches (48-port PoE+)</cbc:Name>',
				'<cbc:Name languageID="ENG">Access layer switches (48-port PoE+)</cbc:Name>' +
					'<cbc:Description languageID="ENG">48-port PoE+ switches for the ward closets</cbc:Description>' +
					'<cbc:EstimatedOverallContractQuantity unitCode="C62">120</cbc:EstimatedOverallContractQuantity>',
			),
		);
		expect(n.items[0]).toMatchObject({
			description: "Access layer switches (48-port PoE+): 48-port PoE+ switches for the ward closets",
			quantity: 120,
			unit: "C62",
		});
	});

	it("accepts a prior information notice without a procedure identifier as its own procedure", () => {
		const pin = twoLots
			.replace(/ContractNotice/g, "PriorInformationNotice")
			.replace(/<cbc:ContractFolderID>[^<]*<\/cbc:ContractFolderID>/, "")
			.replace(">cn-standard<", ">pin-only<");
		const out = parseEformsXml(pin);
		expect(out.rejected).toEqual([]);
		const id = /<cbc:ID schemeName="notice-id">([^<]+)</.exec(twoLots)?.[1];
		expect(out.notices[0]?.source_id).toBe(id);
	});
});

describe("SAM.gov: what the record states about the competition", () => {
	const record = (fields: Json) => ({
		noticeId: "n1",
		title: "Benchtop Centrifuges",
		solicitationNumber: "S-1",
		type: "Solicitation",
		...fields,
	});
	const sam = (fields: Json) => parseSam({ opportunitiesData: [record(fields)] }).notices[0] as NormalizedNotice;

	it("reads 'no set-aside' as an unrestricted notice", () => {
		expect(sam({ typeOfSetAside: "NONE", typeOfSetAsideDescription: "No Set aside used" }).procedure).toEqual({
			kind: "unrestricted",
			competition: "open",
			code: "NONE",
			text: "No Set aside used",
			framework: null,
		});
		expect(sam({ typeOfSetAsideDescription: "No Set aside used" }).procedure).toMatchObject({ kind: "unrestricted", competition: "open" });
	});

	it("reads a justification notice as a direct award, and states nothing when the record says nothing", () => {
		expect(sam({ type: "Justification" }).procedure).toMatchObject({
			kind: "direct_award",
			competition: "restricted",
			code: "Justification",
		});
		expect(sam({}).procedure).toBeNull();
		// A set-aside stays a set-aside (its kind is finer than open or restricted).
		expect(sam({ typeOfSetAside: "SBA", typeOfSetAsideDescription: "Total Small Business Set-Aside (FAR 19.5)" }).procedure).toBeNull();
	});
});
