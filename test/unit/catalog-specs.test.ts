import { describe, expect, it } from "vitest";
import { specsSubset } from "../../services/catalog/index-view.ts";
import { partnerKey, productKey, searchText } from "../../services/catalog/normalize.ts";
import { escapeRegex } from "../../shared/mongo.ts";

// What indexing sees of free-form specs, and the normalized keys behind uniqueness and search.

describe("specsSubset", () => {
	it("keeps stored order, scalars and lists of scalars, nested members one level down", () => {
		expect(
			specsSubset({
				b: 1,
				a: "x",
				"$odd.key": true,
				list: ["USB-C", 2],
				obj: { inner: "y", deeper: { z: 1 }, arr: [{ no: 1 }] },
				nil: null,
				blank: "  ",
				objs: [{ a: 1 }],
				empty: [],
			}),
		).toEqual([
			{ key: "b", value: "1" },
			{ key: "a", value: "x" },
			{ key: "$odd.key", value: "true" },
			{ key: "list", value: "USB-C, 2" },
			{ key: "obj.inner", value: "y" },
		]);
	});

	it("stops at 20 attributes and cuts keys and values to 100 characters, whitespace and controls collapsed", () => {
		const specs = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key ${i}`, i]));
		const subset = specsSubset(specs);
		expect(subset).toHaveLength(20);
		expect(subset[19]).toEqual({ key: "key 19", value: "19" });
		const [long] = specsSubset({ ["k".repeat(300)]: `a\n\tb\u0000${"v".repeat(300)}` });
		expect(long!.key).toHaveLength(100);
		expect(long!.value).toBe(`a b ${"v".repeat(96)}`);
		const [emoji] = specsSubset({ e: "😀".repeat(150) });
		expect(Array.from(emoji!.value)).toHaveLength(100);
	});

	it("is deterministic", () => {
		const specs = { z: 1, y: { x: [1, 2] }, w: "v" };
		expect(specsSubset(specs)).toEqual(specsSubset(JSON.parse(JSON.stringify(specs))));
	});
});

describe("normalized keys", () => {
	it("compares partner names case- and space-insensitively", () => {
		expect(partnerKey(" Net  App ")).toBe(partnerKey("NETAPP"));
		expect(partnerKey("Ｎｅｔａｐｐ")).toBe(partnerKey("netapp"));
		expect(partnerKey("Net App")).not.toBe(partnerKey("Net-App"));
	});

	it("makes (partner, name, model) keys that no separator inside a value can forge", () => {
		expect(productKey("t", "p", " Widget  X ", "M1")).toBe(productKey("t", "p", "widget x", "m1"));
		expect(productKey("t", "p", "a|b", "c")).not.toBe(productKey("t", "p", "a", "b|c"));
		expect(productKey("t", "p", "a", null)).not.toBe(productKey("t", "p", "a", "null"));
		expect(productKey("t", "p1", "a", null)).not.toBe(productKey("t", "p2", "a", null));
	});

	it("searches lower-cased text and escapes regex syntax", () => {
		expect(searchText(["Widget", null, "Line one\nLine  two", "ACME"])).toBe("widget line one line two acme");
		const pattern = escapeRegex("cx-23 (led) [a+b]*?^$|\\.");
		expect(new RegExp(pattern).test("x cx-23 (led) [a+b]*?^$|\\. y")).toBe(true);
		expect(new RegExp(escapeRegex(".*")).test("anything")).toBe(false);
	});
});
