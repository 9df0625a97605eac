// Why: bid_eligibility and procurement_nature come from the notice's structure first (the feed's
// procedure and contract nature) and from its text second; before, the structure was not read and
// real notices stating an open or restricted procedure came out `unknown`.
import { describe, expect, it } from "vitest";
import { explainSignals, extractSignals } from "../../../services/matching/signals/extract.ts";
import type { SignalsInput, SignalsProcedureInput } from "../../../services/matching/signals/input.ts";
import { parseFeed } from "../../../services/opportunities/feeds/detect.ts";
import type { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { inputOf } from "../../../scripts/eval-signals.ts";
import { EFORMS_ORIGINAL, readText } from "../feeds/files.ts";
import { goods, notice } from "./helpers.ts";

const procedure = (
	kind: string,
	competition: "open" | "restricted",
	extra: Partial<SignalsProcedureInput> = {},
): SignalsProcedureInput => ({
	kind,
	competition,
	code: kind,
	text: null,
	framework: null,
	...extra,
});

/** A notice that says nothing about who may bid, with the structured procedure under test. */
const silent = (p: SignalsProcedureInput | null, more: Partial<SignalsInput> = {}): SignalsInput => ({
	...goods("Delivery is to the main store."),
	procedure: p,
	...more,
});

const eligibility = (input: SignalsInput) =>
	explainSignals(input).explanation.bid_eligibility.rule + ":" + extractSignals(input).bid_eligibility;

describe("bid_eligibility from the structured procedure", () => {
	it("is open for an open procedure, a national single-stage procedure and a US unrestricted notice", () => {
		expect(eligibility(silent(procedure("open", "open")))).toBe("procedure_open:open");
		expect(eligibility(silent(procedure("other_single_stage", "open")))).toBe("procedure_open:open");
		expect(eligibility(silent(procedure("unrestricted", "open", { code: "NONE", text: "No Set aside used" })))).toBe("procedure_open:open");
	});

	it("is restricted when only some suppliers may bid, naming whether a call for competition was published", () => {
		for (const kind of [
			"restricted",
			"negotiated",
			"competitive_dialogue",
			"innovation_partnership",
			"qualification_system",
			"selective",
			"other_multi_stage",
		]) {
			expect(eligibility(silent(procedure(kind, "restricted")))).toBe("procedure_restricted:restricted");
		}
		for (const kind of ["negotiated_without_call", "direct_award", "call_off", "limited"]) {
			expect(eligibility(silent(procedure(kind, "restricted")))).toBe("procedure_closed:restricted");
		}
		// A mini-competition under a framework set up by open procedure: only the framework's members.
		expect(eligibility(silent(procedure("call_off", "restricted", { framework: "call_off" })))).toBe("procedure_closed:restricted");
	});

	it("is unknown only when nothing is stated", () => {
		expect(extractSignals(silent(null)).bid_eligibility).toBe("unknown");
		expect(extractSignals(silent(procedure("restricted", "restricted"))).bid_eligibility).toBe("restricted");
		expect(
			extractSignals(silent({ kind: null, competition: null, code: "concession", text: "Concession award procedure" })).bid_eligibility,
		).toBe("unknown");
	});

	it("keeps the set-aside kinds: a set-aside code or statement says more than the procedure", () => {
		expect(extractSignals(silent(procedure("limited", "restricted"))).bid_eligibility).toBe("restricted");
		expect(extractSignals(silent(procedure("open", "open"), { set_aside_code: "SDVOSBC" })).bid_eligibility).toBe("sdvosb");
		expect(
			extractSignals(silent(procedure("limited", "restricted"), { set_aside_text: "Total small business set-aside, NAICS 334516." }))
				.bid_eligibility,
		).toBe("small_business");
		expect(extractSignals(silent(procedure("open", "open"), { set_aside_text: "Reserved for sheltered workshops" })).bid_eligibility).toBe(
			"other_set_aside",
		);
	});

	it("reads an OCDS `limited` brand-name buy as a product limit, not a closed list of bidders", () => {
		const brandName = goods("This is a brand name only requirement; authorized resellers may quote.");
		expect(extractSignals({ ...brandName, procedure: procedure("limited", "restricted") }).bid_eligibility).toBe("unknown");
		// The brand limits the product only under `limited`: a restricted procedure still restricts.
		expect(extractSignals({ ...brandName, procedure: procedure("restricted", "restricted") }).bid_eligibility).toBe("restricted");
		// A sole-source award stays restricted whatever the brand.
		const sole = goods("The agency intends to award a sole source purchase order to the manufacturer. Brand name only.");
		expect(extractSignals({ ...sole, procedure: procedure("limited", "restricted") }).bid_eligibility).toBe("restricted");
	});

	it("lets a market-research notice stay unknown unless a procedure code or name is stated", () => {
		const sourcesSought = notice({
			title: "Sources Sought: Benchtop Centrifuges",
			description: "This is a sources sought notice for market research purposes only.",
		});
		expect(extractSignals({ ...sourcesSought, procedure: procedure("unrestricted", "open", { code: "NONE" }) }).bid_eligibility).toBe(
			"unknown",
		);
		expect(extractSignals({ ...sourcesSought, procedure: procedure("open", "open") }).bid_eligibility).toBe("open");
	});

	it("reads a procedure named in the text, in any EU language, when the feed states none", () => {
		const norwegian = notice({ title: "Vognskjul", description: "Anskaffelsesprosedyre er åpen anbudskonkurranse etter FOA del II." });
		expect(eligibility(norwegian)).toBe("procedure_named:open");
		const negotiated = notice({
			title: "Drift av parkering",
			description: "Sykehusinnkjøp HF ønsker å varsle en kommende konkurranse med forhandling.",
		});
		expect(eligibility(negotiated)).toBe("procedure_named:restricted");
		const boilerplate = notice({
			title: "Reinigung",
			description:
				"Der Auftraggeber behält sich vor, für Wiederholungsleistungen ein Verhandlungsverfahren ohne Teilnahmewettbewerb durchzuführen.",
		});
		expect(extractSignals(boilerplate).bid_eligibility).toBe("unknown");
	});

	it("takes the real eForms notice's open procedure through ingestion and matching's view of it", () => {
		const n = parseFeed(readText(EFORMS_ORIGINAL)).notices[0] as NormalizedNotice;
		const input = inputOf(n);
		expect(input.procedure).toMatchObject({ kind: "open", competition: "open" });
		expect(input.procurement_category).toBe("services");
		expect(extractSignals(input)).toMatchObject({ bid_eligibility: "open", procurement_nature: "services" });
	});
});

describe("procurement_nature from the coded contract nature", () => {
	const coded = (category: string, more: Partial<SignalsInput>) =>
		extractSignals(notice({ ...more, procurement_category: category })).procurement_nature;

	it("follows the code when the title says nothing the word rules know", () => {
		expect(coded("services", { title: "Tervon ateriapalvelut" })).toBe("services");
		expect(coded("works", { title: "Ämari lennuliiklusala remont" })).toBe("construction");
		expect(coded("goods", { title: "Profil dlya stelі" })).toBe("goods");
	});

	it("keeps services and goods against the title's cognates, and lets goods become mixed", () => {
		expect(coded("services", { title: "Marché de maîtrise d'œuvre pour la construction du nouveau groupe scolaire" })).toBe("services");
		expect(
			coded("goods", {
				title: "Body-Worn Camera System",
				description: "Supply of cameras with professional services, data migration from the existing system and five-year maintenance.",
			}),
		).toBe("mixed");
	});

	it("lets a title that heads with a service override a goods code (the code names the object serviced)", () => {
		expect(coded("goods", { title: "Preventative Maintenance (PM) and Calibration Services of Balances and Centrifuges" })).toBe(
			"services",
		);
		expect(coded("goods", { title: "Rental of Generators" })).toBe("services");
		// Any other cue in the title does not: materials for road construction are goods.
		expect(coded("goods", { title: "Road Construction Aggregates and Asphalt" })).toBe("goods");
	});

	it("lets a title that plainly supplies goods or buys a service override a works code", () => {
		expect(coded("works", { title: "Supply, Installation and Commissioning of Eleven (11) Generators" })).toBe("goods");
		expect(coded("works", { title: "Preventative Maintenance of PABX & Telephone System" })).toBe("services");
		expect(coded("works", { title: "Lieferung, Montage und Inbetriebnahme von digitalen Unterrichtstafeln" })).toBe("goods");
		expect(coded("works", { title: "Kitchen and Bathroom Framework 2020-2024" })).toBe("construction");
	});

	it("lets the codes speak first for text the English word rules cannot read", () => {
		const french = notice({
			title: "Concours restreint de maîtrise d'œuvre en vue de la construction d'un collège",
			categories: [{ scheme: "CPV", code: "71220000" }],
		});
		expect(extractSignals(french).procurement_nature).toBe("services");
		const spanish = notice({
			title: "CONSTRUCCIÓN DE PAVIMENTO TIPO ASFALTO EN DISTINTOS PUNTOS DE LA CIUDAD",
			categories: [{ scheme: "UNSPSC", code: "72141100" }],
		});
		expect(extractSignals(spanish).procurement_nature).toBe("construction");
	});
});
