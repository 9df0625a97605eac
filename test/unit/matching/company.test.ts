import { describe, expect, it } from "vitest";
import { scorePair } from "../../../services/matching/method/score-pair.ts";
import { scoreNoticeForTenant } from "../../../services/matching/method/score-tenant.ts";
import { features, notice, product } from "./fixtures.ts";

describe("company level", () => {
	it("ignores discontinued products and products of de-authorized partners", () => {
		const n = notice({ description: "Norvik NX7400-48P-A or equal." });
		const discontinued = product({ status: "discontinued" });
		const deauthorized = product({ partnerAuthorized: false });
		expect(scorePair(discontinued, n)).toMatchObject({ score: 0, excluded: "discontinued product" });
		expect(scorePair(deauthorized, n)).toMatchObject({ score: 0, excluded: "partner no longer authorized" });
		expect(scoreNoticeForTenant([discontinued, deauthorized], n)).toMatchObject({ score: 0, bestProduct: null });
		const active = product({ name: "Norvik Stratus 5200 24-port PoE+ Access Switch", model: "NX5200-24P" });
		const r = scoreNoticeForTenant([discontinued, active, deauthorized], n);
		expect(r.bestProduct?.productId).toBe(active.productId);
	});

	it("counts a catalog (not carried) product a little less, and prefers the carried one on a tie", () => {
		const n = notice();
		const carried = product();
		const catalog = { ...carried, productId: `${carried.productId}-c`, repStatus: "catalog" as const };
		const a = scorePair(carried, n);
		const b = scorePair(catalog, n);
		expect(features(b)).toContain("catalog_only");
		expect(a.score - b.score).toBeGreaterThan(0);
		expect(a.score - b.score).toBeLessThanOrEqual(5);
		const best = scoreNoticeForTenant(
			[catalog, { ...catalog, productId: "zz-carried", repStatus: "carried" }],
			notice({ description: "Norvik NX7400-48P-A or equal." }),
		);
		expect(best.bestProduct?.productId).toBe("zz-carried");
	});

	it("names the best product with its matched terms and codes, and explains the score largest effect first", () => {
		const r = scoreNoticeForTenant([product()], notice({ description: "Norvik NX7400-48P-A or equal." }));
		expect(r.bestProduct).toMatchObject({ model: "NX7400-48P-A", oem: "Norvik Networks" });
		expect(r.bestProduct?.matchedTerms).toContain("NX7400-48P-A");
		expect(r.bestProduct?.matchedCodes).toContain("UNSPSC:43222612");
		const sizes = r.rationale.map((e) => Math.abs(e.points));
		expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
		for (const e of r.rationale) expect(e.detail.length).toBeGreaterThan(5);
	});

	it("takes an all-or-none award whose leading item the company cannot supply out of the digest", () => {
		const n = notice({
			title: "Spectral Analyzers with Network Switch",
			description: "Partial quotes will not be accepted; all CLINs must be priced.",
			items: [
				{
					description: "Spectral analyzer, bench model",
					quantity: 2,
					unit: "each",
					classification: { scheme: "UNSPSC", code: "41115406" },
				},
				{
					description: "24-port PoE+ access switch, Norvik NX7400-48P-A or equal",
					quantity: 1,
					unit: "each",
					classification: { scheme: "UNSPSC", code: "43222612" },
				},
			],
		});
		const r = scoreNoticeForTenant([product()], n);
		expect(r.rationale.map((e) => e.feature)).toContain("all_or_none_main_item_missing");
		expect(r.score).toBeLessThanOrEqual(50);
	});

	it("adds a little for each further kind of the company's that the whole kind the notice buys includes", () => {
		const coded = (names: [string, string][]) =>
			names.map(([name, code]) => product({ oemName: "Maker", name, model: name, description: "", commodityCodes: [code], specs: [] }));
		const buying = (title: string, description: string, language: string, code: { scheme: string; code: string }) =>
			notice({ title, description, language, categories: [code], items: [] });
		const companyGain = (ps: ReturnType<typeof coded>, n: ReturnType<typeof notice>) =>
			scoreNoticeForTenant(ps, n).score - Math.max(...ps.map((p) => scorePair(p, n).score));
		const fleet = coded([
			["Toyota Corolla Touring Sports estate car", "25101503"],
			["Toyota Hilux Double Cab pick-up", "25101507"],
			["Mercedes-Benz Sprinter City minibus", "25101502"],
		]);
		const psc2310 = { scheme: "PSC", code: "2310" };
		// "Vehicles" (PSC 2310, motor vehicles) includes the cars, the pick-ups and the minibuses.
		const vehicles = buying("Vehicles (RFSO 20130430)", "", "en", psc2310);
		expect(companyGain(fleet, vehicles)).toBeGreaterThanOrEqual(3);
		expect(scoreNoticeForTenant(fleet, vehicles).rationale.find((e) => e.feature === "more_lines_covered")?.detail).toContain(
			"more of the company's kinds",
		);
		// Where the notice's words name another kind (ambulances) the codes' breadth says nothing of what it buys.
		expect(companyGain(fleet, buying("Vehicles (RFSO 20130431)", "Type III ambulances with stretcher mounts.", "en", psc2310))).toBe(0);
		// An umbrella (medical equipments, some 350 kinds) includes several kinds of any company in its field and names none.
		const clinic = coded([
			["Medico IV catheter", "42221501"],
			["Medico first aid kit", "42172001"],
			["Medico oxygen therapy unit", "42271702"],
		]);
		const umbrella = buying("Medisinsk utstyr", "", "no", { scheme: "CPV", code: "33100000" });
		for (const p of clinic)
			expect(scorePair(p, umbrella)).toMatchObject({ containedKind: { notice: "33100000" }, score: expect.any(Number) });
		expect(Math.min(...clinic.map((p) => scorePair(p, umbrella).score))).toBeGreaterThanOrEqual(50);
		expect(companyGain(clinic, umbrella)).toBe(0);
		// One kind alone adds nothing.
		expect(companyGain(fleet.slice(0, 1), vehicles)).toBe(0);
	});

	it("is deterministic: same inputs, any product order, same result", () => {
		const ps = [
			product(),
			product({ name: "Norvik Stratus 5200 24-port PoE+ Access Switch", model: "NX5200-24P", repStatus: "catalog" }),
			product({ status: "discontinued" }),
		];
		const n = notice();
		const first = JSON.stringify(scoreNoticeForTenant(ps, n));
		expect(JSON.stringify(scoreNoticeForTenant([...ps].reverse(), n))).toBe(first);
		expect(
			JSON.stringify(
				scoreNoticeForTenant(
					ps.map((p) => ({ ...p })),
					{ ...n },
				),
			),
		).toBe(first);
	});
});
