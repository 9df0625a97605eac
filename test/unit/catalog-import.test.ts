import { describe, expect, it } from "vitest";
import { importLines } from "../../services/catalog/import.ts";

// Reading an import body into rows, before anything is validated or written.

const codeOf = (fn: () => unknown) => {
	try {
		fn();
		return "ok";
	} catch (e) {
		return (e as { type?: string }).type;
	}
};

describe("importLines", () => {
	it("numbers JSON rows from 1 and CSV rows by the file line they start on", () => {
		expect(
			importLines([
				{ partner: "A", name: "x" },
				{ partner: "A", name: "y" },
			]).map((l) => l.line),
		).toEqual([1, 2]);
		const csv = '\uFEFFpartner,name,description\r\nA,one,"multi\r\nline\r\ncell"\r\n\r\nA,two,\r\n,,\r\nA,three,"x"';
		const lines = importLines(csv);
		expect(lines.map((l) => [l.line, l.row])).toEqual([
			[2, { partner: "A", name: "one", description: "multi\nline\ncell" }],
			[6, { partner: "A", name: "two" }],
			[8, { partner: "A", name: "three", description: "x" }],
		]);
	});

	it("turns CSV cells into row fields: trimmed header names, codes split on ';', specs parsed", () => {
		const [line] = importLines(' Partner ,NAME,commodity_codes,specs\nA,n," 1 ; 2;;3 ","{""k.1"": [1, 2]}"');
		expect(line!.row).toEqual({ partner: "A", name: "n", commodity_codes: ["1", "2", "3"], specs: { "k.1": [1, 2] } });
		expect(line!.issues).toEqual([]);
		const [bad] = importLines("partner,name,specs\nA,n,{oops}");
		expect(bad!.issues).toEqual([expect.objectContaining({ path: "specs", code: "invalid_json" })]);
		const [short] = importLines("partner,name,model\nA");
		expect(short!.issues).toEqual([expect.objectContaining({ code: "column_count" })]);
	});

	it("is invalid_import for bodies that cannot be read at all, validation_failed for no rows or too many", () => {
		for (const body of ['partner,name\n"A,n', "model\nx", "partner,name,extra\nA,n,e", "", {}, 42, null, true])
			expect(
				codeOf(() => importLines(body)),
				JSON.stringify(body),
			).toBe("invalid_import");
		expect(codeOf(() => importLines("partner,name\n"))).toBe("validation_failed");
		expect(codeOf(() => importLines([]))).toBe("validation_failed");
		expect(codeOf(() => importLines(undefined))).toBe("validation_failed");
		expect(codeOf(() => importLines(`partner,name\n${"A,n\n".repeat(5001)}`))).toBe("validation_failed");
		expect(importLines(`partner,name\n${"A,n\n".repeat(5000)}`)).toHaveLength(5000);
		expect(codeOf(() => importLines("x".repeat(8 * 1024 * 1024 + 1)))).toBe("validation_failed");
	});
});
