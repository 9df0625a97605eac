// Why: Romanian plurals and cases the stemmer leaves apart from the singular ("măști" / "masca") must still find the
// notice's word, without tying a word to an unrelated one or reaching into languages whose stemmer joins them already.
import { describe, expect, it } from "vitest";
import { buildGrounding } from "../../../services/ask/context.ts";
import { answerExtractive } from "../../../services/ask/extractive.ts";
import { otherInflections } from "../../../services/ask/inflection.ts";
import { stemOf } from "../../../shared/text/index.ts";

const ro = (w: string) => stemOf(w, "ro");
const vocabularyOf = (...words: string[]) => new Set(words.map(ro));

describe("otherInflections", () => {
	it("brings a Romanian plural to the singular the notice writes, and back", () => {
		const pairs = [
			["măști", "masca"],
			["fețe", "față"],
			["benzi", "bandă"],
			["țevi", "țeavă"],
			["porți", "poartă"],
			["garduri", "gard"],
			["căști", "cască"],
		];
		for (const [plural, singular] of pairs) {
			expect(ro(plural!)).not.toBe(ro(singular!));
			expect(otherInflections(ro(plural!), "ro", vocabularyOf(singular!, "oxigen"))).toEqual([ro(singular!)]);
			expect(otherInflections(ro(singular!), "ro", vocabularyOf(plural!, "oxigen"))).toEqual([ro(plural!)]);
		}
	});

	it("ties no unrelated word, and reads only languages it has rules for", () => {
		expect(otherInflections(ro("măști"), "ro", vocabularyOf("mănuși", "sonde", "oxigen", "masă"))).toEqual([]);
		expect(otherInflections("mast", "en", new Set(["masc"]))).toEqual([]);
		expect(otherInflections(ro("masca"), "ro", vocabularyOf("masca"))).toEqual([]);
	});

	it("answers a count asked in the plural from an item named in the singular", () => {
		const notice = {
			title: "Consumabile medicale",
			description: "Achiziționarea consumabilelor medicale pentru secția de urgență a spitalului raional.",
			details: {
				language: "ro",
				items: [
					{ description: "Masca de oxigen simpla cu tub de 2 m, sterila", quantity: 2500, unit: "Bucată" },
					{ description: "Masca laringiana; marcaj pentru orientarea corecta a mastii", quantity: 750, unit: "Bucată" },
					{ description: "Sonda de aspiratie", quantity: 1200, unit: "Bucată" },
				],
			},
		};
		const { answer } = answerExtractive(
			buildGrounding({ notice, opportunity: null, profile: null }),
			"Câte măști de oxigen se achiziționează?",
		);
		expect(answer).toMatch(/\b2,?500\b/);
		expect(answer).not.toMatch(/\b1,?200\b/);
	});
});
