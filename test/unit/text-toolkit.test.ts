// Why: the one text toolkit (shared/text) is what every comparison of words rests on; these
// checks pin the behaviours matching relies on: detection, stems across inflections, elisions,
// diacritics folded, sentences ended by line breaks.
import { describe, expect, it } from "vitest";
import {
	detectLanguage,
	foldOf,
	isStopword,
	languageOf,
	purposeSplit,
	sentencesOf,
	stemOf,
	termsOf,
	wordsOf,
} from "../../shared/text/index.ts";

describe("shared/text", () => {
	it("detects the language of notice titles, and prefers the one the feed declares", () => {
		expect(detectLanguage("Lieferung von Laborzentrifugen für das Klinikum")).toBe("de");
		expect(detectLanguage("Fourniture d'ordinateurs portables pour les écoles")).toBe("fr");
		expect(detectLanguage("Προμήθεια φορητών υπολογιστών για τις σχολικές μονάδες")).toBe("el");
		expect(detectLanguage("Доставка на компютърна техника за нуждите на общината")).toBe("bg");
		expect(detectLanguage("Dostawa sprzętu komputerowego dla szkół podstawowych")).toBe("pl");
		expect(detectLanguage("anything at all", "nb")).toBe("no");
		expect(detectLanguage("x")).toBe("en");
		expect(languageOf("EN-GB")).toBe("en");
		expect(languageOf("fre")).toBe("fr");
		expect(languageOf("tlh")).toBeUndefined();
	});

	it("stems inflections of one word to one stem, per language", () => {
		expect(stemOf("centrifuges", "en")).toBe(stemOf("centrifuge", "en"));
		expect(stemOf("laborzentrifugen", "de")).toBe(stemOf("laborzentrifuge", "de"));
		expect(stemOf("ordinateurs", "fr")).toBe(stemOf("ordinateur", "fr"));
		expect(stemOf("x200", "en")).toBe("x200");
	});

	it("splits elisions, folds diacritics and drops function words", () => {
		expect(wordsOf("Fourniture d'ordinateurs")).toEqual(["fourniture", "d", "ordinateurs"]);
		expect(termsOf("ΠΡΟΜΗΘΕΙΑ ΦΟΡΗΤΩΝ ΥΠΟΛΟΓΙΣΤΩΝ", "el")).toEqual(termsOf("Προμήθεια φορητών υπολογιστών", "el"));
		expect(foldOf("sprzęt")).toBe("sprzet");
		expect(isStopword("the", "en")).toBe(true);
		expect(isStopword("und", "de")).toBe(true);
		expect(termsOf("Supply of the laptops", "en")).toEqual(["suppli", "laptop"]);
	});

	it("ends a sentence at a full stop and at a line break, not at an abbreviation's dot inside a figure", () => {
		expect(sentencesOf("Supply of 40 laptops. Delivery in 3.5 weeks\nLot 2: monitors")).toEqual([
			"Supply of 40 laptops.",
			"Delivery in 3.5 weeks",
			"Lot 2: monitors",
		]);
	});

	it("cuts a line at its purpose preposition, in the line's language", () => {
		expect(purposeSplit("Bateria para camioneta", "es")).toEqual({ head: "Bateria", purpose: "camioneta" });
		expect(purposeSplit("Ersatzteile für Fahrzeuge", "de")).toEqual({ head: "Ersatzteile", purpose: "Fahrzeuge" });
		expect(purposeSplit("Replacement batteries for handheld radios", "en")?.head).toBe("Replacement batteries");
		// Not a purpose: the word inside another ("forklift"), at the start of the line, or in a language that puts it after the noun.
		expect(purposeSplit("Electric forklift trucks", "en")).toBeNull();
		expect(purposeSplit("For the school: laptops", "en")).toBeNull();
		expect(purposeSplit("Sõidukite jaoks akud", "et")).toBeNull();
	});

	it("stems a word written in capitals without its accents as the accented word", () => {
		expect(termsOf("ADQUISICION DE BATERIA", "es")).toEqual(termsOf("adquisición de batería", "es"));
		expect(termsOf("Baterías", "es")).toEqual(termsOf("BATERIAS", "es"));
	});
});
