// Why: issue 18's eighth round (tune-n: older Doffin notices, short UK ones, an Armenian one) read a notice's text as it
// was written rather than as a feed wrapped or segmented it, and kept a few values from being taken for others: a sentence
// wrapped at a fixed width is one sentence, a link's "?" ends none, "14 stk." stays with what it counts and "1." with its
// entry, a listing heading answers "which lots", "22 MNOK" is a sum, a contract period is dated in the buyer's own day, the
// contract's own words name no subject, a year ending a name dates nothing and a question naming a date wants one.
// Notices written for this test.
import { describe, expect, it } from "vitest";
import { type AskNotice, buildGrounding } from "../../../services/ask/context.ts";
import { answerExtractive, NOT_STATED } from "../../../services/ask/extractive.ts";
import { hasCodedMoney, kindsIn, scaledCode } from "../../../services/ask/values.ts";

const ask = (notice: AskNotice, question: string) => answerExtractive(buildGrounding({ notice }), question).answer;
const texts = (notice: AskNotice) => buildGrounding({ notice }).passages.map((p) => p.text);

const wrapped: AskNotice = {
	title: "Rammeavtale på kjøleutstyr",
	description: [
		"Avdelingen ønsker å inngå en rammeavtale i 2 år regnet fra signering.",
		"Oppdragsgiver kan deretter forlenge avtalen med inntil",
		"1 år av gangen.",
		"Rammeavtalen har en estimert verdi på mellom",
		"kr. 2.000.000 - 3.000.000 eksklusive mva.",
		"Anskaffelsen gjelder følgende produkter:",
		"4 stk. Kjøleskap",
		"2 stk. Frysere",
		"Registrer interesse på https://tenders.example.org/view.aspx?ID=4711 før fristen.",
	].join("\n"),
	details: { language: "no" },
};

describe("reading text as it was written", () => {
	it("rejoins a sentence a feed wrapped at a line end, and leaves a list's lines apart", () => {
		const lines = texts(wrapped);
		expect(lines).toContain("Oppdragsgiver kan deretter forlenge avtalen med inntil 1 år av gangen.");
		expect(lines).toContain("Rammeavtalen har en estimert verdi på mellom kr. 2.000.000 - 3.000.000 eksklusive mva.");
		expect(lines).toContain("4 stk. Kjøleskap");
		expect(lines).toContain("2 stk. Frysere");
	});

	it("answers from the rejoined sentence what neither half said alone", () => {
		expect(ask(wrapped, "What is the estimated value of the framework agreement?")).toContain("2.000.000 - 3.000.000");
		expect(ask(wrapped, "Hvor mange frysere skal leveres?")).toContain("2 stk. Frysere");
	});

	it("keeps a link whole across its '?'", () => {
		expect(texts(wrapped)).toContain("Registrer interesse på https://tenders.example.org/view.aspx?ID=4711 før fristen.");
		expect(ask(wrapped, "Hvor registrerer jeg interesse?")).toContain("https://tenders.example.org/view.aspx?ID=4711");
	});
});

describe("a list that answers 'which'", () => {
	const lots: AskNotice = {
		title: "Anskaffelse av traktorer og hengere",
		description: [
			"Kommunen skal inngå rammeavtale for traktorer og hengere.",
			"Anskaffelsen er delt opp i følgende delkontrakter:",
			"1. Traktorer",
			"2. Hengere",
			"Leverandøren kan inngi tilbud på en eller flere delkontrakter.",
		].join("\n"),
		details: { language: "no" },
	};

	it("keeps a list's number with its entry", () => {
		expect(texts(lots)).toEqual(expect.arrayContaining(["1. Traktorer", "2. Hengere"]));
	});

	it("quotes the heading that lists the lots, and its lines, beside the sentence only naming them", () => {
		const a = ask(lots, "Which lots is the procurement divided into?");
		expect(a).toContain("1. Traktorer");
		expect(a).toContain("2. Hengere");
	});
});

describe("sums written with a scale", () => {
	it("reads a currency code with a scale glued before it as a sum", () => {
		expect(scaledCode("MNOK")).toBe(true);
		expect(scaledCode("MSEK")).toBe(true);
		expect(scaledCode("kEUR")).toBe(true);
		expect(scaledCode("MOMS")).toBe(false);
		expect(scaledCode("NOK")).toBe(false);
		expect(hasCodedMoney("Estimert verdi er satt til 1,7 MNOK.")).toBe(true);
		expect([...kindsIn("et uttak på ca. 22 MNOK i avtaleperioden", "no")]).toContain("money");
		expect([...kindsIn("22 MOMS", "no")]).not.toContain("money");
	});

	it("answers a value question with it", () => {
		const notice: AskNotice = {
			title: "Snøscootere",
			description: "Det estimeres et uttak på ca. 12 MNOK i løpet av avtaleperioden.",
			details: { language: "no" },
		};
		expect(ask(notice, "Hva er estimert uttak?")).toContain("12 MNOK");
	});
});

describe("a contract period in the buyer's own day", () => {
	const notice: AskNotice = {
		title: "Vehicle repair services",
		deadline: "2031-04-02T11:00:00Z",
		details: {
			deadline_local: "2031-04-02T15:00+04:00",
			contract_period: { start: "2031-10-14T20:00:00Z", end: "2031-11-08T20:00:00Z", duration_days: 25 },
		},
	};

	it("dates the period's ends by the UTC offset of the notice's own deadline", () => {
		const period = buildGrounding({ notice }).facts.find((f) => f.field === "period");
		expect(period?.text).toBe("start 2031-10-15; end 2031-11-09; duration 25 days");
	});

	it("answers 'when does the contract end?' with the period's end", () => {
		const a = ask(notice, "When does the contract end?");
		expect(a).toContain("Contract end: 2031-11-09");
		expect(a).not.toContain(NOT_STATED);
	});
});

describe("what names the question's subject", () => {
	const notice: AskNotice = {
		title: "United Kingdom-Leeds: Curtains",
		description: "'Supply, Delivery and Fitting of Curtains.'",
		details: {
			milestones: [
				{ title: "Contract start", description: "Anticipated contract start date" },
				{ title: "Contract end", description: "Anticipated contract end date" },
			],
		},
	};

	it("does not take the contract's own words for the subject, and lets a heading naming it say it is included", () => {
		const a = ask(notice, "Does the contract include fitting the curtains?");
		expect(a).toContain("Fitting of Curtains");
		expect(a).not.toContain("Contract start");
	});
});

describe("dates", () => {
	it("reads a year ending a name as part of the name, outside German", () => {
		expect([...kindsIn("Anskaffing 2 ulike renovasjonsbilar Nomil 2020", "no")]).not.toContain("date");
		expect([...kindsIn("levering i 2026", "no")]).toContain("date");
		expect([...kindsIn("Die Arbeiten sollen ab den Sommerferien 2020 stattfinden.", "de")]).toContain("date");
		expect([...kindsIn("Start in June 2020.", "en")]).toContain("date");
	});

	it("does not answer a question naming a date with a duration", () => {
		const notice: AskNotice = {
			title: "Anskaffing 2 renovasjonsbilar Nordfjord 2020",
			description: ["Konkurransen gjeld levering av to stk nye renovasjonsbilar.", "Bilane vil bli kjøpt gjennom leasing på 7 år."].join(
				"\n",
			),
			details: { language: "no" },
		};
		expect(ask(notice, "What is the delivery date for the trucks?")).toContain(NOT_STATED);
		expect(ask(notice, "How long is the lease?")).toContain("leasing på 7 år");
	});
});
