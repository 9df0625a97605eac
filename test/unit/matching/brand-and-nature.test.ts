import { describe, expect, it } from "vitest";
import { assessNature } from "../../../services/matching/method/nature.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { extractSignals } from "../../../services/matching/signals/extract.ts";
import { noticeView, planningStage } from "../../../services/matching/views.ts";
import { DIGEST_MIN_SCORE } from "../../../services/matching/method/weights.ts";
import type { NoticeView } from "../../../services/matching/method/types.ts";
import { namesGoodsOutside } from "../../../shared/taxonomy/label-index.ts";
import { features, notice, product, ultFreezer, vrlaBattery } from "./fixtures.ts";

describe('"brand name or equal" versus "brand name only" for another brand', () => {
	const ours = product();

	it("keeps an or-equal buy of another brand open to a product of the same kind", () => {
		const r = scorePair(
			ours,
			notice({
				title: "Brand Name or Equal - Kestrel KX-900 PoE+ Access Switches",
				description: "BRAND NAME OR EQUAL. Kestrel KX-900 48-port PoE+ access switch or equal.",
				items: [
					{
						description: "Kestrel KX-900 48-port PoE+ access switch with 10G SFP+ uplinks, or equal",
						quantity: 10,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "43222612" },
					},
				],
			}),
		);
		expect(features(r)).not.toContain("brand_only_other_brand");
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("takes a brand-name-only buy of another brand out of the digest", () => {
		const r = scorePair(
			ours,
			notice({
				title: "Kestrel KX-900 PoE+ Access Switches - Brand Name Only",
				description: "BRAND NAME ONLY - KESTREL. Quotes for products of any other manufacturer will be rejected.",
				items: [
					{
						description: "Kestrel KX-900 48-port PoE+ access switch (brand name only)",
						quantity: 10,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "43222612" },
					},
				],
			}),
		);
		expect(features(r)).toContain("brand_only_other_brand");
		expect(r.score).toBeLessThan(40);
	});

	it("does not penalize a brand-name-only buy of the product's own maker", () => {
		const r = scorePair(
			ours,
			notice({
				title: "Norvik Stratus 7400 Access Switches - Brand Name Only",
				description: "Brand name only: Norvik Networks. No substitutes.",
				items: [
					{
						description: "Norvik NX7400-48P-A access switch",
						quantity: 10,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "43222612" },
					},
				],
			}),
		);
		expect(features(r)).not.toContain("brand_only_other_brand");
		expect(r.score).toBe(100);
	});
});

