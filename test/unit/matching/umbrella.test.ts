// Why: a notice that names a class of goods ("AUDIO VISUAL EQUIPMENT") buys kinds CPV files under other
// branches (microphones, loudspeakers, projectors); shared/taxonomy/umbrella.ts reads which through the
// UNSPSC hierarchy in the committed crosswalk. These tests pin what it covers and what it must not.
import { describe, expect, it } from "vitest";
import { coveringMember, namesClassOfGoods, umbrellaMembers, umbrellasCovering } from "../../../shared/taxonomy/umbrella.ts";
import { cpvCodesForText, englishHeadOf, enumeratedKinds, kindOfHeadNoun, writtenAsHead } from "../../../shared/taxonomy/label-index.ts";
import { termsOf, type TextLanguage } from "../../../shared/text/index.ts";
import { agreementOf, type Concept, noticeConcepts } from "../../../services/matching/method/concepts.ts";
import { ProductIndex } from "../../../services/matching/method/product-index.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { scoreNoticeForTenant } from "../../../services/matching/method/score-tenant.ts";
import { DIGEST_MIN_SCORE } from "../../../services/matching/method/weights.ts";
import { notice, product } from "./fixtures.ts";

const concept = (code: string, confidence = 0.9): Concept => ({
	code,
	depth: code.replace(/0+$/, "").length,
	source: "title",
	confidence,
	from: "test",
});

describe("class labels and the kinds they cover (UNSPSC through the crosswalk)", () => {
	it("reads audio-visual equipment as covering microphones, loudspeakers and projectors, filed in other CPV branches", () => {
		const av = umbrellaMembers("32321200");
		for (const kind of ["32341000", "32342000", "38652100"]) expect(av.has(kind)).toBe(true);
		// Flat panel displays are filed by UNSPSC under computer equipment, not under audio-visual equipment.
		expect(av.has("30231310")).toBe(false);
		// Kinds of the label's own CPV class and its own line are CPV's own business.
		for (const k of av) {
			expect(k.slice(0, 4)).not.toBe("3232");
			expect(Number(k.slice(0, 2)) < 45 || k.startsWith("48")).toBe(true);
		}
	});

	it("takes only labels that name a class of goods, not a kind, nor parts and accessories", () => {
		expect(namesClassOfGoods("32321200")).toBe(true);
		expect(namesClassOfGoods("32341000")).toBe(false);
		expect(umbrellaMembers("32341000").size).toBe(0);
		expect(namesClassOfGoods("32351300")).toBe(false); // audio equipment accessories
		expect(umbrellaMembers("32351300").size).toBe(0);
	});

	it("lets the CPV class holding a class label cover what it covers, but no group of many classes", () => {
		// "Television and audio-visual equipment" holds "Audio-visual equipment".
		expect(umbrellaMembers("32320000").has("38652100")).toBe(true);
		expect(umbrellaMembers("32320000").has("32341000")).toBe(true);
		// Not in a broad group: "Diagnostic devices" holds "Diagnostic supplies" among some 350 medical codes, and takes nothing of it.
		expect(umbrellaMembers("33124100").size).toBe(0);
		// "Office machinery, equipment and supplies" is a group: what "Office supplies" covers (printers, by the crosswalk) is not its.
		expect(coveringMember("30100000", "30232110")).toBeUndefined();
		// A UNSPSC code read as a whole CPV group ("computer equipment") is no kind a class covers.
		for (const k of umbrellaMembers("42418940")) expect(k.replace(/0+$/, "").length).toBeGreaterThanOrEqual(4);
	});

	it("finds the member a narrower code falls under, and the class labels that cover a kind", () => {
		expect(coveringMember("32321200", "38652190")).toBe("38652100"); // a code below projectors is a projector
		expect(coveringMember("32321200", "30231310")).toBeUndefined();
		expect(umbrellasCovering("38652120")).toContain("32321200");
		expect(umbrellasCovering("30231310")).toEqual([]);
		expect(umbrellasCovering("32321200")).toEqual([]);
	});

	it("makes the class contain its member in the concepts' agreement, and only there", () => {
		const a = agreementOf(concept("32341000", 0.88), concept("32321200"));
		expect(a?.contains).toBe(true);
		expect(a?.member).toBe("32341000");
		expect(a?.strength ?? 0).toBeGreaterThan(0.6);
		// The reverse is no containment: a notice for microphones does not buy audio-visual equipment at large.
		expect(agreementOf(concept("32321200", 0.88), concept("32341000"))?.member).toBeUndefined();
		// A notice for another class of goods covers nothing of this.
		expect(agreementOf(concept("32341000", 0.88), concept("30213000"))).toBeNull();
	});
});

