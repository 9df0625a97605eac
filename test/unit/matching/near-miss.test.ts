import { describe, expect, it } from "vitest";
import { extractQuantities } from "../../../services/matching/method/spec-numbers.ts";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { DIGEST_MIN_SCORE } from "../../../services/matching/method/weights.ts";
import { features, notice, product } from "./fixtures.ts";

// Notices for the right kind of product that the product still cannot meet.

const projector = product({
	oemName: "Lumaro",
	name: "Lumaro Vista 620 Laser Projector",
	model: "LV-620W",
	description: "6,200-lumen WUXGA laser projector for classrooms.",
	commodityCodes: ["45111609"],
	specs: [{ key: "brightness", value: "6,200 lumens" }],
});

describe("spec and kind mismatches", () => {
	it("reads figures with units", () => {
		const q = extractQuantities("25,000-lumen projector, 3 kVA UPS, -70 C, 100-200 L, 8 x 25GbE, 7400L");
		expect(q.map((x) => [x.dimension, x.min, x.max])).toEqual(
			expect.arrayContaining([
				["lumen", 25000, 25000],
				["va", 3000, 3000],
				["temperature", -70, -70],
				["liter", 100, 200],
				["gbps", 25, 25],
			]),
		);
		expect(q.some((x) => x.dimension === "liter" && x.min === 7400)).toBe(false);
	});

	it("meets a requirement the product's figures satisfy", () => {
		const r = scorePair(
			projector,
			notice({
				title: "Classroom Laser Projectors",
				description: "",
				items: [
					{
						description: "Laser projector, 5,000 lumens minimum",
						quantity: 20,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "45111609" },
					},
				],
			}),
		);
		expect(features(r)).toContain("spec_fit");
		expect(r.score).toBeGreaterThanOrEqual(DIGEST_MIN_SCORE);
	});

	it("falls short of a requirement far above the product's figures", () => {
		const r = scorePair(
			projector,
			notice({
				title: "Arena Laser Projectors",
				description: "",
				items: [
					{
						description: "25,000-lumen laser projector",
						quantity: 4,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "45111609" },
					},
				],
			}),
		);
		expect(features(r)).toContain("spec_shortfall");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("follows a notice that rejects products like this one", () => {
		const centrifuge = product({
			oemName: "Heddon",
			name: "Heddon R4 Tabletop Centrifuge",
			model: "HR-4000",
			description: "Refrigerated tabletop centrifuge for 4 x 500 mL tubes.",
			commodityCodes: ["41103902"],
			specs: [],
		});
		const r = scorePair(
			centrifuge,
			notice({
				title: "Floor-Standing Centrifuge for the Blood Bank",
				description: "Tabletop centrifuges are not acceptable for this application.",
				items: [
					{
						description: "Floor-standing centrifuge, 6 x 2 L",
						quantity: 1,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "41103902" },
					},
				],
			}),
		);
		expect(features(r)).toContain("rejected_kind");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("does not buy new goods when only refurbished ones are wanted", () => {
		const r = scorePair(
			product(),
			notice({
				title: "Refurbished PoE+ Access Switches",
				description: "This request is for refurbished equipment only. New equipment will not be considered.",
				items: [
					{
						description: "48-port PoE+ access switch, refurbished",
						quantity: 10,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "43222612" },
					},
				],
			}),
		);
		expect(features(r)).toContain("refurbished_only");
		expect(r.score).toBeLessThan(DIGEST_MIN_SCORE);
	});

	it("does not meet the opposite attribute value", () => {
		const optic = product({
			name: "Norvik 10G SFP+ Transceiver",
			model: "NSFP-10G-MM",
			description: "Multimode 850 nm optic for 10 Gigabit links.",
			commodityCodes: ["43201553"],
			specs: [],
		});
		const r = scorePair(
			optic,
			notice({
				title: "Optics",
				description: "",
				items: [
					{
						description: "Single-mode 10G SFP+ transceiver",
						quantity: 40,
						unit: "each",
						classification: { scheme: "UNSPSC", code: "43201553" },
					},
				],
			}),
		);
		expect(features(r)).toContain("attribute_conflict");
	});

	it("reads a line for accessories of the product kind as weaker evidence", () => {
		const direct = scorePair(
			projector,
			notice({
				title: "Projectors",
				description: "",
				items: [{ description: "Laser projector", quantity: 4, unit: "each", classification: null }],
				categories: [],
			}),
		);
		const accessory = scorePair(
			projector,
			notice({
				title: "Mounts",
				description: "",
				items: [{ description: "Ceiling mounts for laser projectors", quantity: 4, unit: "each", classification: null }],
				categories: [],
			}),
		);
		expect(accessory.score).toBeLessThan(direct.score);
	});

	it("checks capacities counted in seats and ports, also when only the kind's code agrees", () => {
		const minibus = product({
			oemName: "Mercedes-Benz",
			name: "Mercedes-Benz Sprinter City 75 minibus",
			model: "Sprinter City 75",
			description: "Low-floor city minibus, up to 38 passengers.",
			commodityCodes: ["25101502"],
			specs: [],
		});
		const bus = (title: string) => notice({ title, description: "", items: [], categories: [{ scheme: "CPV", code: "34120000" }] });
		const small = scorePair(minibus, bus("BUS, 20 PASSENGERS, WHEELCHAIR ACCESSIBLE"));
		const large = scorePair(minibus, bus("72 passenger school bus"));
		expect(features(small)).toContain("spec_fit");
		expect(features(large)).toContain("spec_shortfall");
		expect(small.score).toBeGreaterThan(large.score);
		expect(extractQuantities("24-port PoE+ switch").map((q) => q.dimension)).toContain("port");
	});

	it("reads an optic's rate before its reach code and an Ethernet PHY's rate in Mbit/s", () => {
		expect(extractQuantities("400G-FR4 QSFP-DD optics")).toMatchObject([{ dimension: "gbps", min: 400 }]);
		expect(extractQuantities("Cisco 1000BASE-T SFP Copper Transceiver")).toMatchObject([{ dimension: "gbps", min: 1 }]);
		expect(extractQuantities("10GBASE-SR SFP+")).toMatchObject([{ dimension: "gbps", min: 10 }]);
	});
});
