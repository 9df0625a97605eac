// Why: issue 16's promise that a notice in any EU language, or coded in another scheme, finds the
// catalog that sells its kind of goods: CPV labels as a dictionary, crosswalks, concept agreement.
import { describe, expect, it } from "vitest";
import { cpvCodesForText, isLabelWord, kindOfHeadNoun, opensWithServiceLead } from "../../../shared/taxonomy/label-index.ts";
import {
	agreementOf,
	containmentStrength,
	noticeConcepts,
	noticeLanguage,
	productConcepts,
	refineByText,
} from "../../../services/matching/method/concepts.ts";
import { parseCode } from "../../../services/matching/method/codes.ts";
import { ProductIndex } from "../../../services/matching/method/product-index.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { DIGEST_MIN_SCORE } from "../../../services/matching/method/weights.ts";
import { features, notice, product, ultFreezer } from "./fixtures.ts";

const centrifuge = product({
	oemName: "Eppendorf",
	name: "Eppendorf Centrifuge 5425 R refrigerated microcentrifuge",
	model: "5406000640",
	description: "Refrigerated 24-place microcentrifuge for 1.5/2.0 mL tubes.",
	commodityCodes: [],
});

describe("CPV labels as a dictionary", () => {
	it("reads the kind of goods from words in several languages, compounds included", () => {
		const codes = (text: string, lang: Parameters<typeof cpvCodesForText>[1]) => cpvCodesForText(text, lang).map((h) => h.code.slice(0, 5));
		expect(codes("Lieferung von Laborzentrifugen", "de")).toContain("42931");
		expect(codes("Fourniture de centrifugeuses de laboratoire", "fr")).toContain("42931");
		expect(codes("refrigerated microcentrifuge", "en")).toContain("42931");
		expect(codes("OPTICAL DEPTH FIELD MICROSCOPE", "en")[0]).toBe("38634");
		// A label must hold the stem when one is required; one common word is not enough.
		expect(cpvCodesForText("delivery of equipment", "en")).toEqual([]);
		expect(cpvCodesForText("Toyota estate car", "en", { mustHold: "toyota" })).toEqual([]);
	});

	it("reads a Spanish or Portuguese singular whose stem loses an infinitive-like ending as its plural's label", () => {
		// Snowball: "catéter" -> "catet", the label's "catéteres" -> "cateter".
		expect(cpvCodesForText("CATETER PUNZOCAT CALIBRE NO. 18", "es")[0]?.code).toBe("33141200");
		expect(cpvCodesForText("Catéteres", "es")[0]?.code).toBe("33141200");
		// Only a word's own other form: "necesidad" is no "neceser" (toiletry bag), "tela" no "telar" (loom), and the
		// other form is no compound whose tail is a label ("cateter" is no "tetera").
		const codes = (text: string) => cpvCodesForText(text, "es", { limit: 10 }).map((h) => h.code);
		expect(codes("REPUESTOS A NECESIDAD")).not.toContain("18929000");
		expect(codes("TELA DE ALGODON")).not.toContain("42713000");
		expect(codes("CATETER PUNZOCAT")).not.toContain("39711320");
		// Other languages' stems are left as they are.
		expect(cpvCodesForText("CATETER PUNZOCAT CALIBRE NO. 18", "en")).toEqual([]);
	});

	it("tells a title that opens with hire, leasing or upkeep in any language from one that buys", () => {
		expect(opensWithServiceLead("Arrendamiento de bienes informáticos", "es")).toBe(true);
		expect(opensWithServiceLead("Wartung der Notstromaggregate", "de")).toBe(true);
		expect(opensWithServiceLead("Noleggio di autoveicoli", "it")).toBe(true);
		// The words of buying itself are not services, though service labels use them too.
		expect(opensWithServiceLead("Suministro de computadoras", "es")).toBe(false);
		expect(opensWithServiceLead("Compra de computadoras", "es")).toBe(false);
		expect(opensWithServiceLead("Lieferung von Laborzentrifugen", "de")).toBe(false);
		expect(opensWithServiceLead("Levering af computere", "da")).toBe(false);
	});

	it("tells goods words from places, references and procedure wording", () => {
		expect(isLabelWord("chairs")).toBe(true);
		expect(isLabelWord("calgary")).toBe(false);
		expect(isLabelWord("npp")).toBe(false);
	});
});

