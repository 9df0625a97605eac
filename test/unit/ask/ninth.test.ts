// Why: issue 18's ninth round. Norwegian is written in two standards, and the glossary knew only Bokmål: a question or a
// notice in Nynorsk ("kva", "sjukehus", "varigheit", "kor mange") named no topic. The Scandinavian genitive glues an s to a
// unit of time ("7 års varigheit") that Snowball leaves on, so such a duration read as a bare number. A sentence about what
// the buyer has now ("De har i dag 9 biler") answered how many will be bought; "med en leverandør" counted nothing; a procedure
// named only by its Norwegian name in the title answered no "Hvilken prosedyre brukes?".
// Notices written for this test.
import { describe, expect, it } from "vitest";
import { type AskNotice, buildGrounding } from "../../../services/ask/context.ts";
import { answerExtractive, NOT_STATED } from "../../../services/ask/extractive.ts";
import { kindsIn } from "../../../services/ask/values.ts";

const ask = (notice: AskNotice, question: string) => answerExtractive(buildGrounding({ notice }), question).answer;

const nynorsk: AskNotice = {
	title: "Anskaffing av vassreinseanlegg",
	description: [
		"Oppdragsgjevar ønskjer tilbod på levering og installering av 2 stk vassreinseanlegg til Voss sjukehus.",
		"Anlegga vil bli kjøpt gjennom leasing hjå oppdragsgjevar sitt leasingfirma Fjordkreditt.",
		"Innkjøpet skal inkludere ein serviceavtale med 5 års varigheit.",
	].join("\n"),
	details: { language: "nn" },
};

describe("Nynorsk", () => {
	it("reads a Nynorsk question word as Bokmål's", () => {
		expect(ask(nynorsk, "Kva leasingfirma skal brukast?")).toContain("Fjordkreditt");
	});

	it("finds an organisation the notice names in Nynorsk", () => {
		expect(ask(nynorsk, "Which hospital are the plants for?")).toContain("Voss sjukehus");
	});

	it("reads a Nynorsk topic word as Bokmål's", () => {
		const notice = { ...nynorsk, description: "Serviceavtalen har ei varigheit på 4 år." };
		expect(ask(notice, "Kor lang er serviceavtalen?")).toContain("varigheit på 4 år");
		expect(ask(notice, "Kor lenge varer avtalen?")).toContain("varigheit på 4 år");
	});
});

describe("the Scandinavian genitive of a unit of time", () => {
	it("reads '7 års' as a duration in Norwegian, Danish and Swedish, not in English", () => {
		expect([...kindsIn("serviceavtale med 7 års varigheit", "no")]).toContain("duration");
		expect([...kindsIn("der ydes 2 års garanti", "da")]).toContain("duration");
		expect([...kindsIn("med 3 års garanti", "sv")]).toContain("duration");
		expect([...kindsIn("7 ars", "en")]).not.toContain("duration");
	});

	it("answers how long from it, and no date question", () => {
		expect(ask(nynorsk, "Kor lenge varer serviceavtalen?")).toContain("5 års varigheit");
		expect(ask(nynorsk, "How long is the service agreement?")).toContain("5 års varigheit");
		expect(ask(nynorsk, "What is the delivery date of the plants?")).toContain(NOT_STATED);
	});
});

describe("a sentence about the present state", () => {
	const present: AskNotice = {
		title: "Biler til hundetjenesten",
		description: [
			"Hundetjenesten skal inngå rammeavtale om kjøp av biler for hundetransport.",
			"De har i dag 9 biler for hundetransport.",
		].join("\n"),
		details: { language: "no" },
	};
	const english: AskNotice = {
		title: "Supply of patrol boats",
		description: ["The authority will buy patrol boats under a framework.", "At present the fleet comprises 6 patrol boats."].join("\n"),
		details: { language: "en" },
	};

	it("does not answer how many will be bought", () => {
		expect(ask(present, "Hvor mange biler skal kjøpes?")).toContain(NOT_STATED);
		expect(ask(english, "How many patrol boats will be bought?")).toContain(NOT_STATED);
	});

	it("answers a question about the present", () => {
		expect(ask(present, "Hvor mange biler har de i dag?")).toContain("9 biler");
		expect(ask(english, "How many patrol boats does the fleet have at present?")).toContain("6 patrol boats");
	});
});

describe("the article that is also 'one'", () => {
	const notice: AskNotice = {
		title: "Rammeavtale om kjøp av båter",
		description: "Direktoratet skal inngå rammeavtale med en leverandør for kjøp av båter.",
		details: { language: "no" },
	};

	it("counts one of what is asked about in the notice's language", () => {
		expect(ask(notice, "Med hvor mange leverandører skal det inngås rammeavtale?")).toContain("med en leverandør");
	});

	it("counts nothing else, and not in English", () => {
		expect(ask(notice, "Hvor mange båter skal kjøpes?")).toContain(NOT_STATED);
		const english: AskNotice = {
			title: "Boats",
			description: "The authority will award a framework to a supplier for boats.",
			details: { language: "en" },
		};
		expect(ask(english, "How many suppliers will be awarded a framework?")).toContain(NOT_STATED);
	});
});

describe("a procedure named by its Norwegian name", () => {
	const notice: AskNotice = {
		title: "Åpen anbudskonkurranse for kjøp av skolemøbler",
		description: "Kommunen skal kjøpe pulter og stoler til 3 skoler.",
		details: { language: "no" },
	};

	it("answers which procedure is used from the title", () => {
		expect(ask(notice, "Hvilken prosedyre brukes?")).toContain("Åpen anbudskonkurranse");
		expect(ask(notice, "Kva prosedyre vert nytta?")).toContain("Åpen anbudskonkurranse");
	});
});
