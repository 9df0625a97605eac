// Why this file exists: unit tests of the precision checks in services/matching/method/precision.ts
// (issue 16): notices that name or code the product's kind and still do not buy it stay out of a digest.
import { describe, expect, it } from "vitest";
import { CatalogKinds, registerCatalog } from "../../../services/matching/method/catalog-context.ts";
import { titleReadsAsService } from "../../../services/matching/method/nature.ts";
import { headUse, isPartsCode, namedUse } from "../../../services/matching/method/precision.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import type { NoticeView, ProductView } from "../../../services/matching/method/types.ts";
import { DIGEST_MIN_SCORE } from "../../../services/matching/method/weights.ts";
import { features, notice, product, ultFreezer } from "./fixtures.ts";

const taskChair = () =>
	product({
		oemName: "Sitwell",
		name: "Sitwell Series 2 task chair",
		model: "S2-TASK",
		description: "Ergonomic office task chair.",
		commodityCodes: [],
		specs: [],
	});

const titled = (title: string, categories: NoticeView["categories"], language = "en") =>
	notice({ title, description: "", language, items: [], categories });

/** Under the same codes, the notice titled `out` is kept from the digest by `feature`, and the one titled `kept` is not. */
function keptOutAndIn(p: ProductView, codes: NoticeView["categories"], feature: string, out: string, kept: string): void {
	const outside = scorePair(p, titled(out, codes));
	expect(features(outside)).toContain(feature);
	expect(outside.score).toBeLessThan(DIGEST_MIN_SCORE);
	const inside = scorePair(p, titled(kept, codes));
	expect(features(inside)).not.toContain(feature);
	expect(inside.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
}

describe("parts of the product's kind", () => {
	it("reads whether a passage names the head bare or only before a part noun", () => {
		const title = (text: string) => ({ text, kind: "title" as const });
		expect(headUse(title("Side Chair Components and Accessories"), "chair")).toBe("part");
		expect(headUse(title("Office chair replacement parts"), "chair")).toBe("part");
		expect(headUse(title("Chairs and accessories"), "chair")).toBe("bare");
		expect(headUse(title("Stacking chairs, 40 units"), "chair")).toBe("bare");
		expect(headUse(title("Desks"), "chair")).toBeNull();
		// Goods bought for the kind, named before the purpose preposition; a kind that holds the product is no such thing.
		expect(headUse(title("Cables and sensors for patient monitors"), "monitor")).toBe("part");
		expect(headUse(title("Winter tires for panel vans"), "van")).toBe("part");
		expect(headUse(title("Furniture for the new library: chairs and desks"), "chair")).toBe("bare");
		expect(headUse(title("Panel vans for the police"), "van")).toBe("bare");
	});

	it("tells parts codes from the goods they are parts of", () => {
		expect(isPartsCode("39114000")).toBe(true); // Parts of seats
		expect(isPartsCode("34330000")).toBe(true); // Spare parts for goods vehicles, vans and cars
		expect(isPartsCode("39112000")).toBe(false); // Chairs
		expect(isPartsCode("34110000")).toBe(false); // Passenger cars
	});

	it("keeps a notice for chair components out of a chair catalog's digest, and chairs in", () => {
		const furniture = [{ scheme: "PSC", code: "7110" }];
		keptOutAndIn(
			taskChair(),
			furniture,
			"parts_not_goods",
			"Side Chair Components and Accessories (21K01-105004/A)",
			"Office Chairs and Accessories (21K01-105005/A)",
		);
	});

	it("reads a notice classified only as parts as buying parts, unless the product is a part itself", () => {
		const chair = taskChair();
		const coded = scorePair(chair, titled("Seating (21K01-105006/A)", [{ scheme: "CPV", code: "39114000" }]));
		expect(features(coded)).toContain("parts_not_goods");
		const castor = product({
			oemName: "Sitwell",
			name: "Sitwell castor set for task chairs",
			model: "S2-CAST",
			description: "Replacement castors, parts of seats.",
			commodityCodes: ["39114000"],
			specs: [],
		});
		expect(features(scorePair(castor, titled("Parts of seats", [{ scheme: "CPV", code: "39114000" }])))).not.toContain("parts_not_goods");
	});
});

describe("the product named only as what other goods are for", () => {
	const monitor = () =>
		product({
			oemName: "Philips",
			name: "Philips IntelliVue MX450 patient monitor",
			model: "866062",
			description: "Bedside patient monitor.",
			commodityCodes: [],
			specs: [],
		});
	const coded = (title: string) =>
		notice({ title, description: "", language: "en", items: [], categories: [{ scheme: "CPV", code: "33195100" }] });

	it("reads how a passage names the product's model or line", () => {
		const title = (text: string) => ({ text, kind: "title" as const });
		expect(namedUse(title("Philips IntelliVue MX450 batteries and cables"), "mx450", ["monitor"])).toBe("part");
		expect(namedUse(title("Batteries for Philips IntelliVue MX450"), "mx450", ["monitor"])).toBe("part");
		expect(namedUse(title("IntelliVue MX450 replacement batteries"), "mx450", ["monitor"])).toBe("part");
		expect(namedUse(title("Philips IntelliVue MX450 patient monitors"), "mx450", ["monitor"])).toBe("bare");
		expect(namedUse(title("IntelliVue MX450 monitors for the ICU"), "mx450", ["monitor"])).toBe("bare");
		expect(namedUse(title("Patient monitors"), "mx450", ["monitor"])).toBeNull();
	});

	it("keeps batteries and cables for the named product out of the digest, and the product in", () => {
		for (const title of ["Batteries for Philips IntelliVue MX450", "Philips IntelliVue MX450 batteries and cables"]) {
			const r = scorePair(monitor(), coded(title));
			expect(features(r), title).toContain("parts_not_goods");
			expect(r.score, title).toBeLessThan(DIGEST_MIN_SCORE);
		}
		const itself = scorePair(monitor(), coded("Philips IntelliVue MX450 patient monitors"));
		expect(features(itself)).not.toContain("parts_not_goods");
		expect(itself.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});
});

describe("a broad code that holds the product, and words that name another kind", () => {
	const minibus = () =>
		product({
			oemName: "Vantor",
			name: "Vantor City 75 minibus",
			model: "CITY75",
			description: "Low-floor minibus for 30 passengers.",
			commodityCodes: [],
			specs: [],
		});

	it("lowers a specialist-vehicle notice whose title names scooters for a minibus", () => {
		const bus = minibus();
		const specialist = [{ scheme: "CPV", code: "34114000" }];
		const scooters = scorePair(bus, titled("Anskaffelse av snøscooter og vannscooter", specialist, "no"));
		expect(features(scooters)).toContain("words_name_other_kind");
		expect(scooters.score).toBeLessThan(DIGEST_MIN_SCORE);
		// The same code with words that name nothing else, or that name the product's kind, is left be.
		const plain = scorePair(bus, titled("Rammeavtale for spesialkjøretøy 2021", specialist, "no"));
		expect(features(plain)).not.toContain("words_name_other_kind");
		expect(plain.score).toBeGreaterThan(scooters.score);
	});

	it("does not read a word of another division as the kind the code means", () => {
		// "ADAPTÉ" of a French bus title reads as adaptors (division 31): no other kind of vehicle.
		const bus = minibus();
		const r = scorePair(bus, titled("AUTOBUS, 20 PASSAGERS, ADAPTÉ POUR FAUTEUIL ROULANT", [{ scheme: "CPV", code: "34100000" }]));
		expect(features(r)).not.toContain("words_name_other_kind");
	});
});

describe("the same word on both sides, filed under other goods", () => {
	it("lowers a kitchen freezer filed as kitchen equipment for a laboratory freezer", () => {
		const ult = ultFreezer();
		const kitchen = scorePair(ult, titled("Walk-In Fridge and Freezer (21401-121582/A)", [{ scheme: "PSC", code: "7320" }]));
		expect(features(kitchen)).toContain("other_kind_variant");
		expect(kitchen.score).toBeLessThan(DIGEST_MIN_SCORE);
		// The same words without a code that files them elsewhere stay.
		const uncoded = scorePair(ult, titled("Walk-In Fridge and Freezer (21401-121582/A)", []));
		expect(features(uncoded)).not.toContain("other_kind_variant");
	});
});

describe("services that name goods: work done to them, installation only, events", () => {
	const van = () =>
		product({
			oemName: "Ford",
			name: "Ford E-Transit 350 L3H2 panel van",
			model: "ETRANSIT350",
			description: "Electric panel van, 68 kWh.",
			commodityCodes: ["25101502"],
			specs: [],
		});
	const vehicles = [{ scheme: "PSC", code: "2310" }];

	it("reads a title that ends in an act done to the goods as a service, whatever its goods code", () => {
		const v = van();
		for (const title of ["CHEVROLET SUBURBAN ARMOURING (M9010-12PL02/A)", "Ambulance upfitting", "Panel van modifications (W0101-3/A)"]) {
			const r = scorePair(v, titled(title, vehicles));
			expect(features(r), title).toContain("services_not_goods");
			expect(r.score, title).toBeLessThan(DIGEST_MIN_SCORE);
		}
		// The goods themselves, the goods with their installation, or a kit for the work, stay goods.
		for (const title of ["Panel vans (W0101-4/A)", "Panel vans with installation of shelving", "Conversion kits for panel vans"])
			expect(features(scorePair(v, titled(title, vehicles))), title).not.toContain("services_not_goods");
	});

	it("reads a title that opens with installation, upfitting or an event as a service", () => {
		const chair = taskChair();
		const installing = scorePair(chair, titled("Installation of office chairs and desks", [{ scheme: "PSC", code: "7110" }]));
		expect(features(installing)).toContain("services_not_goods");
		expect(installing.score).toBeLessThan(DIGEST_MIN_SCORE);
		expect(features(scorePair(van(), titled("Upfitting of Ford Transit vans", vehicles)))).toContain("services_not_goods");
		expect(features(scorePair(chair, titled("Conference on ergonomic office chairs", [])))).toContain("services_not_goods");
		expect(features(scorePair(chair, titled("Organisation of a seminar on office chairs", [])))).toContain("services_not_goods");
		// "Conference chairs" are chairs; "Supply and installation of ..." buys the goods.
		expect(features(scorePair(chair, titled("Conference Chairs (84084-13-0194)", [{ scheme: "PSC", code: "7110" }])))).not.toContain(
			"services_not_goods",
		);
		expect(features(scorePair(chair, titled("Supply and installation of office chairs", [{ scheme: "PSC", code: "7110" }])))).not.toContain(
			"services_not_goods",
		);
	});

	it("reads installation leading a title as a service in the CPV's languages, from its labels", () => {
		const reads = (title: string, lang: "es" | "fr" | "it" | "pl") => titleReadsAsService(notice({ title, language: lang }), [], [lang]);
		expect(reads("Instalación de sillas de oficina", "es")).toBe(true);
		expect(reads("Installation de chaises de bureau", "fr")).toBe(true);
		expect(reads("Installazione di sedie da ufficio", "it")).toBe(true);
		expect(reads("Suministro de sillas de oficina", "es")).toBe(false);
		expect(reads("Fourniture et installation de chaises de bureau", "fr")).toBe(false);
	});

	it("reads Norwegian service titles, past a framework named first, unless buying is named beside the service", () => {
		const reads = (title: string) => titleReadsAsService(notice({ title, language: "no" }), [], ["da", "sv"]);
		for (const title of [
			"Vedlikehold av heiser",
			"Utleie av biler",
			"Reparasjon av biler",
			"Rammeavtale på vedlikehold av aggregat",
			"Installasjon av ladestasjoner",
		])
			expect(reads(title), title).toBe(true);
		for (const title of [
			"Anskaffelse av kontormøbler",
			"Rammeavtale - leasing og/eller kjøp av person- og varebiler",
			"Rammeavtale IT-utstyr",
		])
			expect(reads(title), title).toBe(false);
		// A framework for maintenance is maintenance in English too.
		expect(titleReadsAsService(notice({ title: "Framework agreement for the maintenance of lifts" }), [], [])).toBe(true);
	});

	it("keeps accessories bought for the product's kind out of the digest", () => {
		const monitor = product({
			oemName: "Philips",
			name: "Philips IntelliVue MX450 patient monitor",
			model: "866062",
			description: "Bedside patient monitor.",
			commodityCodes: [],
			specs: [],
		});
		const coded = [{ scheme: "CPV", code: "33195100" }];
		keptOutAndIn(
			monitor,
			coded,
			"parts_not_goods",
			"Cables and sensors for patient monitors",
			"Patient monitors for the intensive care unit",
		);
	});
});

describe("a code the publisher filed beside the purchase", () => {
	const monitor = (tenantId: string) =>
		product({
			tenantId,
			oemName: "Philips",
			name: "Philips IntelliVue MX450 patient monitor",
			model: "866062",
			description: "Bedside patient monitor.",
			commodityCodes: [],
			specs: [],
		});
	const itClient = (title: string, language = "da") =>
		notice({
			title,
			description: "",
			language,
			items: [],
			categories: ["30200000", "30213100", "30213300", "30231300", "33195100"].map((code) => ({ scheme: "CPV", code })),
		});

	const medical = (tenantId: string) => {
		const kinds = new CatalogKinds();
		for (const [i, g] of ["331", "331", "336", "332"].entries()) kinds.set(`${tenantId}-other-${i}`, [g]);
		registerCatalog(tenantId, kinds);
		return tenantId;
	};

	it("lowers an agreement only through one code alone in its division, unread in the words", () => {
		const r = scorePair(monitor(medical("tenant-stray-1")), itClient("IT-klientudstyr 2021-2025"));
		expect(features(r)).toContain("stray_code");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("leaves the code be when the words read its division, or the company sells the main code's goods", () => {
		expect(
			features(scorePair(monitor(medical("tenant-stray-2")), itClient("Patient monitors and IT client equipment", "en"))),
		).not.toContain("stray_code");
		// A company most of whose other products are computers reads the one code as part of the purchase.
		const kinds = new CatalogKinds();
		for (const id of ["c1", "c2", "c3"]) kinds.set(id, ["302"]);
		registerCatalog("tenant-stray-3", kinds);
		// Nor does a company whose catalog says nothing of its trade (no other product known).
		expect(features(scorePair(monitor("tenant-stray-4"), itClient("IT-klientudstyr 2021-2025")))).not.toContain("stray_code");
		expect(features(scorePair(monitor("tenant-stray-3"), itClient("IT-klientudstyr 2021-2025")))).not.toContain("stray_code");
	});
});

describe("a kind read from one word of the product, in a trade its company is not in", () => {
	const freezer = (tenantId: string) => ({ ...ultFreezer(), tenantId });
	const appliances = () =>
		notice({
			title: "Ձեռքբերման մրցույթ 2015",
			description: "",
			language: "hy",
			items: [],
			categories: [{ scheme: "CPV", code: "39710000" }],
		});
	const catalog = (tenantId: string, groups: string[]) => {
		const kinds = new CatalogKinds();
		groups.forEach((g, i) => kinds.set(`${tenantId}-other-${i}`, [g]));
		registerCatalog(tenantId, kinds);
	};

	it("lowers a laboratory supplier's freezer in a notice for electrical domestic appliances", () => {
		catalog("tenant-trade-lab", ["384", "384", "385", "389"]);
		const r = scorePair(freezer("tenant-trade-lab"), appliances());
		expect(features(r)).toContain("other_trade");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("leaves it be for a company that trades in the notice's division, or whose trade is unknown", () => {
		expect(features(scorePair(freezer("tenant-trade-unknown"), appliances()))).not.toContain("other_trade");
		catalog("tenant-trade-appliances", ["397", "397", "391", "384"]);
		const r = scorePair(freezer("tenant-trade-appliances"), appliances());
		expect(features(r)).toContain("concept_agreement");
		expect(features(r)).not.toContain("other_trade");
	});
});
