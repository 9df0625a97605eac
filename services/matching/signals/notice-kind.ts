import type { PreparedNotice, Sentence } from "./text.ts";

// What kind of notice this is, as far as the other rules care: a market-research notice (sources
// sought, request for information) states no binding requirement, and a notice of intent to award
// without competition (sole source, direct award) restricts who may be awarded.

export interface NoticeKind {
	marketResearch: boolean;
	marketResearchEvidence: string | null;
	/** A sole-source / non-competitive award is the notice's subject (title, eligibility text or lead sentences). */
	soleSourceNotice: boolean;
	/** Any non-negated sole-source statement anywhere in the notice. */
	soleSourceMention: boolean;
	soleSourceEvidence: string | null;
}

const MARKET_RESEARCH_TITLE = [
	/\bsources? sought\b/,
	/\brequest for information\b/,
	/\brfi\b/,
	/\bmarket (research|survey|sounding)\b/,
	/\bprior information notice\b/,
	/\b(request for )?expressions? of interest\b/,
	/\bpreliminary market consultation\b/,
	/\bearly market engagement\b/,
];

const MARKET_RESEARCH_TEXT = [
	/\bthis is a sources? sought\b/,
	/\bsources? sought (notice|synopsis|announcement)\b/,
	/\bthis (notice )?is a request for information\b/,
	/\b(is|are) (conducting|performing) market research\b/,
	/\bfor (market research|planning|informational|information) purposes only\b/,
	/\bthis is not a (solicitation|request for (proposals?|quot\w*|bids?|tenders?))\b/,
	/\bno (contract|award) will be (made|awarded|issued) (from|on the basis of|as a result of) this\b/,
];

// "sole source", "sole-source", but not "not a sole source" / "no sole source".
const SOLE_SOURCE = [
	/(?<!\bnot (?:a |be )?|\bno )\bsole[- ]source(d)?\b/,
	/\bsingle[- ]source (award|procurement|acquisition|basis|justification|contract|purchase)\b/,
	/\bonly one responsible source\b/,
	/\bintends? to (negotiate and )?(award|issue|place)[^.;]{0,100}\bwithout (full and open )?competition\b/,
	/\bnon-?competitive(ly)? (award|procurement|acquisition|basis|purchase|contract)\b/,
	/\bnegotiated procedure without (prior )?(publication|a call for competition|competition)\b/,
	/\b(intends?|intention|intent) to (make a )?direct award\b/,
	/\bdirect award (procedure|justification|notice)\b/,
	/\bnotice of intent to (award|contract|negotiate) (a |on a )?(sole|single)\b/,
];

// In the title or lead sentences, the award itself is non-competitive (not a mere mention of a
// justification, e.g. a brand-name justification on a set-aside).
const SOLE_SOURCE_NOTICE = [
	/\b(intends?|intent|intention|plans?|proposes?) to [^.;]{0,80}\b(sole|single)[- ]source\b/,
	/\b(sole|single)[- ]source (basis|award|contract|order|purchase|procurement|acquisition|negotiation)s? (to|with)\b/,
	/\bon a (sole|single)[- ]source basis\b/,
	/\bsole[- ]source to\b/,
	/\bonly one responsible source\b/,
	/\bintends? to (negotiate and )?(award|issue|place)[^.;]{0,100}\bwithout (full and open )?competition\b/,
	/\bnon-?competitive(ly)? (award|procurement|acquisition|basis|purchase|contract)\b/,
	/\bnegotiated procedure without (prior )?(publication|a call for competition|competition)\b/,
	/\b(intends?|intention|intent) to (make a )?direct award\b/,
	/\bnotice of intent to (award|contract|negotiate) (a |on a )?(sole|single)\b/,
];
const JUSTIFICATION = /\bjustification\b|\bj&a\b/;
const BRAND_NAME = /\bbrand[- ]name\b/;

function matchAny(s: string, patterns: readonly RegExp[]): RegExpExecArray | null {
	for (const p of patterns) {
		const m = p.exec(s);
		if (m) return m;
	}
	return null;
}

function lead(sentences: readonly Sentence[]): Sentence[] {
	const out: Sentence[] = [];
	let description = 0;
	for (const s of sentences) {
		if (s.part === "title" || s.part === "set_aside") out.push(s);
		else if (s.part === "description" && description < 3) {
			out.push(s);
			description++;
		}
	}
	return out;
}

export function noticeKind(n: PreparedNotice): NoticeKind {
	let marketResearchEvidence: string | null = null;
	const t = matchAny(n.titleLower, MARKET_RESEARCH_TITLE);
	if (t) marketResearchEvidence = `title: ${t[0]}`;
	else {
		for (const s of n.sentences) {
			if (s.part !== "description" && s.part !== "set_aside") continue;
			const m = matchAny(s.lower, MARKET_RESEARCH_TEXT);
			if (m) {
				marketResearchEvidence = s.text;
				break;
			}
		}
	}

	let soleSourceEvidence: string | null = null;
	let soleSourceNotice = false;
	for (const s of lead(n.sentences)) {
		if (matchAny(s.lower, s.part === "title" ? SOLE_SOURCE : SOLE_SOURCE_NOTICE)) {
			soleSourceNotice = true;
			soleSourceEvidence = s.text;
			break;
		}
	}
	let soleSourceMention = soleSourceNotice;
	if (!soleSourceMention) {
		const brandName = BRAND_NAME.test(n.all);
		for (const s of n.sentences) {
			// "A brand-name / sole-source justification is attached": about the product, not the bidders.
			if (brandName && JUSTIFICATION.test(s.lower)) continue;
			if (matchAny(s.lower, SOLE_SOURCE)) {
				soleSourceMention = true;
				soleSourceEvidence = s.text;
				break;
			}
		}
	}
	// A notice of intent to sole source often says "this is not a request for quotations": that is
	// not market research.
	const marketResearch = marketResearchEvidence !== null && !soleSourceNotice;
	return {
		marketResearch,
		marketResearchEvidence: marketResearch ? marketResearchEvidence : null,
		soleSourceNotice,
		soleSourceMention,
		soleSourceEvidence,
	};
}