describe("concepts", () => {
	it("gives products concepts from their codes through the crosswalks and from their name", () => {
		const laptop = product({ name: "Dell Latitude 5440 business laptop", model: "Latitude 5440", commodityCodes: ["43211503"] });
		const fromCodes = productConcepts(laptop, [parseCode("43211503")!], false);
		expect(fromCodes.some((c) => c.source === "crosswalk" && c.code.startsWith("302131"))).toBe(true);
		const fromName = productConcepts(centrifuge, [], false);
		expect(fromName.some((c) => c.source === "name" && c.code.startsWith("42931"))).toBe(true);
	});

	it("gives notices concepts from their own CPV codes and from their title in their language", () => {
		const n = notice({
			title: "Lieferung von Laborzentrifugen für das Zentrallabor",
			description: "",
			items: [],
			categories: [{ scheme: "CPV", code: "38000000" }],
		});
		const cs = noticeConcepts(n, [parseCode("38000000", "CPV")!], "de");
		expect(cs.find((c) => c.source === "code")?.code).toBe("38000000");
		expect(cs.some((c) => c.source === "title" && c.code.startsWith("42931"))).toBe(true);
	});

	it("agrees deeper for containment than for siblings", () => {
		const c = (code: string) => ({ code, depth: code.replace(/0+$/, "").length, source: "code" as const, confidence: 1, from: code });
		const contains = agreementOf(c("30213100"), c("30200000"));
		const sibling = agreementOf(c("30213100"), c("30216000"));
		expect(contains?.contains).toBe(true);
		expect(sibling?.contains).toBe(false);
		expect(contains!.strength).toBeGreaterThan(sibling!.strength);
		expect(agreementOf(c("30213100"), c("45000000"))).toBeNull();
	});

	it("trusts a notice that buys a whole group as far as the group is narrow", () => {
		const c = (code: string) => ({ code, depth: code.replace(/0+$/, "").length, source: "code" as const, confidence: 1, from: code });
		// "Motor vehicles" (a group of some 90 codes) for a passenger car: more than the old flat 0.75 of three digits.
		const vehicles = agreementOf(c("34115000"), c("34100000"))!.strength;
		expect(vehicles).toBeGreaterThan(0.85);
		// "Medical equipments" (some 350 codes) says less about a catheter than "motor vehicles" about a car.
		const medical = agreementOf(c("33141200"), c("33100000"))!.strength;
		expect(medical).toBeLessThan(vehicles);
		// A narrow class is the product's kind; a broad one ("medical consumables") a little less than that.
		expect(containmentStrength("3412")).toBe(1);
		expect(containmentStrength("3314")).toBeLessThan(1);
		expect(agreementOf(c("34121100"), c("34120000"))!.strength).toBe(1);
	});
});

