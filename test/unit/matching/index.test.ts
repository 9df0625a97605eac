import { describe, expect, it } from "vitest";
import { syntheticNotices, syntheticProducts } from "../../../services/matching/method/eval/synthetic.ts";
import { NoticeIndex } from "../../../services/matching/method/notice-index.ts";
import { ProductIndex } from "../../../services/matching/method/product-index.ts";
import { notice, product } from "./fixtures.ts";

describe("stage 1: candidates from an inverted index, never a scan", () => {
	it("gives a notice that shares no term, model or code with the catalog no candidates", () => {
		const index = new ProductIndex();
		for (const p of syntheticProducts("t1", 2000, 7)) index.upsert(p);
		const unrelated = notice({
			title: "Grounds Maintenance for Parks and Cemeteries",
			description: "Mowing, edging and leaf collection at municipal sites.",
			items: [
				{
					description: "Grounds maintenance, base year",
					quantity: 12,
					unit: "month",
					classification: { scheme: "CPV", code: "77314000-4" },
				},
			],
			categories: [{ scheme: "CPV", code: "77314000-4" }],
		});
		expect(index.candidatesForNotice(unrelated)).toEqual([]);
		// A description word may share a stem with some product's word ("edging", "edge"); the walk stays a small share of the catalog.
		expect(index.lastVisited).toBeLessThan(200);
	});

	it("retrieves the product a notice names first, and walks only the probed posting lists", () => {
		const index = new ProductIndex();
		const catalog = syntheticProducts("t1", 3000, 8);
		for (const p of catalog) index.upsert(p);
		const target = catalog.find((p) => p.status === "active" && p.partnerAuthorized);
		if (!target?.model) throw new Error("no active product");
		const cands = index.candidatesForNotice(
			notice({ title: "Brand name or equal", description: `Quote ${target.model} or equal.`, items: [], categories: [] }),
		);
		expect(cands[0]?.product.productId).toBe(target.productId);
		expect(cands.length).toBeLessThanOrEqual(index.options.maxCandidates);
		expect(index.lastVisited).toBeLessThan(catalog.length);
	});

	it("bounds the candidates of a broad notice", () => {
		const index = new ProductIndex({ maxCandidates: 25, minRetrieval: 4 });
		for (const p of syntheticProducts("t1", 3000, 9)) index.upsert(p);
		const broad = syntheticNotices(1, 3)[0];
		if (!broad) throw new Error("no notice");
		expect(index.candidatesForNotice(broad).length).toBeLessThanOrEqual(25);
	});

	it("never indexes discontinued products or products of de-authorized partners", () => {
		const index = new ProductIndex();
		const active = product();
		const discontinued = product({ status: "discontinued" });
		const deauthorized = product({ partnerAuthorized: false });
		for (const p of [active, discontinued, deauthorized]) index.upsert(p);
		expect(index.size).toBe(1);
		const ids = index.candidatesForNotice(notice()).map((c) => c.product.productId);
		expect(ids).toEqual([active.productId]);
		// A change that de-authorizes the partner removes the product from the index.
		index.upsert({ ...active, partnerAuthorized: false });
		expect(index.candidatesForNotice(notice())).toEqual([]);
	});

	it("finds the notices a product could be about, model mentions first", () => {
		const notices = new NoticeIndex();
		const others = syntheticNotices(3000, 21);
		for (const n of others) notices.upsert(n);
		const p = product();
		const naming = notice({ title: "Switch refresh", description: "Norvik NX7400-48P-A or equal.", items: [], categories: [] });
		notices.upsert(naming);
		const cands = notices.candidatesForProduct(p);
		expect(cands[0]?.notice.noticeId).toBe(naming.noticeId);
		expect(cands.length).toBeLessThanOrEqual(notices.options.maxCandidates);
		expect(notices.lastVisited).toBeLessThan(others.length);
		notices.remove(naming.noticeId);
		expect(notices.candidatesForProduct(p).some((c) => c.notice.noticeId === naming.noticeId)).toBe(false);
		expect(notices.candidatesForProduct(product({ status: "discontinued" }))).toEqual([]);
	});
});
