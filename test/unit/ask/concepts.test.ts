// Why: what a question asks is read from a glossary of notice-field concepts in the notices'
// languages, on Snowball stems; this checks that inflections, compounds and longer phrases behave.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { conceptsIn, eformsTerms, withEformsTerms } from "../../../services/ask/concepts.ts";
import { analyzeQuestion } from "../../../services/ask/question.ts";

const named = (text: string, langs: Parameters<typeof conceptsIn>[1], question = true) =>
	conceptsIn(text, langs, question).hits.map((h) => h.concept);
const asked = (q: string, lang: Parameters<typeof analyzeQuestion>[1] = "en") => analyzeQuestion(q, lang, new Set()).asked?.name ?? null;

describe("conceptsIn", () => {
	it("names the same topic in any language, through inflections and compounds", () => {
		expect(named("Når er tilbudsfristen?", ["no"])).toContain("deadline");
		expect(named("Bis wann müssen die Angebote eingehen?", ["de"])).toEqual(expect.arrayContaining(["when", "offer"]));
		expect(named("Ποια είναι η προθεσμία υποβολής προσφορών;", ["el"])).toContain("deadline");
		expect(named("Jaka jest wysokość wadium dla części 1?", ["pl"])).toContain("security");
		expect(named("puitejärjestelyn enimmäisarvo on 1 800 000 euroa", ["fi"], false)).toContain("value");
	});

	it("lets the longer phrase win ('hvor mange' is a quantity, not a place)", () => {
		expect(named("Hvor mange kommuner deltar?", ["no"])).toContain("quantity");
		expect(named("Hvor mange kommuner deltar?", ["no"])).not.toContain("place");
		expect(named("Hvor skal utstyret leveres?", ["no"])).toContain("place");
	});

	it("reads some words in questions only ('the current supplier' asks for the incumbent; 'a current licence' answers nothing)", () => {
		expect(named("Who is the current supplier?", ["en"])).toContain("incumbent");
		expect(named("Applicators must hold a current licence.", ["en"], false)).not.toContain("incumbent");
	});
});

describe("analyzeQuestion", () => {
	it("combines concepts into what is asked", () => {
		expect(asked("When are offers due?")).toBe("deadline");
		expect(asked("Bis wann müssen die Angebote eingehen?", "de")).toBe("deadline");
		expect(asked("Who should questions be sent to?")).toBe("contact");
		expect(asked("Is there a site visit before quotes are due?")).toBe("site_visit");
		expect(asked("Who may tender?")).toBe("eligibility");
		expect(asked("How many words per year are estimated?")).toBe("quantity");
	});

	it("keeps the subject, numbers as written, and what 'how many' counts", () => {
		const q = analyzeQuestion("How many crew members will use the tablets?", "en", new Set());
		expect(q.counted).toEqual(["crew", "member"]);
		expect(analyzeQuestion("What age range does Phase 2 cover?", "en", new Set()).subject.map((s) => s.term)).toContain("2");
	});

	it("borrows the topic of the latest earlier question for a follow-up", () => {
		const q = analyzeQuestion("And what about that?", "en", new Set(), ["ok", "What warranty is required?", "thanks"]);
		expect(q.asked?.name).toBe("warranty");
	});

	it("reads a deadline word qualified by the contract as the contract's term, not the tender deadline", () => {
		expect(asked("¿Cuál es el plazo del arrendamiento?", "es")).toBe("duration");
		expect(asked("¿Cuál es el plazo de presentación de ofertas?", "es")).toBe("deadline");
		expect(asked("Jaki jest termin realizacji umowy?", "pl")).toBe("duration");
		expect(asked("Jaki jest termin składania ofert?", "pl")).toBe("deadline");
	});

	it("reads a question in a third language in that language (Swedish on an English or Norwegian notice)", () => {
		expect(analyzeQuestion("Vem driver kvalificeringssystemet?", "en", new Set()).lang).toBe("sv");
		expect(analyzeQuestion("Vem driver kvalificeringssystemet?", "en", new Set()).asked?.name).toBe("who");
		expect(analyzeQuestion("Hvem er kontaktperson?", "no", new Set()).lang).toBe("no");
	});

	it("asks for an organisation when a kind of one opens the question, not when it only names something", () => {
		expect(asked("Which hospital is the equipment for?")).toBe("organisation");
		expect(asked("Hvilket sykehus gjelder det?", "no")).toBe("organisation");
		expect(asked("Is the hospital new?")).not.toBe("organisation");
		expect(asked("How far from Lake City may the plant be?")).not.toBe("organisation");
		expect(asked("How many hospital beds are needed?")).toBe("quantity");
	});

	it("reads a question asked in English about a notice in another language", () => {
		const q = analyzeQuestion("What is the estimated value?", "no", new Set(["verdi"]));
		expect(q.lang).toBe("en");
		expect(q.asked?.name).toBe("value");
	});
});

describe("the eForms SDK's names of the concepts (data/ask/eforms-terms.json, built locally)", () => {
	it("reads the glossary alone where the names were not built, and the file where they were", () => {
		const dir = mkdtempSync(join(tmpdir(), "oms-eforms-"));
		expect(eformsTerms(join(dir, "absent.json"))).toEqual({ concepts: {} });
		const file = join(dir, "eforms-terms.json");
		writeFileSync(file, JSON.stringify({ concepts: { security: { words: { cs: ["finanční záruka"] } } } }));
		const terms = eformsTerms(file);
		expect(terms.concepts.security?.words.cs).toEqual(["finanční záruka"]);
		const glossary = [{ name: "security" as const, topic: "security", rank: 5, words: { en: ["guarantee"] } }];
		expect(withEformsTerms(glossary, terms)[0]!.words).toEqual({ en: ["guarantee"], cs: ["finanční záruka"] });
	});
	it("adds a one-word name only where the glossary is silent in that language", () => {
		const glossary = [{ name: "option" as const, topic: "options", rank: 5, words: { cs: ["opce"] } }];
		const eforms = { concepts: { option: { words: { cs: ["možnosti", "popis možností"], sk: ["opcie"] } } } };
		expect(withEformsTerms(glossary, eforms)[0]!.words).toEqual({ cs: ["opce", "popis možností"], sk: ["opcie"] });
	});
});
