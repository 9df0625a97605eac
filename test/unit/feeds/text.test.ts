import { describe, expect, it } from "vitest";
import {
	cleanEmail,
	cleanLine,
	cleanText,
	decodeEntities,
	isoLanguage,
	safeUrl,
	stripHtml,
	truncate,
} from "../../../services/opportunities/feeds/text.ts";

describe("cleanText", () => {
	it("strips HTML, decodes entities and keeps paragraphs as single line breaks", () => {
		const html =
			"<p>Supply of <strong>12</strong> switches&nbsp;&amp; optics.</p>\n\n<ul><li>48-port&#160;PoE+</li><li>10G&#x2F;25G uplinks</li></ul><p>  Due   by 5 PM.</p>";
		expect(cleanText(html, 1000, { html: true })).toBe("Supply of 12 switches & optics.\n48-port PoE+\n10G/25G uplinks\nDue by 5 PM.");
	});

	it("drops scripts, styles and comments but keeps a less-than sign that is not markup", () => {
		const html = "<style>p{color:red}</style>a < b and x<5<script>alert('x')</script><!-- note -->!";
		expect(cleanText(html, 1000, { html: true })).toBe("a < b and x<5!");
	});

	it("leaves escaped markup as visible text instead of turning it into tags", () => {
		expect(cleanText("&lt;script&gt;alert(1)&lt;/script&gt;", 100, { html: true })).toBe("<script>alert(1)</script>");
	});

	it("keeps an unclosed tag-like fragment as text", () => {
		expect(cleanText("price <b and nothing closes", 100, { html: true })).toBe("price <b and nothing closes");
	});

	it('treats SAM\'s literal "null" and blank strings as absent', () => {
		expect(cleanText("null", 100)).toBeNull();
		expect(cleanText(" \n\t ", 100)).toBeNull();
		expect(cleanText(undefined, 100)).toBeNull();
		expect(cleanText({ text: "x" }, 100)).toBeNull();
	});

	it("truncates long text on a word boundary with an ellipsis", () => {
		const out = cleanText("word ".repeat(10_000), 100) ?? "";
		expect(out.length).toBeLessThanOrEqual(100);
		expect(out.endsWith("word…")).toBe(true);
	});

	it("never splits a surrogate pair when truncating", () => {
		const out = truncate("😀".repeat(100), 11);
		expect(out.endsWith("…")).toBe(true);
		expect(() => encodeURIComponent(out)).not.toThrow();
	});
});

describe("decodeEntities", () => {
	it("decodes character references and known names, leaves unknown names as written", () => {
		expect(decodeEntities("&#233;&#xE9;&eacute; &bogus; &constructor; &#0; &#xD800;")).toBe("ééé &bogus; &constructor; \ufffd \ufffd");
	});
});

describe("cleanLine", () => {
	it("collapses all whitespace, including line breaks, into single spaces", () => {
		expect(cleanLine("  CP1093-14\r\n Connecting   Devon &amp; Somerset ", 200)).toBe("CP1093-14 Connecting Devon & Somerset");
	});
});

describe("safeUrl and cleanEmail", () => {
	it("keeps only http(s) links", () => {
		expect(safeUrl(" https://sam.gov/opp/abc/view ")).toBe("https://sam.gov/opp/abc/view");
		for (const bad of [
			"javascript:alert(1)",
			"data:text/html,<b>x</b>",
			"file:///etc/passwd",
			"ftp://x.org/a",
			"null",
			"",
			"not a url",
			42,
		]) {
			expect(safeUrl(bad)).toBeNull();
		}
	});

	it("accepts plausible e-mail addresses only", () => {
		expect(cleanEmail(" mailto:dana.whitfield@va.gov ")).toBe("dana.whitfield@va.gov");
		for (const bad of ["", "no-at-sign", "a@b@c", "a b@c.d", "@x.org", "x@"]) expect(cleanEmail(bad)).toBeNull();
	});
});

describe("linear time on hostile input", () => {
	const hostile = {
		"unclosed tags": "<a".repeat(500_000),
		"tags without names": "< ".repeat(500_000),
		ampersands: "&".repeat(1_000_000),
		"entity-like runs": "&a".repeat(500_000),
		"unterminated comments": "<!--".repeat(250_000),
		"unterminated script": `<script>${"x".repeat(1_000_000)}`,
		"many paragraphs": "<p>x</p>".repeat(200_000),
		whitespace: `${" ".repeat(1_000_000)}x`,
	};
	for (const [name, input] of Object.entries(hostile)) {
		it(`cleans ${name} quickly`, () => {
			const started = performance.now();
			const out = cleanText(input, 20_000, { html: true });
			expect(performance.now() - started).toBeLessThan(2_000);
			expect((out ?? "").length).toBeLessThanOrEqual(20_000);
		});
	}

	it("stripHtml handles a hundred thousand small tags", () => {
		expect(stripHtml("<b>x</b>".repeat(100_000)).length).toBe(100_000);
	});
});

describe("isoLanguage", () => {
	it("reads the tags feeds declare (BCP 47, TED's two letters, eForms' ISO 639-2/B) as ISO 639-1", () => {
		expect(["en-GB", "EN", "ENG", "spa", "fre", "ger", "nob", "CAT", " pl "].map(isoLanguage)).toEqual([
			"en",
			"en",
			"en",
			"es",
			"fr",
			"de",
			"nb",
			"ca",
			"pl",
		]);
	});

	it("names no language for codes that are none or not ISO 639-1", () => {
		for (const tag of ["md", "xx", "mul", "", "   ", "en_GB_x_y_z!", "a".repeat(40), null, 7]) expect(isoLanguage(tag)).toBeUndefined();
	});
});
