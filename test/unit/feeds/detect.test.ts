import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_FEED_BYTES, parseFeed } from "../../../services/opportunities/feeds/detect.ts";
import { EFORMS_CHANGE, EFORMS_ORIGINAL, EVAL_NOTICES, OCDS_SAMPLE, readText, SAM_FIXTURE } from "./files.ts";

describe("parseFeed: format detection", () => {
	it("recognises each real format from its content, as bytes or text", () => {
		expect(parseFeed(readFileSync(SAM_FIXTURE))).toMatchObject({ format: "sam" });
		expect(parseFeed(readText(OCDS_SAMPLE))).toMatchObject({ format: "ocds", rejected: [] });
		expect(parseFeed(readFileSync(EVAL_NOTICES))).toMatchObject({ format: "ocds", rejected: [] });
		expect(parseFeed(readFileSync(EFORMS_ORIGINAL))).toMatchObject({ format: "ted", rejected: [] });
		expect(parseFeed(readText(EFORMS_CHANGE))).toMatchObject({ format: "ted", rejected: [] });
	});

	it("goes by content, not by the file name", () => {
		expect(parseFeed(readFileSync(OCDS_SAMPLE), { filename: "notice.xml" }).format).toBe("ocds");
	});

	it("reads a byte-order mark in UTF-8 and UTF-16", () => {
		const xml = readText(EFORMS_ORIGINAL);
		expect(parseFeed(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)])).format).toBe("ted");
		const utf16 = parseFeed(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, "utf16le")]));
		expect(utf16).toMatchObject({ format: "ted", rejected: [] });
		expect(utf16.notices[0]?.title).toBe(parseFeed(xml).notices[0]?.title);
	});

	it("recognises an array of releases and a record package as OCDS", () => {
		const release = JSON.parse(readText(OCDS_SAMPLE));
		expect(parseFeed(JSON.stringify([release])).format).toBe("ocds");
		expect(parseFeed(JSON.stringify({ records: [{ ocid: release.ocid, compiledRelease: release }] })).notices).toHaveLength(1);
	});

	const garbage: [string, string | Uint8Array, RegExp][] = [
		["empty content", "", /empty content/],
		["whitespace", " \n\t ", /empty content/],
		["plain text", "Contract notice: switches", /neither JSON nor XML/],
		["a PDF", Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj"), /neither JSON nor XML/],
		["broken JSON", '{"opportunitiesData": [', /invalid JSON/],
		["foreign JSON", '{"data": [{"id": 1}]}', /neither a SAM\.gov search response/],
		["an array of numbers", "[1, 2, 3]", /neither a SAM\.gov search response/],
		["HTML", "<!doctype html><html><body>hi</body></html>", /DOCTYPE/],
		["foreign XML", '<?xml version="1.0"?><rss version="2.0"><channel/></rss>', /root rss \(no namespace\) is not an eForms/],
		["an eForms root without its namespace", "<ContractNotice><cbc:ID>1</cbc:ID></ContractNotice>", /is not an eForms/],
		["malformed XML", "<ContractNotice><open></ContractNotice>", /malformed XML/],
	];
	for (const [name, content, reason] of garbage) {
		it(`reports ${name} as unknown with a reason`, () => {
			const out = parseFeed(content, { filename: "upload.bin" });
			expect(out.format).toBe("unknown");
			expect(out.notices).toEqual([]);
			expect(out.rejected).toHaveLength(1);
			expect(out.rejected[0]?.reason).toMatch(/^upload\.bin: /);
			expect(out.rejected[0]?.reason).toMatch(reason);
		});
	}

	it("refuses oversized content unread", () => {
		const out = parseFeed(Buffer.alloc(MAX_FEED_BYTES + 1, 0x20));
		expect(out).toMatchObject({ format: "unknown", notices: [] });
		expect(out.rejected[0]?.reason).toMatch(/larger than/);
	});

	it("never throws, even on absurdly nested JSON", () => {
		const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
		expect(() => parseFeed(deep)).not.toThrow();
		expect(parseFeed(deep).format).toBe("unknown");
		const deepObject = `{"releases":[${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}]}`;
		expect(() => parseFeed(deepObject)).not.toThrow();
	});
});
