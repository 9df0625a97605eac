import { describe, expect, it } from "vitest";
import { analyzeQuestion, hasAnswerType } from "../../../services/ask/intents.ts";

const intents = (q: string) => analyzeQuestion(q).intents.map((i) => i.name);

describe("analyzeQuestion", () => {
	it("recognizes the general kinds of questions about a solicitation", () => {
		expect(intents("When are offers due?")).toEqual(["deadline"]);
		expect(intents("How many laptops will be bought?")).toEqual(["quantity"]);
		expect(intents("Where must the items be delivered?")).toEqual(["place"]);
		expect(intents("Is this set aside for small business?")).toContain("set_aside");
		expect(intents("What warranty is required?")).toEqual(["warranty"]);
		expect(intents("Who should questions be sent to?")).toEqual(["contact"]);
		expect(intents("Through which portal must bids be submitted?")).toContain("submission");
		expect(intents("Will they accept an equivalent product?")).toContain("or_equal");
		expect(intents("What weight does price carry in the evaluation?")).toEqual(["evaluation"]);
		expect(intents("What is the estimated value?")).toEqual(["value"]);
		expect(intents("Within how many days must delivery happen?")).toContain("delivery_time");
		expect(intents("Who is the incumbent contractor?")).toContain("status_quo");
		expect(intents("Is there a pre-bid conference?")).toEqual(["site_visit"]);
	});

	it("separates the words that frame a question from those naming its subject", () => {
		const q = analyzeQuestion("How many student microscopes does the college intend to buy?");
		expect(q.terms.map((t) => t.term)).toEqual(["student", "microscop", "colleg"]);
		expect(q.counted).toEqual(["student", "microscop"]);
	});

	it("borrows the topic of the latest earlier question for a follow-up, at half weight", () => {
		const q = analyzeQuestion("And when is it due?", ["ok", "What warranty is required?", "thanks"]);
		expect(q.terms.find((t) => t.term === "WARRANTY")).toEqual({ term: "WARRANTY", weight: 0.5, own: false });
	});
});

describe("hasAnswerType", () => {
	it("counts only numbers attached to what is counted", () => {
		const q = analyzeQuestion("How many home care providers operate in the borough?");
		expect(hasAnswerType("count", "Insurance of at least GBP 10 million is required.", q, "")).toBe(false);
		const cameras = analyzeQuestion("How many cameras are required?");
		expect(hasAnswerType("count", "Supply of 120 body-worn cameras with mounts.", cameras, "")).toBe(true);
		expect(hasAnswerType("count", "Item 1: Body-worn camera; quantity 120 each", cameras, "")).toBe(true);
		expect(hasAnswerType("count", "Item 1: Docking station; quantity 16 each", cameras, "")).toBe(false);
	});

	it("finds model numbers and makers' names, not clause numbers, places or the buyer", () => {
		const model = analyzeQuestion("Which model is required?");
		expect(hasAnswerType("model", "Brand name: NanoDrop One (ND-ONE-W), quantity three (3).", model, "")).toBe(true);
		expect(hasAnswerType("model", "FAR 52.212-1 applies.", model, "")).toBe(false);
		const maker = analyzeQuestion("Which manufacturer makes the firewalls?");
		expect(hasAnswerType("entity", "Brand name only: Palo Alto Networks.", maker, "")).toBe(true);
		expect(hasAnswerType("entity", "Supply to the office in downtown Denver, Colorado.", maker, "")).toBe(false);
		expect(hasAnswerType("entity", "Installed by the City of Lakeview staff.", maker, "City of Lakeview")).toBe(false);
	});
});