describe("a notice that names a class of goods, for an AV reseller", () => {
	const av = (name: string, description: string, codes: string[] = []) =>
		product({ tenantId: "tenant-av", oemName: "Sonora", name, model: null, description, commodityCodes: codes, specs: [] });
	const microphone = av("Sonora CM9 ceiling array microphone", "Ceiling microphone for conference rooms.");
	const speaker = av("Sonora EM18 in-ceiling loudspeaker", "In-ceiling loudspeaker for classrooms.");
	const projector = av("Sonora PX5 laser projector", "Full HD laser projector for meeting rooms.", ["45111609"]);
	const avNotice = notice({
		title: "AUDIO VISUAL EQUIPMENT (EH713-131969/A)",
		description: "",
		items: [{ description: "AUDIO VISUAL EQUIPMENT (EH713-131969/A)" }],
		categories: [],
	});

	it("finds the company's kinds in stage 1, from the index", () => {
		const idx = new ProductIndex();
		for (const p of [microphone, speaker, projector]) idx.upsert(p);
		const found = idx.candidatesForNotice(avNotice).map((c) => c.product.productId);
		expect(found).toEqual(expect.arrayContaining([microphone.productId, speaker.productId, projector.productId]));
	});

	it("scores each kind as bought by the class, and the company whose kinds it covers into the digest", () => {
		const pair = scorePair(projector, avNotice);
		const entry = pair.rationale.find((e) => e.feature === "concept_agreement");
		expect(entry?.detail).toContain("class of goods covers the product's kind");
		expect(pair.score).toBeGreaterThan(45);
		const r = scoreNoticeForTenant([microphone, speaker, projector], avNotice);
		expect(r.rationale.map((e) => e.feature)).toContain("more_lines_covered");
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("keeps a rental of the class out of the digest", () => {
		const hire = notice({ ...avNotice, title: "Rental of audio visual equipment for a conference", items: [] });
		expect(scoreNoticeForTenant([microphone, speaker, projector], hire).score).toBeLessThan(DIGEST_MIN_SCORE);
	});
});

describe("a bare class noun in any language", () => {
	it("names the English head noun the labels holding it are headed by", () => {
		const head = (word: string, lang: "de" | "es" | "fr" | "it") => englishHeadOf(termsOf(word, lang)[0] ?? "", lang);
		expect(head("Fahrzeuge", "de")).toBe("vehicl");
		expect(head("vehículos", "es")).toBe("vehicl");
		expect(head("autoveicoli", "it")).toBe("vehicl");
		expect(head("mobilier", "fr")).toBe("furnitur");
		// The words of buying are held by no goods labels as what they are.
		expect(head("Lieferung", "de")).toBeNull();
		expect(head("adquisición", "es")).toBeNull();
	});

	it("reads a bare English head only as the labels write it: 'computers', not 'computing'", () => {
		expect(writtenAsHead("COMPUTERS", "comput")).toBe(true);
		expect(writtenAsHead("computer", "comput")).toBe(true);
		expect(writtenAsHead("Computing", "comput")).toBe(false);
		const codes = (title: string) =>
			noticeConcepts(notice({ title, description: "", items: [], categories: [] }), [], "en").map((c) => c.code);
		expect(codes("NMSO - COMPUTERS (E60EJ-11000C/G)")).toContain("30210000");
		expect(codes("Mobile Computing for Operations")).not.toContain("30210000");
	});

	it("reads a class noun whose labels mostly lie in one group as that group, and no spread one", () => {
		expect(kindOfHeadNoun("vehicl")?.code).toBe("34100000");
		expect(kindOfHeadNoun("equip")).toBeNull();
	});

	it("reads a title that names no label by such a word as the kind, and a car as bought by it", () => {
		const codes = (title: string, lang: TextLanguage) =>
			noticeConcepts(notice({ title, description: "", items: [], categories: [], language: lang }), [], lang).map((c) => c.code);
		expect(codes("Lieferung von Fahrzeugen", "de")).toContain("34100000");
		expect(codes("Adquisición de vehículos", "es")).toContain("34100000");
		// Norwegian through the Danish labels, in their spelling ("kjøretøy" is Danish "køretøj").
		expect(codes("Rammeavtale kjøretøy", "no")).toContain("34100000");
		// What is named before the purpose preposition is what is bought: parts and tyres, not vehicles.
		expect(codes("Teile für Fahrzeuge", "de")).not.toContain("34100000");
		expect(codes("Reifen für Fahrzeuge", "de")).not.toContain("34100000");
		expect(codes("Tyres for vehicles", "en")).not.toContain("34100000");
		expect(codes("Vehicles for Nunavut", "en")).toContain("34100000");
		const car = product({
			oemName: "Toyota",
			name: "Toyota Corolla Touring Sports 1.8 Hybrid",
			model: null,
			description: "Estate car for pool fleets.",
			commodityCodes: ["25101503"],
			specs: [],
		});
		const n = notice({ title: "Lieferung von Fahrzeugen", description: "", items: [], categories: [], language: "de" });
		expect(scorePair(car, n).score).toBeGreaterThan(40);
		expect(scorePair(car, { ...n, title: "Wartung von Fahrzeugen" }).score).toBeLessThan(DIGEST_MIN_SCORE);
	});
});

describe("what a label's goods are for", () => {
	it("is not what the label names: a word a label holds only after its purpose preposition reads no such label", () => {
		// Swedish "Programvara för upphandling" (procurement software) is not named by "upphandling" (procurement).
		expect(cpvCodesForText("Upphandling av bilar", "sv", { limit: 10 }).map((h) => h.code)).not.toContain("48490000");
		expect(cpvCodesForText("Programvara för upphandling", "sv").map((h) => h.code)).toContain("48490000");
	});
});

describe("a label that lists kinds of one head", () => {
	it("names each of them: 'Laboratory, optical and precision equipments' is laboratory equipment too", () => {
		expect(enumeratedKinds("Laboratory, optical and precision equipments", "en")).toEqual([
			["laboratori", "equip"],
			["optic", "equip"],
		]);
		expect(enumeratedKinds("Television and audio-visual equipment", "en")).toEqual([["televis", "equip"]]);
		// Two kinds with no shared head, and a list whose first items are phrases, list nothing.
		expect(enumeratedKinds("Microphones and loudspeakers", "en")).toEqual([]);
		expect(enumeratedKinds("Motor vehicles for the transport of 10 or more persons", "en")).toEqual([]);
		expect(cpvCodesForText("Laboratory equipment", "en").map((h) => h.code)).toContain("38000000");
		// The label whole still reads as itself, once.
		const whole = cpvCodesForText("Laboratory, optical and precision equipments", "en", { limit: 10 }).filter((h) => h.code === "38000000");
		expect(whole).toHaveLength(1);
		expect(whole[0]?.coverage).toBeCloseTo(1);
	});
});