describe("goods versus services and construction", () => {
	const ours = product();

	it("reads nature from item codes, and from words where codes are missing", () => {
		const services = notice({
			title: "Network Maintenance and Repair Services",
			items: [
				{
					description: "On-site maintenance of access switches, base year",
					quantity: 12,
					unit: "month",
					classification: { scheme: "UNSPSC", code: "81111812" },
				},
			],
		});
		expect(assessNature(services).nature).toBe("services");
		const works = notice({
			title: "Library Renovation - General Construction",
			items: [{ description: "General construction works", quantity: 1, unit: "lot", classification: null }],
		});
		expect(assessNature(works).nature).toBe("construction");
		const mixed = notice({
			items: [
				{ description: "PoE+ access switch", quantity: 8, unit: "each", classification: { scheme: "UNSPSC", code: "43222612" } },
				{ description: "Installation and configuration", quantity: 1, unit: "lot", classification: { scheme: "UNSPSC", code: "81111500" } },
			],
		});
		expect(assessNature(mixed).nature).toBe("mixed");
		expect(assessNature(notice()).nature).toBe("goods");
	});

	it("does not treat a maintenance contract that names the maker as a purchase of its goods", () => {
		const r = scorePair(
			ours,
			notice({
				title: "Maintenance Services for Norvik Access Switches (Labor Only)",
				description:
					"The contractor shall maintain the existing Norvik Stratus 7400 access switches. The Government furnishes all equipment and spares.",
				items: [
					{
						description: "Switch maintenance and repair services, base year",
						quantity: 12,
						unit: "month",
						classification: { scheme: "UNSPSC", code: "81111812" },
					},
				],
			}),
		);
		expect(features(r)).toContain("services_not_goods");
		expect(r.score).toBeLessThanOrEqual(DIGEST_MIN_SCORE / 2);
	});

	it("reads a title that opens with leasing or upkeep in another language as a service", () => {
		const lease = (title: string) =>
			scorePair(
				ours,
				notice({
					title,
					description: "",
					language: "es",
					categories: [{ scheme: "UNSPSC", code: "43222612" }],
					items: [{ description: "Switch de acceso PoE+ de 48 puertos", quantity: 12, unit: "pieza", classification: null }],
				}),
			);
		const leased = lease("Arrendamiento de switches de acceso PoE+");
		expect(features(leased)).toContain("services_not_goods");
		expect(leased.score).toBeLessThan(DIGEST_MIN_SCORE);
		// Buying them outright stays goods.
		const bought = lease("Adquisición de switches de acceso PoE+");
		expect(features(bought)).not.toContain("services_not_goods");
		expect(bought.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("does not treat construction that mentions the gear as a purchase of it", () => {
		const r = scorePair(
			ours,
			notice({
				title: "New Branch Library - General Construction",
				description: "Work includes relocating owner-furnished Norvik access switches to the new telecom room.",
				items: [
					{
						description: "General construction, branch library",
						quantity: 1,
						unit: "lot",
						classification: { scheme: "UNSPSC", code: "72121400" },
					},
				],
			}),
		);
		expect(features(r)).toContain("construction_not_goods");
		expect(r.score).toBeLessThanOrEqual(DIGEST_MIN_SCORE / 2);
	});

	it("reads a works-coded notice whose title opens with a supply of goods as buying them", () => {
		const supply = (title: string) =>
			notice({
				title,
				language: "de",
				procurementNature: "construction",
				items: [{ description: title, quantity: 1, unit: "lot", classification: { scheme: "CPV", code: "45317000" } }],
			});
		const a = assessNature(supply("Lieferung, Montage und Inbetriebnahme von PoE+ Access Switches"));
		expect(a.nature).toBe("mixed");
		expect(a.items).toEqual(["goods"]);
		const r = scorePair(ours, supply("Lieferung, Montage und Inbetriebnahme von PoE+ Access Switches"));
		expect(features(r)).not.toContain("construction_not_goods");
		// Works that merely install them stay construction.
		expect(assessNature(supply("Elektroinstallation im Neubau der Bibliothek")).nature).toBe("construction");
		expect(features(scorePair(ours, supply("Elektroinstallation im Neubau der Bibliothek")))).toContain("construction_not_goods");
	});

	it("lowers the product's kind when the notice asks for it as it serves other goods", () => {
		const battery = vrlaBattery();
		const titled = (title: string) =>
			scorePair(battery, notice({ title, description: "", items: [], categories: [{ scheme: "CPV", code: "31440000" }] }));
		const ventilator = titled("VENTILATOR BATTERIES");
		expect(features(ventilator)).toContain("other_goods_variant");
		expect(ventilator.score).toBeLessThan(DIGEST_MIN_SCORE);
		// A qualifier that is a kind of battery, not other goods, keeps it.
		const sealed = titled("SEALED BATTERIES");
		expect(features(sealed)).not.toContain("other_goods_variant");
		expect(sealed.score).toBeGreaterThan(ventilator.score);
	});

	it("reads a bare head in the title as the other passages qualify it: vehicle batteries are not stationary ones", () => {
		const battery = vrlaBattery();
		const gel = product({
			name: "Sentinel OPzV 2 V gel cells",
			model: "OPZV2",
			oemName: "Sentinel",
			description: "Tubular gel cells for substations and rectifier battery banks.",
			commodityCodes: ["26111701"],
			specs: [],
		});
		const described = (description: string) =>
			notice({ title: "Belfast: Batteries", description, items: [], categories: [{ scheme: "CPV", code: "31440000" }] });
		const vehicles = described("Supply of motor vehicle and plant batteries.");
		const plain = described("Supply of batteries to the council's depots.");
		expect(features(scorePair(battery, vehicles))).toContain("other_goods_variant");
		expect(scorePair(battery, vehicles).score).toBeLessThan(DIGEST_MIN_SCORE);
		expect(features(scorePair(battery, plain))).not.toContain("other_goods_variant");
		expect(scorePair(battery, plain).score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
		// Where only the codes agree (no word of the notice is the product's), the same reading holds.
		expect(features(scorePair(gel, vehicles))).toContain("other_goods_variant");
		expect(scorePair(gel, vehicles).score).toBeLessThan(scorePair(gel, plain).score);
		// "Vehicle" is in electrical labels only as what they serve ("equipment for engines and vehicles"): other goods.
		expect(namesGoodsOutside("vehicl", "31")).toBe(true);
		expect(namesGoodsOutside("metal", "39")).toBe(false);
	});

	it("lowers a type qualified otherwise when the notice's own classification files it under other goods", () => {
		const ult = ultFreezer();
		const filed = (title: string, categories: NoticeView["categories"]) =>
			scorePair(ult, notice({ title, description: "", language: "en", categories, items: [] }));
		const refrigeration = [{ scheme: "PSC", code: "4110" }];
		const walkIn = filed("Walk-in Freezer (W3508-140002/A)", refrigeration);
		expect(features(walkIn)).toContain("other_kind_variant");
		expect(walkIn.score).toBeLessThan(DIGEST_MIN_SCORE);
		// Either sign alone is no other kind: the qualifier without such a code, the code without another qualifier.
		expect(features(filed("Walk-in Freezer (W3508-140002/A)", []))).not.toContain("other_kind_variant");
		const same = filed("Ultra-low temperature freezer (W3508-140002/A)", refrigeration);
		expect(features(same)).not.toContain("other_kind_variant");
		expect(same.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
		// Only the head word in common, filed under other goods: a homonym ("Privacy filters" under computer accessories).
		const filter = product({
			oemName: "Fresenius",
			name: "Diasafe plus dialysis fluid filter",
			model: "DSP",
			description: "Ultrafilter for ultrapure dialysis fluid.",
			commodityCodes: [],
			specs: [],
		});
		const privacy = scorePair(
			filter,
			notice({ title: "Privacy filters (45045-130144/A)", description: "", items: [], categories: [{ scheme: "CPV", code: "30237480" }] }),
		);
		expect(features(privacy)).toContain("other_kind_variant");
		expect(privacy.score).toBeLessThan(DIGEST_MIN_SCORE / 2);
		// Codes whose group the notice's own words read in contradict nothing: the product's reading is the odd one out.
		const rectifier = product({
			oemName: "Voltek",
			name: "Voltek Flatpack 48/2000 rectifier module",
			model: "VF-48-2000",
			description: "48 V DC rectifier module for telecom power systems.",
			commodityCodes: [],
			specs: [],
		});
		const rectifiers = notice({
			title: "RECTIFIERS (W8486-12345/A)",
			description: "",
			language: "en",
			items: [],
			categories: [{ scheme: "PSC", code: "6130" }],
		});
		expect(features(scorePair(rectifier, rectifiers))).toContain("product_type_overlap");
		expect(features(scorePair(rectifier, rectifiers))).not.toContain("other_kind_variant");
		// A division alone files nothing: laboratory equipment (38) for a freezer read as an appliance (39).
		expect(features(filed("Upright ultra-low temperature freezer", [{ scheme: "CPV", code: "38000000" }]))).not.toContain(
			"other_kind_variant",
		);
	});

	it("reads a notice that lists its goods line by line under a broad code as buying what the lines name", () => {
		const catheter = product({
			oemName: "Halvard Medical",
			name: "Halvard Safety IV catheter",
			model: "HSC-20",
			description: "Safety peripheral intravenous catheter, sizes 14G-24G.",
			commodityCodes: [],
			specs: [],
		});
		const listing = (lines: string[]) =>
			notice({
				title: "Tender Ref 17/01754",
				description: "",
				language: "en",
				categories: [],
				items: lines.map((description) => ({
					description,
					quantity: 2,
					unit: "each",
					classification: { scheme: "CPV", code: "33140000" },
				})),
			});
		const instruments = [
			"Corneal scissors, curved, 100 mm, stainless steel",
			"Capsulorhexis forceps, 23G",
			"Iris spatula, angled 30 degrees",
			"Eyelid speculum, universal",
			"Needle holder, curved, with lock",
			"Surgical blades, sterile",
		];
		const notListed = scorePair(catheter, listing(instruments));
		expect(features(notListed)).toContain("not_on_the_list");
		expect(notListed.score).toBeLessThan(DIGEST_MIN_SCORE);
		// One line that names the kind puts it on the list.
		const listed = scorePair(catheter, listing([...instruments.slice(1), "Peripheral intravenous catheters, 20G"]));
		expect(features(listed)).not.toContain("not_on_the_list");
		expect(listed.score).toBeGreaterThan(notListed.score);
		// A short list says too little to rule anything out.
		expect(features(scorePair(catheter, listing(instruments.slice(0, 3))))).not.toContain("not_on_the_list");
	});

	it("reads a head word the product's own qualifier places elsewhere as a homonym: a power generator is no electrosurgical one", () => {
		const esu = product({
			oemName: "Corvex Surgical",
			name: "Corvex E8 electrosurgical generator",
			model: "CX-E8",
			description: "Electrosurgical generator with monopolar and bipolar outputs.",
			commodityCodes: [],
			specs: [],
		});
		const power = scorePair(
			esu,
			notice({ title: "GENERATOR (EP077-141836/A)", description: "", items: [], categories: [{ scheme: "PSC", code: "6115" }] }),
		);
		expect(features(power)).toContain("homonym_kind");
		expect(power.score).toBeLessThan(DIGEST_MIN_SCORE);
		const surgical = scorePair(esu, notice({ title: "Electrosurgical generators", description: "", items: [], categories: [] }));
		expect(features(surgical)).not.toContain("homonym_kind");
		expect(surgical.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("keeps a goods line of a mixed notice", () => {
		const r = scorePair(
			ours,
			notice({
				items: [
					{
						description: "48-port PoE+ access switch with 10G SFP+ uplinks",
						quantity: 8,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "43222612" },
					},
					{
						description: "Installation and configuration",
						quantity: 1,
						unit: "lot",
						classification: { scheme: "UNSPSC", code: "81111500" },
					},
				],
			}),
		);
		expect(features(r)).not.toContain("service_line_only");
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("does not count market research as a purchase", () => {
		const r = scorePair(
			ours,
			notice({
				title: "Sources Sought - PoE+ Access Switches",
				description: "This is a sources sought notice for market research purposes only.",
			}),
		);
		expect(features(r)).toContain("market_research");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("hands the method the language the feed declares, and none when it declares none", () => {
		const stored = {
			id: "9f0c4a52-5b1e-4a8e-9d0c-2f1d6f3c1a10",
			source: "ocds",
			source_id: "ocds-x-1",
			rfp_id: "R-1",
			reference_number: "R-1",
			title: "Fournitures de laboratoire",
			issuing_body: "Ministère",
			description: "",
			categories: [],
			deadline: null,
			estimated_value: null,
			currency: null,
			source_status: "active",
			source_url: null,
			published_at: null,
			version: null,
			items: [],
			set_aside: null,
			eligibility: null,
			procedure: null,
			procurement_category: null,
		};
		const signals = extractSignals({ title: stored.title, description: "", items: [], issuing_body: "", categories: [] });
		expect(noticeView({ ...stored, details: { language: "fr" } }, signals).language).toBe("fr");
		expect(noticeView({ ...stored, details: {} }, signals).language).toBeNull();
		expect(noticeView({ ...stored, details: { language: 7 } }, signals).language).toBeNull();
	});

	it("does not count a notice published at the planning stage as a purchase", () => {
		expect(planningStage("planning")).toBe(true);
		expect(planningStage("pin-only")).toBe(true);
		expect(planningStage("pin-rtl")).toBe(true);
		// A prior information notice that calls for competition, and a tender, are purchases.
		expect(planningStage("pin-cfc-standard")).toBe(false);
		expect(planningStage("tender")).toBe(false);
		expect(planningStage(undefined)).toBe(false);
		const tender = scorePair(ours, notice());
		const planned = scorePair(ours, notice({ planningOnly: true }));
		expect(tender.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
		expect(features(planned)).toContain("market_research");
		expect(planned.score).toBeLessThan(DIGEST_MIN_SCORE);
	});
});
