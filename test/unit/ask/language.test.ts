// Why: the language a notice is read in decides which stems a question's words are matched against;
// the declaration a notice makes must win over detection where detection misreads, and lose where the text contradicts it.
import { describe, expect, it } from "vitest";
import { buildGrounding } from "../../../services/ask/context.ts";
import { declaredUnlessContradicted, detectLanguage } from "../../../shared/text/index.ts";

const CATALAN =
	"Concessió per a la gestió i explotació dels camps de futbol municipals. L'objecte del contracte és la concessió del servei " +
	"de gestió, manteniment i explotació de les instal·lacions esportives municipals, amb els vestidors i el bar, durant un període de deu anys.";
const ENGLISH =
	"Qualification system for suppliers of goods and services to utilities in the Nordic countries. Suppliers register once, " +
	"are assessed against common requirements, and buyers invite qualified suppliers to tender for their contracts without a new notice.";

describe("the language ask reads a notice in (declaredUnlessContradicted)", () => {
	it("takes the declared language on a short title detection misreads", () => {
		const title = "GENERATOR (EP077-141836/A)";
		expect(detectLanguage(title)).not.toBe("en");
		expect(declaredUnlessContradicted(title, "en")).toBe("en");
		expect(declaredUnlessContradicted(title, "en-CA")).toBe("en");
	});

	it("reads a text in a language we do not know in the declared one we do (Catalan declared Spanish)", () => {
		expect(detectLanguage(CATALAN)).toBe("en");
		expect(declaredUnlessContradicted(CATALAN, "es")).toBe("es");
	});

	it("lets a long text clearly in another language overrule the declaration", () => {
		expect(declaredUnlessContradicted(ENGLISH, "nb")).toBe("en");
		expect(declaredUnlessContradicted(ENGLISH, "en")).toBe("en");
	});

	it("detects when nothing usable is declared", () => {
		for (const declared of [undefined, null, "", "ca", "md", 7])
			expect(declaredUnlessContradicted(ENGLISH, declared)).toBe(detectLanguage(ENGLISH));
	});

	it("is what the grounding reads the notice in, and the declaration is no passage of its own", () => {
		const g = buildGrounding({
			notice: { title: "Camps de futbol", description: CATALAN, details: { language: "es" } },
			opportunity: null,
			profile: null,
		});
		expect(g.lang).toBe("es");
		expect(g.passages.some((p) => /\bes\b/.test(p.text) && /language/i.test(p.text))).toBe(false);
		expect(buildGrounding({ notice: { title: "Camps de futbol", description: CATALAN }, opportunity: null, profile: null }).lang).toBe(
			"en",
		);
	});
});
