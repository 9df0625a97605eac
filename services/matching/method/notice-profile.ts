import { type Code, parseCode } from "./codes.ts";
import { type Concept, labelLanguages, noticeConcepts, noticeLanguage } from "./concepts.ts";
import type { TextLanguage } from "../../../shared/text/index.ts";
import { compactRuns } from "./model-number.ts";
import { RunSet } from "./run-set.ts";
import { type NatureAssessment, assessNature, type ItemNature, titleOpensWithSupply, titleReadsAsService } from "./nature.ts";
import { type NoticeFlags, readFlags } from "./notice-flags.ts";
import { type Quantity, extractQuantities } from "./spec-numbers.ts";
import { GENERIC, STOPWORDS, analyze, isContent, isNumeric, sentences, tokenize } from "./text.ts";
import type { NoticeView } from "./types.ts";

// Everything the method reads from one notice, computed once: its passages (title, each item
// line, each sentence of the description) with their words, model-number runs and figures; its
// codes; the nature of the purchase; and how it buys (flags).

export interface Segment {
	kind: "title" | "item" | "description";
	text: string;
	bag: Set<string>;
	/** Stemmed tokens in order (for phrases). */
	seq: string[];
	/**
	 * The passage's own distinctive content words, once each (no abbreviation expansions, generic
	 * words, stopwords or figures): what coverage is measured over.
	 */
	words: readonly string[];
	/** Title and item lines: words before "for", "compatible with" ... (what the line is; the rest is what it is for). */
	lead: Set<string> | null;
	quantities: Quantity[];
	/** For item lines: index in notice.items. */
	itemIndex: number | null;
	nature: ItemNature | null;
	/** A countable goods line (quantity in each/units/pieces ...). */
	countable: boolean;
}

export interface NoticeProfile {
	view: NoticeView;
	segments: Segment[];
	/** Every word of the notice. */
	bag: Set<string>;
	/** Compact runs of 1..4 tokens over the whole notice (model numbers in any spelling). */
	runs: RunSet;
	codes: Code[];
	/** The language its text is in (declared by the feed, else detected). */
	language: TextLanguage;
	/** What it buys, as CPV codes (from its codes and from its title and item lines in its language). */
	concepts: Concept[];
	/** Each distinct item line's own readings as CPV concepts (what the notice lists, line by line). */
	lineConcepts: Concept[][];
	nature: NatureAssessment;
	flags: NoticeFlags;
}

const COUNT_UNITS =
	/^(?:each|ea|unit|units|piece|pieces|pcs?|pc|set|sets|kit|kits|pair|pairs|system|systems|device|devices|no|nr|number|item|items)$/i;

/** Where a title or item line turns from what it buys to what that is for ("Cables for patient monitors"). */
export const PURPOSE_CUT = /\s(?:for use with|for use in|for|compatible with|to fit|to suit|fits)\s/i;

function segment(kind: Segment["kind"], text: string, itemIndex: number | null, nature: ItemNature | null, countable: boolean): Segment {
	const a = analyze(text);
	const cut = kind === "description" ? null : PURPOSE_CUT.exec(text);
	const lead = cut ? analyze(text.slice(0, cut.index)).bag : null;
	const words = [...new Set(a.seq.filter((t) => isContent(t) && !GENERIC.has(t) && !STOPWORDS.has(t) && !isNumeric(t) && t.length >= 2))];
	return { kind, text, bag: a.bag, seq: a.seq, words, lead, quantities: extractQuantities(text), itemIndex, nature, countable };
}

/**
 * A passage's compact runs, computed when asked: only the notice's own run set is kept (a
 * passage's runs are read once a model or maker is known to be named somewhere in the notice).
 */
export const segmentRuns = (seg: Pick<Segment, "text">): Set<string> => compactRuns(tokenize(seg.text));

export function buildNoticeProfile(view: NoticeView): NoticeProfile {
	const nature = assessNature(view);
	// A feed's "works" does not undo a title that opens with a supply of goods (a supply and installation filed as works).
	const supplyUnderWorks = view.procurementNature === "construction" && titleOpensWithSupply(view.title);
	if (view.procurementNature && view.procurementNature !== "unknown" && !supplyUnderWorks) nature.nature = view.procurementNature;
	const segments: Segment[] = [segment("title", view.title, null, null, false)];
	view.items.forEach((item, i) => {
		const countable = (item.quantity ?? 0) > 0 && COUNT_UNITS.test((item.unit ?? "").trim());
		segments.push(segment("item", item.description, i, nature.items[i] ?? null, countable));
	});
	for (const s of sentences(view.description)) segments.push(segment("description", s, null, null, false));
	const bag = new Set<string>();
	const allRuns = new Set<string>();
	for (const s of segments) {
		for (const t of s.bag) bag.add(t);
		for (const r of compactRuns(tokenize(s.text))) allRuns.add(r);
	}
	const runs = new RunSet(
		segments.map((s) => s.text),
		allRuns,
	);
	const codes: Code[] = [];
	const seen = new Set<string>();
	const addCode = (scheme: string, code: string) => {
		const c = parseCode(code, scheme);
		if (c && !seen.has(`${c.scheme}:${c.code}`)) {
			seen.add(`${c.scheme}:${c.code}`);
			codes.push(c);
		}
	};
	for (const c of view.categories) addCode(c.scheme, c.code);
	for (const item of view.items) if (item.classification) addCode(item.classification.scheme, item.classification.code);
	const language = noticeLanguage(view);
	const lineConcepts: Concept[][] = [];
	const concepts = noticeConcepts(view, codes, language, lineConcepts);
	// A feed files a rental or a maintenance contract under the goods it concerns; its title says what is bought.
	const titleCodes = concepts.filter((c) => c.source === "title").map((c) => c.code);
	if ((nature.nature === "goods" || nature.nature === "unknown") && titleReadsAsService(view, titleCodes, labelLanguages(language))) {
		nature.nature = "services";
		nature.evidence = `the title reads as a service ("${view.title.slice(0, 60)}")`;
	}
	return { view, segments, bag, runs, codes, language, concepts, lineConcepts, nature, flags: readFlags(view) };
}

const cache = new WeakMap<NoticeView, NoticeProfile>();

/** The profile of a notice view, computed once per view object. */
export function noticeProfile(view: NoticeView): NoticeProfile {
	let p = cache.get(view);
	if (!p) {
		p = buildNoticeProfile(view);
		cache.set(view, p);
	}
	return p;
}
