// Why: the submission method and the deadline for questions reach ask only if every step between
// the feed and the grounding keeps them (parser, stored fields, the opportunities service's reading
// view): this follows one OCDS release the way production ingests it, as scripts/eval-ask.ts does.
import { describe, expect, it } from "vitest";
import { buildGrounding, type AskNotice } from "../../../services/ask/context.ts";
import { answerExtractive } from "../../../services/ask/extractive.ts";
import { parseOcds } from "../../../services/opportunities/feeds/ocds.ts";
import { mergeVersion } from "../../../services/opportunities/feeds/versions.ts";
import { storedFields } from "../../../services/opportunities/ingest.ts";
import type { NoticeDoc } from "../../../services/opportunities/models.ts";
import { noticeForReading } from "../../../services/opportunities/notices.ts";

const release = {
	ocid: "ocds-feedfields-001",
	id: "ocds-feedfields-001-tender",
	date: "2031-01-05T10:00:00-05:00",
	tag: ["tender"],
	tender: {
		id: "LPN-0042",
		title: "Adquisición de computadoras portátiles",
		description: "Suministro de 40 computadoras portátiles para las oficinas regionales.",
		tenderPeriod: { endDate: "2031-02-03T08:50:00-04:00" },
		enquiryPeriod: { endDate: "2031-01-20T10:00:00-05:00" },
		submissionMethod: ["written"],
		submissionMethodDetails: "Las ofertas se entregan en la mesa de partes, en sobre cerrado.",
		minValue: { amount: 250000, currency: "PYG" },
		amendments: [{ id: "1", date: "2031-01-10T10:00:00-05:00", rationale: "Adenda 01: se amplía el plazo de consultas." }],
		contractPeriod: { startDate: "2031-04-01T00:00:00Z", durationInDays: 365 },
		milestones: [{ id: "1", title: "Contract end", description: "Anticipated contract end date", dueDate: "2032-03-31T00:00:00Z" }],
		classification: { scheme: "CPV", id: "30213100", description: "Computadoras portátiles de uso oficial" },
	},
};

function asStored(): AskNotice {
	const [n] = parseOcds(release).notices;
	const doc = { _id: "n1", ...storedFields(mergeVersion(null, n!).notice, new Date(0)) } as unknown as NoticeDoc;
	return JSON.parse(JSON.stringify(noticeForReading(doc))) as AskNotice;
}

describe("feed fields in ask's grounding", () => {
	const g = buildGrounding({ notice: asStored() });

	it("carries the submission method and the enquiry deadline as named fields", () => {
		expect(g.facts.find((f) => f.name === "submission")?.text).toBe(
			"method written; details: Las ofertas se entregan en la mesa de partes, en sobre cerrado.",
		);
		expect(g.facts.find((f) => f.name === "enquiry_deadline")?.text).toBe("2031-01-20 10:00 (UTC-05:00; 2031-01-20 15:00 UTC)");
	});

	it("carries the minimum value and the amendment the first version already holds", () => {
		expect(g.facts.find((f) => f.name === "minimum_value")?.text).toBe("PYG 250,000");
		expect(answerExtractive(g, "What is the minimum value?").answer).toContain("field minimum_value: PYG 250,000");
		expect(answerExtractive(g, "¿Qué dice la Adenda 01?").answer).toContain("se amplía el plazo de consultas");
	});

	it("carries the contract period as a field and each milestone as a sentence", () => {
		expect(g.facts.find((f) => f.name === "contract_period")?.text).toBe("start 2031-04-01; duration 365 days");
		expect(answerExtractive(g, "¿Cuándo comienza el contrato?").answer).toContain("field contract_period: start 2031-04-01");
		expect(answerExtractive(g, "When is the anticipated contract end date?").answer).toContain("Anticipated contract end date: 2032-03-31");
	});

	it("quotes a classification's label as the source published it", () => {
		expect(g.passages.some((p) => p.text === "Classification: Computadoras portátiles de uso oficial")).toBe(true);
	});

	it("answers from them in the notice's language and in English", () => {
		expect(answerExtractive(g, "¿Cómo se presentan las ofertas?").answer).toContain("sobre cerrado");
		expect(answerExtractive(g, "Until when can questions be asked?").answer).toContain("2031-01-20 10:00");
	});
});
