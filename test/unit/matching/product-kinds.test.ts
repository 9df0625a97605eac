// Why: issue 16's product side. An uncoded product whose phrase names no CPV label still has a kind:
// its head's labels chosen by its own words and by what its company's other products are, weaker
// than a label its phrase names; labels' acronyms; a head the labels know is not read by its ending.
import { describe, expect, it } from "vitest";
import { cpvCodesForText, headStems } from "../../../shared/taxonomy/label-index.ts";
import { CatalogKinds } from "../../../services/matching/method/catalog-context.ts";
import { productConcepts } from "../../../services/matching/method/concepts.ts";
import { ProductIndex } from "../../../services/matching/method/product-index.ts";
import { productProfile } from "../../../services/matching/method/product-profile.ts";
import type { ProductView } from "../../../services/matching/method/types.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { notice, product } from "./fixtures.ts";

const uncoded = (name: string, description = "", extra: Partial<ProductView> = {}) =>
	product({ name, description, oemName: "Acme", model: null, commodityCodes: [], specs: [], ...extra });
const read = (p: ProductView) => productConcepts(p, [], false);
const at = (cs: { code: string; confidence: number }[], prefix: string) =>
	Math.max(0, ...cs.filter((c) => c.code.startsWith(prefix)).map((c) => c.confidence));

describe("a product's kind where its phrase names no label", () => {
	it("reads the labels its head heads, weaker than a label its phrase names", () => {
		const display = read(uncoded("Acme Board X86 interactive display", "86-inch interactive display with iQ for classrooms."));
		expect(at(display, "3023131")).toBeGreaterThan(0.3);
		// A phrase that names the label ("flat panel display") is surer than one that only shares its head.
		expect(at(display, "3023131")).toBeLessThan(at(read(uncoded("Acme X86 flat panel display")), "3023131"));
	});

	it("reads a head whose stem only begins a label's ('haemodialyser' of 'haemodialysis')", () => {
		expect(headStems("haemodialys")).toContain("haemodialysi");
		expect(headStems("bike")).toEqual([]);
		const dialyser = read(uncoded("FX 80 high-flux haemodialyser", "Single-use high-flux polysulfone dialyser."));
		expect(at(dialyser, "33181")).toBeGreaterThan(0);
	});

	it("reads no kind from a word before a head the labels do not know ('cargo e-bike', 'thermal cycler')", () => {
		expect(read(uncoded("Acme Load 60 cargo e-bike", "Full-suspension cargo e-bike for deliveries."))).toEqual([]);
		expect(read(uncoded("Acme X50 thermal cycler")).some((c) => c.code.startsWith("4411"))).toBe(false);
	});

	it("reads a kind of several words named before a head the labels do not know ('PCR thermal cycler')", () => {
		const cycler = read(uncoded("Acme X50 thermal cycler", "Gradient PCR thermal cycler with silver block."));
		expect(at(cycler, "3895")).toBeGreaterThan(0);
		expect(at(cycler, "3895")).toBeLessThan(0.5);
	});

	it("reads a description's first clause up to what the product does ('... monitor that doubles as a module')", () => {
		const monitor = read(
			uncoded("Acme X3 transport monitor", "Compact transport and bedside monitor that doubles as a multi-measurement module."),
		);
		expect(monitor.some((c) => c.code.startsWith("3173"))).toBe(false);
	});

	it("retrieves such a product from the index by its kind: a notice in another language that only names the kind", () => {
		const index = new ProductIndex();
		const display = uncoded("Acme Board X86 interactive display", "86-inch interactive display for classrooms.", { tenantId: "kinds-av" });
		index.upsert(display);
		const flat = notice({ title: "Lieferung von Flachbildschirmen", description: "", items: [], categories: [], language: "de" });
		expect(index.candidatesForNotice(flat).map((c) => c.product.productId)).toContain(display.productId);
	});

	it("leaves a product that its codes or its phrase already place alone", () => {
		const laptop = uncoded("Acme 14 business laptop", "", { commodityCodes: ["43211503"] });
		const cs = productProfile(laptop).concepts;
		expect(cs.every((c) => c.code.startsWith("302"))).toBe(true);
	});
});

describe("what the labels spell", () => {
	it("reads a label's bracketed acronym as the words it stands for ('PCR')", () => {
		expect(cpvCodesForText("Real-Time PCR System", "en")[0]?.code).toBe("38951000");
		// Its words count together, not one by one; an acronym the stemmer would change ("ILS" -> "il") is not one.
		expect(cpvCodesForText("USB sticks", "en").some((h) => h.code.startsWith("2221"))).toBe(false);
		expect(cpvCodesForText("Real-Time PCR System", "en").some((h) => h.code.startsWith("4454"))).toBe(false);
		expect(cpvCodesForText("Office supplies, Chicago, IL", "en").some((h) => h.code.startsWith("3496"))).toBe(false);
		const qpcr = read(uncoded("Acme Q5 Real-Time PCR System, 96-well"));
		expect(at(qpcr, "38951")).toBeGreaterThan(0.5);
	});

	it("does not read a head the labels know by its ending: an ultrasound system is no sound equipment", () => {
		const us = read(uncoded("Acme Lumen portable ultrasound system", "Point-of-care ultrasound with linear and curved transducers."));
		expect(us.some((c) => c.code.startsWith("3234"))).toBe(false);
		expect(at(us, "3311")).toBeGreaterThan(0);
	});
});

