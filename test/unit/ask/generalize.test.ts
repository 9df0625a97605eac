// Why: issue 18's seventh round made whole kinds of question robust rather than single wordings (tune-m): the question word
// types the answer when the topic's own words find nothing, acronyms meet the words they abbreviate, a period's two ends
// answer "how long", a yes/no question is answered by the sentence naming its topic, "a single lot" counts lots, and a
// figure in a sentence that names nothing the question asks about is not taken for the answer. Notices written for this test.
import { describe, expect, it } from "vitest";
import { type AskNotice, buildGrounding } from "../../../services/ask/context.ts";
import { answerExtractive, NOT_STATED } from "../../../services/ask/extractive.ts";
import { bridge } from "../../../services/ask/bridge.ts";
import { acronymsOf } from "../../../services/ask/retrieve.ts";
import { datesIn, kindsIn } from "../../../services/ask/values.ts";

const ask = (notice: AskNotice, question: string) => answerExtractive(buildGrounding({ notice }), question).answer;

describe("acronymsOf", () => {
	it("spells the initials of capitalized runs and letters joined by dots", () => {
		expect(acronymsOf("Classification: Uninterruptible Power Supply (U.P.S.) - Three Phase")).toContain("ups");
		expect(acronymsOf("North West SEND Flexible Purchasing System")).toContain("fps");
	});
	it("reads no run in a text in capitals throughout, nor in two words", () => {
		expect(acronymsOf("UNINTERRUPTIBLE POWER SUPPLY")).toEqual([]);
		expect(acronymsOf("Power Supply")).toEqual([]);
	});
});

describe("bridge", () => {
	it("carries a question word into a general word of the notice's language only where that word names most of its codes", () => {
		// "computer" codes are often computer services: "servicios" is no translation of "computer".
		expect(bridge("comput", "en", "es", new Set(["servici", "informat"]))).not.toContain("servici");
		expect(bridge("comput", "en", "es", new Set(["servici", "informat"]))).toContain("informat");
	});
});

describe("kinds of value", () => {
	it("reads a function word after a number as no unit, a unit glued to its number as one", () => {
		expect([...kindsIn("Learners aged up to 25 in Independent schools.", "en")]).not.toContain("measure");
		expect([...kindsIn("Three Phase 10KVA and Above", "en")]).toContain("measure");
	});
	it("counts the dates a text writes, month names with a two-digit year too", () => {
		expect(datesIn("byggeledelse fra august-24 til overlevering i mars-29", "no")).toBe(2);
		expect(datesIn("from 2027-01-05 to 2028-01-04", "en")).toBe(2);
		expect(datesIn("within 8 weeks of award", "en")).toBe(0);
		expect(datesIn("Tid: 6. november 2023, kl. 10.00-12.00.", "no")).toBe(1);
	});
	it("reads no function word a unit's name carries as a unit of time ('21 de zile')", () => {
		expect([...kindsIn("2 puncte de fixare, toată lungimea 100 mm", "ro")]).not.toContain("duration");
		expect([...kindsIn("termen de 30 de zile", "ro")]).toContain("duration");
	});
});