describe("what the words settle", () => {
	const c = (code: string, source: "code" | "crosswalk" | "title", confidence: number, from = code) => ({
		code,
		depth: code.replace(/0+$/, "").length,
		source,
		confidence,
		from,
	});

	it("keeps the crosswalk reading the text agrees with and drops the other", () => {
		const refined = refineByText([
			c("34100000", "crosswalk", 0.85, "PSC 2310"),
			c("34120000", "crosswalk", 0.85, "PSC 2310"),
			c("34110000", "title", 0.8),
		]);
		expect(refined.map((x) => x.code)).not.toContain("34120000");
	});

	it("keeps the crosswalk reading that shares a class with the text when none descends from it", () => {
		const refined = refineByText([
			c("30211400", "crosswalk", 0.8, "PSC 7010"),
			c("48810000", "crosswalk", 0.8, "PSC 7010"),
			c("30214000", "title", 0.77),
		]);
		expect(refined.map((x) => x.code)).toEqual(["30211400", "30214000"]);
		// A reading only in the same division settles nothing: both stay.
		const loose = refineByText([
			c("30211400", "crosswalk", 0.8, "PSC 7010"),
			c("48810000", "crosswalk", 0.8, "PSC 7010"),
			c("30100000", "title", 0.8),
		]);
		expect(loose).toHaveLength(3);
	});

	it("reads a bare head noun as the class its labels share, not a broad group", () => {
		expect(kindOfHeadNoun("comput")?.code).toBe("30210000");
		expect(kindOfHeadNoun("microscop")?.code.slice(0, 4)).toBe("3851");
		// "Tyres for buses" are tyres, not a kind of bus: most labels ending in "buses" are then in the buses' category.
		expect(kindOfHeadNoun("buse")?.code).toBe("34121000");
		// English Snowball stems "buses" as "buse" and "bus" as "bus": the singular finds the plural's labels.
		expect(kindOfHeadNoun("bus")?.code).toBe("34121000");
		expect(cpvCodesForText("industrial gas", "en")[0]?.code).toBe("24110000");
		// Tyres end labels in several classes.
		expect(kindOfHeadNoun("tyre")).toBeNull();
		const titled = (title: string) => noticeConcepts(notice({ title, description: "", items: [] }), [], "en");
		expect(titled("NMSO - COMPUTERS (E60EJ-11000C/G)").map((x) => x.code)).toContain("30210000");
		// A title that names a label keeps that label's reading alone.
		expect(titled("Portable computers").map((x) => x.code)).not.toContain("30210000");
	});

	it("reads a notice's words as the labels they explain best", () => {
		const codes = (title: string) => noticeConcepts(notice({ title, description: "", items: [] }), [], "en").map((c) => c.code);
		const vehicles = codes("Motor Vehicles for the Department of National Defence");
		expect(vehicles).toContain("34100000");
		// "Seats for motor vehicles" holds the same words and more; "Motors" reads some of them into another division.
		expect(vehicles).not.toContain("34370000");
		expect(vehicles).not.toContain("42111000");
		// Some of the words read in the same division stay: laboratory centrifuges are centrifuges.
		expect(codes("Laboratory centrifuges")).toEqual(expect.arrayContaining(["42931100", "42931000"]));
	});

	it("reads a title that is nothing but the head noun at a title's full confidence, a qualified one at a lone word's", () => {
		const kind = (title: string) =>
			noticeConcepts(notice({ title, description: "", items: [] }), [], "en").find((x) => x.code === "30210000")?.confidence ?? 0;
		// "NMSO" and the reference in brackets name no goods: the title says only "computers".
		expect(kind("NMSO - COMPUTERS (E60EJ-11000C/G)")).toBeCloseTo(0.9);
		// "Field" says which computers: some of the kind, not all of it.
		expect(kind("Field Computers (W1234-5/A)")).toBeLessThan(0.8);
		expect(kind("Field Computers (W1234-5/A)")).toBeGreaterThan(0);
		// "Computing" is an activity, not the labels' "computers", though Snowball stems both "comput".
		expect(kind("High Performance Computing - ITQ (2B0KB-123816/B)")).toBe(0);
		const desktop = product({ name: "Dell OptiPlex 7010 Small Form Factor desktop", model: "OptiPlex 7010", commodityCodes: ["43211507"] });
		const scored = (title: string) =>
			scorePair(desktop, notice({ title, description: "", language: "en", categories: [{ scheme: "PSC", code: "7010" }], items: [] }))
				.score;
		expect(scored("NMSO - COMPUTERS (E60EJ-11000C/G)")).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
		expect(scored("High Performance Computing - ITQ (2B0KB-123816/B)")).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("reads the group a notice's confident readings all fall in as one it buys in", () => {
		const n = notice({
			title: "AUDIO VISUAL EQUIPMENT (EH713-131969/A)",
			description: "",
			language: "en",
			categories: [{ scheme: "PSC", code: "5835" }],
			items: [],
		});
		const group = noticeConcepts(n, [parseCode("5835", "PSC")!], "en").find((x) => x.depth === 3);
		expect(group?.code).toBe("32300000");
		const mic = product({
			oemName: "Shure",
			name: "Shure MXA920 ceiling array microphone",
			model: "MXA920",
			description: "",
			commodityCodes: [],
		});
		const r = scorePair(mic, n);
		// The class label itself now covers microphones (umbrella.ts), more surely than the group does; alone, one
		// microphone against a whole class is still no digest item (the company's other kinds make it one).
		expect(r.rationale.find((e) => e.feature === "concept_agreement")?.detail).toContain("class of goods covers the product's kind");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
		// Readings in different groups name no group.
		const mixed = noticeConcepts(notice({ title: "Laboratory centrifuges and microphones", description: "", items: [] }), [], "en");
		expect(mixed.some((x) => x.depth === 3)).toBe(false);
	});

	it("reads a broad code with a narrower title as the narrower kind, surer for both", () => {
		const refined = refineByText([c("34100000", "code", 1), c("34114121", "title", 0.6)]);
		expect(refined.map((x) => x.code)).toEqual(["34114121"]);
		expect(refined[0]?.confidence).toBeGreaterThan(0.6);
		// Unsure text settles nothing.
		expect(refineByText([c("34100000", "code", 1), c("34114121", "title", 0.3)]).map((x) => x.code)).toContain("34100000");
	});

	it("reads a coded product's name only in its code's division", () => {
		const monitor = product({ name: "Dell 24 Monitor P2423D", model: "P2423D", description: "", commodityCodes: ["43211902"] });
		const cs = productConcepts(monitor, [parseCode("43211902")!], false);
		expect(cs.some((x) => x.code.startsWith("33"))).toBe(false);
		const uncoded = productConcepts(
			product({ name: "Philips IntelliVue MX450 patient monitor", description: "", commodityCodes: [] }),
			[],
			false,
		);
		expect(uncoded.some((x) => x.code.startsWith("3319"))).toBe(true);
	});

	it("lets a qualifier specific to one division say which of an ambiguous head's kinds a product is", () => {
		const read = (name: string) => productConcepts(product({ name, description: "", commodityCodes: [] }), [], false);
		const generator = read("High-frequency electrosurgical generator");
		const medical = generator.find((x) => x.code.startsWith("33161"));
		const power = generator.find((x) => x.code.startsWith("3112"));
		expect(medical).toBeDefined();
		expect(power?.confidence ?? 0).toBeLessThan(medical?.confidence ?? 0);
		// Without the qualifier the head reads as power generators, surely.
		expect(read("Diesel backup generator").find((x) => x.code.startsWith("3112"))?.confidence).toBeGreaterThan(0.5);
		// A head of one division ("microphones") keeps its reading whatever its qualifier ("ceiling") is found in.
		const mic = read("Array ceiling microphone");
		expect(mic.some((x) => x.code.startsWith("3152"))).toBe(false);
		expect(mic.find((x) => x.code.startsWith("32341"))?.confidence).toBeGreaterThan(0.5);
	});

	it("weighs a notice's further codes a little below its main one", () => {
		const n = notice({ title: "", description: "", items: [] });
		const cs = noticeConcepts(n, [parseCode("30213200", "CPV")!, parseCode("30237000", "CPV")!], "en");
		expect(cs.find((x) => x.code === "30213200")?.confidence).toBe(1);
		expect(cs.find((x) => x.code === "30237000")?.confidence).toBeLessThan(1);
	});

	it("weighs much less a further code that only files a specific main code more widely", () => {
		const n = notice({ title: "", description: "", items: [] });
		const codes = (...cs: string[]) =>
			noticeConcepts(
				n,
				cs.map((c) => parseCode(c, "CPV")!),
				"en",
			);
		const angio = codes("33111700", "33100000", "33150000");
		expect(angio.find((x) => x.code === "33150000")?.confidence).toBe(0.5);
		expect(angio.find((x) => x.code === "33100000")?.confidence).toBe(0.5);
		// Beside a broad main code, or in another division, a further code still buys what it names.
		expect(codes("33100000", "33150000").find((x) => x.code === "33150000")?.confidence).toBeCloseTo(0.9);
		expect(codes("33111700", "39150000").find((x) => x.code === "39150000")?.confidence).toBeCloseTo(0.9);
		// Another lot's own main code is what that lot buys.
		const lots = notice({
			title: "",
			description: "",
			items: [
				{ description: "Lot 1", classification: { scheme: "CPV", code: "33111700" } },
				{ description: "Lot 2", classification: { scheme: "CPV", code: "33150000" } },
			],
		});
		expect(
			noticeConcepts(lots, [parseCode("33111700", "CPV")!, parseCode("33150000", "CPV")!], "en").find((x) => x.code === "33150000")
				?.confidence,
		).toBeCloseTo(0.9);
		// An incubator no longer reaches the digest through an angiography notice's wider filing.
		const incubator = product({
			oemName: "Thermo Fisher",
			name: "Heracell Vios 160i CO2 incubator",
			model: "51033557",
			description: "165 L CO2 incubator for cell culture.",
			commodityCodes: [],
		});
		const filed = (categories: string[]) =>
			scorePair(
				incubator,
				notice({
					title: "Angio intervensjonslaboratorium",
					description: "",
					language: "no",
					items: [],
					categories: categories.map((code) => ({ scheme: "CPV", code })),
				}),
			);
		expect(filed(["33111700", "33100000", "33150000"]).score).toBeLessThan(DIGEST_MIN_SCORE);
		expect(filed(["33150000"]).score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});
});

describe("the language a notice is read in", () => {
	const french =
		"Fourniture de matériel de laboratoire en plastique : embouts de pipette, tubes à centrifuger, boîtes de Petri et flacons " +
		"de culture cellulaire pour les laboratoires de recherche du ministère, livrés à Ottawa selon les quantités indiquées.";
	it("takes the feed's declaration on a short title, and the text's own language where the text clearly says otherwise", () => {
		// A reference number makes a short English title read as something else; the declaration settles it.
		expect(noticeLanguage(notice({ title: "GENERATOR (EP077-141836/A)", description: "", items: [], language: "en" }))).toBe("en");
		// A publisher that declares every notice English, also the one written in French.
		expect(noticeLanguage(notice({ title: "Fournitures de laboratoire", description: french, items: [], language: "en" }))).toBe("fr");
		// Nothing declared: the text decides.
		expect(noticeLanguage(notice({ title: "Fournitures de laboratoire", description: french, items: [], language: null }))).toBe("fr");
	});
});

describe("matching across languages and schemes", () => {
	it("a German notice for laboratory centrifuges reaches a catalog of centrifuges described in English", () => {
		const n = notice({
			title: "Lieferung von Laborzentrifugen",
			description: "Beschaffung von 6 gekühlten Mikrozentrifugen für das Zentrallabor.",
			items: [],
		});
		const idx = new ProductIndex();
		idx.upsert(centrifuge);
		expect(idx.candidatesForNotice(n).map((c) => c.product.productId)).toContain(centrifuge.productId);
		const r = scorePair(centrifuge, n);
		expect(features(r)).toContain("concept_agreement");
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("a notice coded only in CPV agrees with a product coded only in UNSPSC", () => {
		const laptop = product({
			name: "Dell Latitude 5440 business laptop",
			model: "Latitude 5440",
			description: "14-inch business notebook.",
			commodityCodes: ["43211503"],
		});
		const n = notice({
			title: "Rammeavtale IT-utstyr",
			description: "",
			categories: [],
			items: [{ description: "Bærbare PC-er", quantity: 200, unit: "stk", classification: { scheme: "CPV", code: "30213100" } }],
		});
		const r = scorePair(laptop, n);
		expect(features(r)).toContain("concept_agreement");
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE - 20);
	});

	it("a notice for services of the same kind stays out of the digest", () => {
		const n = notice({
			title: "Maintenance services for laboratory centrifuges",
			description: "",
			items: [
				{ description: "Annual maintenance of centrifuges", quantity: 1, unit: "lot", classification: { scheme: "CPV", code: "50400000" } },
			],
		});
		expect(scorePair(centrifuge, n).score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("does not read the product's English type word as a false friend in another language", () => {
		const van = product({
			oemName: "Toyota",
			name: "Toyota Proace City Electric L2 van",
			model: "Proace City Electric",
			description: "Compact electric panel van.",
			commodityCodes: [],
		});
		const dutch = notice({
			title: "Levering en indienststelling van een sputter depositiesysteem",
			description: "Levering van een systeem voor dunne-filmdepositie voor het laboratorium.",
			items: [
				{ description: "Levering en indienststelling van een sputter depositiesysteem", quantity: 1, unit: "stuk", classification: null },
			],
			categories: [],
			language: "nl",
		});
		expect(features(scorePair(van, dutch))).not.toContain("product_type_overlap");
		const english = notice({ title: "Supply of electric panel vans", description: "", items: [], categories: [], language: "en" });
		expect(features(scorePair(van, english))).toContain("product_type_overlap");
	});

	it("codes of one scheme that agree carry the kind where no word of the notice reads as the product's type", () => {
		const ac = product({
			oemName: "Daikin",
			name: "Daikin Perfera FTXM35R split air conditioner",
			model: "FTXM35R",
			description: "",
			commodityCodes: ["40101701"],
			specs: [],
		});
		const coded = (title: string, language: string) =>
			notice({
				title,
				description: "",
				language,
				categories: [{ scheme: "UNSPSC", code: "40101701" }],
				items: [{ description: title, quantity: 4, unit: "unidad", classification: { scheme: "UNSPSC", code: "40101701" } }],
			});
		const spanish = scorePair(ac, coded("Acondicionador de aire tipo split", "es"));
		expect(spanish.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
		expect(spanish.rationale.find((r) => r.feature === "concept_agreement")?.detail).toContain("UNSPSC commodity agrees");
		// In English the product's words were looked for and not found: the codes count a little less.
		expect(scorePair(ac, coded("Cooling units", "en")).score).toBeLessThan(spanish.score);
		// Another commodity of the class is a sibling, not the same kind.
		const sibling = notice({
			title: "Equipo",
			description: "",
			language: "es",
			categories: [{ scheme: "UNSPSC", code: "40101702" }],
			items: [],
		});
		expect(scorePair(ac, sibling).score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("reads the product's type written as one word: thermalcyclers are thermal cyclers", () => {
		const cycler = product({
			oemName: "Eppendorf",
			name: "Eppendorf Mastercycler X50s thermal cycler, 96-well",
			model: "6311000010",
			description: "Thermal cycler for PCR with a 96-well silver block.",
			commodityCodes: [],
			specs: [],
		});
		const n = notice({ title: "Thermalcyclers (14-1630-CMN-033)", description: "", language: "en", categories: [], items: [] });
		const r = scorePair(cycler, n);
		expect(r.rationale.find((e) => e.feature === "product_type_overlap")?.detail).toContain('with "thermal"');
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
		// Stage 1 finds it by the joined word too.
		const index = new ProductIndex();
		index.upsert(cycler);
		expect(index.candidatesForNotice(n).map((c) => c.product.productId)).toContain(cycler.productId);
		// A word that only starts like the product's modifier is not the type.
		expect(
			scorePair(cycler, notice({ title: "Thermal imaging cameras", description: "", language: "en", categories: [], items: [] })).score,
		).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("counts less a passage that qualifies the product's type otherwise: a walk-in freezer is not an ultra-low one", () => {
		const ult = ultFreezer();
		const titled = (title: string) => scorePair(ult, notice({ title, description: "", language: "en", categories: [], items: [] }));
		const walkIn = titled("Walk-in Freezer (W3508-140002/A)");
		const plain = titled("Freezer (W3508-140002/A)");
		const same = titled("Ultra-low temperature freezer (W3508-140002/A)");
		expect(walkIn.rationale.find((e) => e.feature === "product_type_overlap")?.detail).toContain('as "walk"');
		expect(walkIn.score).toBeLessThan(plain.score);
		expect(same.score).toBeGreaterThan(walkIn.score);
		// A qualifier the product's own text holds is the product's ("upright").
		expect(titled("Upright Freezer (W3508-140002/A)").rationale.find((e) => e.feature === "product_type_overlap")?.detail).not.toContain(
			'as "',
		);
	});

	it("counts less a qualified type for a product whose name qualifies its head with nothing but a model", () => {
		const bench = product({
			oemName: "Eppendorf",
			name: "Eppendorf Centrifuge 5425 R",
			model: "5406000640",
			description: "Refrigerated 24-place microcentrifuge.",
			commodityCodes: [],
			specs: [],
		});
		const titled = (title: string) => scorePair(bench, notice({ title, description: "", language: "en", categories: [], items: [] }));
		const bowl = titled("Hollow bowl Centrifuge (31241-138458/B)");
		expect(bowl.rationale.find((e) => e.feature === "product_type_overlap")?.detail).toContain('as "bowl")');
		expect(bowl.score).toBeLessThan(titled("Centrifuge (31241-138458/B)").score);
		// Its own text's words are its qualifiers.
		expect(titled("Refrigerated Centrifuge (31241-138458/B)").score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("reads Norwegian through Danish and Swedish labels without its function words, in their spelling", () => {
		const read = (title: string) => noticeConcepts(notice({ title, description: "", items: [] }), [], "no").map((c) => c.code);
		// "skal" (shall) is a Norwegian function word, not the Swedish "skål" (bowl).
		expect(read("Det skal anskaffes kontorstoler")).not.toContain("39221240");
		// Norwegian "sykler" and "sentrifuger" are Danish and Swedish "cykler", "centrifuger".
		expect(read("Rammeavtale om formidling av el-sykler").some((c) => c.startsWith("3443"))).toBe(true);
		expect(read("Anskaffelse av sentrifuger til laboratoriet").some((c) => c.startsWith("4293"))).toBe(true);
		// Other languages are read as written.
		const danish = noticeConcepts(notice({ title: "Anskaffelse af sentrifuger", description: "", items: [] }), [], "da");
		expect(danish.some((c) => c.code.startsWith("4293"))).toBe(false);
	});

	it("reads what a line buys before its purpose: batteries for pick-up trucks are not trucks", () => {
		const concepts = (title: string) => noticeConcepts(notice({ title, description: "", items: [] }), [], "en");
		const battery = (title: string) => concepts(title).find((c) => c.code.startsWith("3144"))?.confidence ?? 0;
		const others = (title: string) =>
			Math.max(
				...concepts(title)
					.filter((c) => !c.code.startsWith("3144"))
					.map((c) => c.confidence),
			);
		expect(battery("Batteries for pick-up trucks")).toBe(battery("Batteries and pick-up trucks"));
		expect(others("Batteries for pick-up trucks")).toBeLessThan(others("Batteries and pick-up trucks"));
	});
});