describe("the catalog settles what a product's words leave open", () => {
	const medical = (tenantId: string) => [
		uncoded("Acme MX4 patient monitor", "", { tenantId }),
		uncoded("Acme S2 automated external defibrillator", "", { tenantId }),
		uncoded("Acme IV catheter 20G", "", { tenantId }),
		uncoded("Acme dialysis fluid filter", "", { tenantId }),
	];

	it("tallies the groups each product is surely read into, without the product itself", () => {
		const kinds = new CatalogKinds();
		kinds.set("a", ["331"]);
		kinds.set("b", ["331", "302"]);
		kinds.set("c", ["302"]);
		expect(kinds.contextFor("a").share("331")).toBe(0.5);
		expect(kinds.contextFor("c").share("33")).toBe(1);
		expect(kinds.contextFor("a").largest(3)).toBe(1);
		expect(kinds.contextFor("b").largest(3)).toBe(0.5);
		const before = kinds.version;
		kinds.set("a", ["331"]);
		expect(kinds.version).toBe(before);
		kinds.remove("b");
		expect(kinds.contextFor("a").share("302")).toBe(1);
	});

	it("chooses among the head's labels the one in the company's line of goods", () => {
		const alone = uncoded("Acme Lumen portable ultrasound system", "", { tenantId: "kinds-alone" });
		expect(productProfile(alone).concepts.some((c) => c.code.startsWith("384"))).toBe(true);
		const index = new ProductIndex();
		const us = uncoded("Acme Lumen portable ultrasound system", "", { tenantId: "kinds-medical" });
		// Indexed first: its keys follow the catalog as its other products arrive.
		index.upsert(us);
		for (const p of medical("kinds-medical")) index.upsert(p);
		const cs = productProfile(us).concepts;
		expect(cs.some((c) => c.code.startsWith("3311"))).toBe(true);
		expect(cs.some((c) => c.code.startsWith("384"))).toBe(false);
		// A notice coded only as laboratory ultrasound disintegrators no longer retrieves it.
		const disintegrators = notice({ title: "", description: "", items: [], categories: [{ scheme: "CPV", code: "38436700" }] });
		expect(index.candidatesForNotice(disintegrators).map((c) => c.product.productId)).not.toContain(us.productId);
	});

	it("lets a qualifier of the company's own line say which kind a head of another division is, in every phrase", () => {
		const pencil = (tenantId: string) =>
			uncoded("Acme rocker switch pencil", "Single-use electrosurgical pencil (diathermy pen) with blade electrode.", { tenantId });
		const alone = pencil("kinds-pencil-alone");
		const index = new ProductIndex();
		const inCatalog = pencil("kinds-pencil-medical");
		for (const p of [inCatalog, ...medical("kinds-pencil-medical")]) index.upsert(p);
		const stationery = (p: ProductView) => at(productProfile(p).concepts, "30192");
		expect(at(productProfile(alone).concepts, "33161")).toBe(0);
		expect(at(productProfile(inCatalog).concepts, "33161")).toBeGreaterThan(0);
		expect(stationery(inCatalog)).toBeLessThan(stationery(alone));
	});

	it("trusts less a lone word read into a division none of a specialised catalog's products is in", () => {
		const dock = (tenantId: string) => uncoded("Acme Universal Dock D22", "", { tenantId });
		const alone = dock("kinds-dock-alone");
		const index = new ProductIndex();
		const inCatalog = dock("kinds-computers");
		for (const p of [
			inCatalog,
			...["Acme 14 business laptop", "Acme tiny desktop computer", "Acme 10 tablet computer", "Acme 24 monitor"].map((name) =>
				uncoded(name, "", { tenantId: "kinds-computers", commodityCodes: ["43211503"] }),
			),
		])
			index.upsert(p);
		const harbour = (p: ProductView) => at(productProfile(p).concepts, "3493");
		expect(harbour(alone)).toBeGreaterThan(0);
		expect(harbour(inCatalog)).toBeLessThan(harbour(alone));
	});
});

describe("a name that ends in a trim or feature word", () => {
	const car = (name: string, description: string) =>
		product({ oemName: "Toyota", name, model: null, description, commodityCodes: [], specs: [] });

	it("takes the description's head as well, when the name's head heads no goods label", () => {
		expect(
			productProfile(car("Toyota Corolla Touring Sports 1.8 Hybrid Active", "Estate car for pool and service fleets.")).heads,
		).toContain("car");
		// A kind the labels lack counts when the description writes it as an acronym.
		const suv = car("Toyota RAV4 2.5 Plug-in Hybrid AWD-i", "Plug-in hybrid SUV with 75 km electric range.");
		expect(productProfile(suv).heads).toContain("suv");
		const r = scorePair(suv, notice({ title: "Supply of one SUV", description: "", items: [], categories: [] }));
		expect(r.rationale.map((e) => e.feature)).toContain("product_type_overlap");
	});

	it("leaves a name that says its kind be, and takes no class noun, brand or packaging from the description", () => {
		expect(productProfile(car("Steelcase Series 2 task chair", "Ergonomic office task stool.")).heads).toEqual(["chair"]);
		const pcr = car("QuantStudio 5 Real-Time PCR System, 96-well", "Real-time PCR instrument for gene expression.");
		expect(productProfile(pcr).heads).not.toContain("instrument");
		const bike = car("Charger4 GT vario e-bike", "Bosch Performance Line CX touring e-bike for commuting.");
		expect(productProfile(bike).heads).not.toContain("bosch");
		const tips = car("epT.I.P.S. Standard pipette tips, 50-1000 µL", "Pipette tips in bags, PCR clean.");
		expect(productProfile(tips).heads).not.toContain("bag");
	});
});