describe("answerExtractive, kinds of question", () => {
	const framework = {
		title: "Grounds Maintenance Services",
		description: [
			"The council is renewing its current grounds maintenance framework contract which expires in June 2029.",
			"Works must ensure compliance with the BS 7370 code of practice.",
			"Site supervision is needed for the whole construction period from August 2026 to handover in March 2029.",
		].join("\n"),
	};

	it("answers by the question word's kind of value when the topic's own words find nothing", () => {
		expect(ask(framework, "When does the current grounds maintenance framework expire?")).toContain("June 2029");
	});

	it("answers a yes/no question by the sentence naming its topic, whatever other words the question uses", () => {
		expect(ask(framework, "Is compliance with a particular standard required?")).toContain("BS 7370");
	});

	it("answers how long by a period's two ends", () => {
		expect(ask(framework, "How long does the site supervision last?")).toContain("from August 2026 to handover in March 2029");
	});

	it("matches an acronym in the question to the words it abbreviates, and a capacity to a measure", () => {
		const ups = {
			title: "Uninterruptible Power Supply",
			description: "Supply of one Uninterruptible Power Supply, Three Phase 10KVA and Above.",
		};
		expect(ask(ups, "What capacity must the UPS have?")).toContain("10KVA");
	});

	it("counts the lots however they are named: parts the contract is split into, sub-contracts", () => {
		const notice = {
			title: "Road resurfacing",
			details: {
				items: [
					{ description: "Resurfacing, north district", lot: "LOT-1" },
					{ description: "Resurfacing, south district", lot: "LOT-2" },
				],
			},
		};
		expect(ask(notice, "Into how many parts is the contract split?")).toContain("field lots");
		expect(ask(notice, "How many sub-contracts are there?")).toContain("field lots");
		expect(ask(notice, "How many spare parts are needed?")).not.toContain("field lots");
	});

	it("counts a single lot", () => {
		const concessione = { title: "Concessione del servizio mensa", description: "La concessione è costituita da un unico lotto." };
		expect(ask(concessione, "In quanti lotti è divisa la concessione?")).toContain("unico lotto");
	});

	it("reads 'get in touch' as asking for the contact", () => {
		const notice = { title: "Medical consumables", details: { contacts: [{ name: "Mr Colin Reid", email: "c.reid@uni.example.ac.uk" }] } };
		const answer = ask(notice, "Who should I get in touch with about this tender?");
		expect(answer.startsWith(NOT_STATED)).toBe(false);
		expect(answer).toContain("c.reid@uni.example.ac.uk");
	});

	it("answers from a field in the source's own words that names what is asked, not by an item's name for a count", () => {
		const notice = {
			title: "Custom Wood Furniture (EP000-000000/A)",
			details: {
				procedure: { text: "If 3+ bids offer Canadian goods/services other bids will not be considered" },
				items: [{ description: "Custom wood furniture suites" }],
			},
		};
		expect(ask(notice, "Is there any rule about bids offering Canadian goods or services?")).toContain("field procedure");
		expect(ask(notice, "How many furniture suites are being bought?").startsWith(NOT_STATED)).toBe(true);
	});

	it("answers a yes/no question naming its topic twice over only by a sentence naming it twice over", () => {
		const notice = {
			title: "Unified communications",
			description: "The solution must support hot-desking and options on home-working.\nThe contract runs for 3 years.",
		};
		expect(ask(notice, "Is there an option to extend?").startsWith(NOT_STATED)).toBe(true);
		const extendable = { ...notice, description: `${notice.description}\nThere is an option to extend the contract by one year.` };
		expect(ask(extendable, "Is there an option to extend?")).toContain("option to extend the contract by one year");
	});

	it("answers no yes/no question about what the notice covers by a sentence naming only 'included'", () => {
		const notice = {
			title: "Laptops",
			description: "Additional information is included in this notice.\nUsed products will not be accepted.",
		};
		expect(ask(notice, "Is installation included?").startsWith(NOT_STATED)).toBe(true);
	});

	it("reads when + delivery as the delivery time, and support after delivery as the warranty's topic", () => {
		const notice = {
			title: "Library shelving",
			description: "Delivery is required by 30 June 2027.\nShelving must be delivered to the Mill Lane depot, Ashby.",
		};
		expect(ask(notice, "When must delivery take place?")).toContain("30 June 2027");
		expect(ask(notice, "When must delivery take place?")).not.toContain("Mill Lane");
		expect(ask(notice, "What support is required after delivery?").startsWith(NOT_STATED)).toBe(true);
	});

	it("answers how long the contract is by a time, not by a length measuring the goods", () => {
		const notice = { title: "Surgical instruments", description: "Forceps, total length 100 mm, 3.9 inches, stainless steel." };
		expect(ask(notice, "How long is the contract?").startsWith(NOT_STATED)).toBe(true);
	});

	it("does not take a figure of a sentence naming nothing asked about for the answer", () => {
		const fps = {
			title: "North West Flexible Purchasing System",
			description: [
				"The services covered in this Flexible Purchasing System are for young people aged up to 25 in independent schools.",
				"Phase 2 will include placements for learners 16 – 25 years who have a care plan.",
			].join("\n"),
		};
		expect(ask(fps, "How long will the flexible purchasing system run?").startsWith(NOT_STATED)).toBe(true);
	});
});
