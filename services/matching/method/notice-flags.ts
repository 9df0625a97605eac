import { type Quantity, extractQuantities } from "./spec-numbers.ts";
import { analyze, sentences } from "./text.ts";
import type { NoticeView } from "./types.ts";

// What a notice says about how it buys, read from its wording: restricted to a brand or open to
// equals, market research rather than a purchase, refurbished goods only, all-or-none award,
// and the sentences that reject kinds of products ("... are not acceptable"). Each reader is a
// short list of phrasings buyers use across jurisdictions; none is tied to a particular buyer.

export interface Exclusion {
	/** The sentence, for the rationale. */
	sentence: string;
	/** Words of what is rejected (the part before "will not be accepted", up to any "without"). */
	bag: Set<string>;
	/** "Pumps without NSF 61 certification are not acceptable": what a product must have to escape the rejection. */
	lacking: Set<string> | null;
	/** "Lamps below 2,000 lumens": the bound, when the rejection is a threshold. */
	below: Quantity | null;
}

export interface NoticeFlags {
	/** Only a named brand may be offered (brand name only, no substitutes, sole source, genuine ...). */
	brandRestricted: string | null;
	/** Equals are invited (or equal, or equivalent, any manufacturer, vendor-neutral). */
	equalsInvited: string | null;
	/** Sources sought / request for information / market research: nothing is bought yet. */
	marketResearch: string | null;
	/** Only refurbished or used goods are wanted. */
	refurbishedOnly: string | null;
	/** One award for every line: a bidder must price all of them. */
	allOrNone: string | null;
	exclusions: Exclusion[];
	/** The leading thing the title asks for ("Water Analyzers" of "Water Analyzers with Printer and Cart"). */
	primaryTitlePhrase: string;
}

const first = (res: RegExp[], text: string): string | null => {
	for (const re of res) {
		const m = re.exec(text);
		if (m) return m[0];
	}
	return null;
};

const BRAND_RESTRICTED = [
	/\bbrand[- ]name[- ]only\b/,
	/\bbrand[- ]specific\b/,
	/\bno (?:substitutes?|substitutions?|equals?)\b/,
	/(?<!\bnot (?:a |be )?|\bno )\bsole[- ]sourced?\b/,
	/\bnotice of intent to (?:award|sole|negotiate|contract)\b/,
	/\bgenuine (?:oem|manufacturer)\b|\bgenuine [a-z]+(?: [a-z]+)? (?:parts|products|optics|optical|transceivers?|cartridges?|toner|consumables|supplies|accessories|batteries)\b/,
	/\bno third[- ]party\b/,
	/\bproducts? of any other manufacturer\b[^.]*\b(?:rejected|not be (?:accepted|considered))/,
	/\bonly (?:the )?(?:oem|original equipment manufacturer)\b/,
	// "Brand name: X", "(Brand Name)", "- Brand Name -", but not "brand name or equal" nor "brand name justification".
	/\bbrand[- ]name\b(?!\s*(?:or|and\/or)\s+(?:an?\s+)?(?:approved\s+)?(?:equal|equivalent))(?!\s+justification)(?!\s+requirement)(?=\s*(?:[:)\-,.;]|$))/m,
];

const EQUALS_INVITED = [
	/\bor (?:an? )?(?:approved )?(?:equal|equivalent)\b/,
	/\bany manufacturer\b/,
	/\bvendor[- ]neutral\b/,
	/\bbrand[- ]name or equal\b/,
	/\bsalient characteristics\b/,
];

const MARKET_RESEARCH_TITLE = [
	/\bsources? sought\b/,
	/\brequest for information\b/,
	/\brfi\b/,
	/\bmarket (?:research|survey|sounding)\b/,
	/\bprior information notice\b/,
	/\bexpressions? of interest\b/,
];
const MARKET_RESEARCH_TEXT = [
	/\bthis is a sources? sought\b/,
	/\bsources? sought (?:notice|synopsis|announcement)\b/,
	/\bthis (?:notice )?is a request for information\b/,
	/\b(?:is|are) (?:conducting|performing) market research\b/,
	/\bmarket research (?:only|notice)\b/,
	/\bfor (?:market research|planning|informational|information) purposes only\b/,
	/\bthis is not a (?:solicitation|request for (?:proposals?|quot\w*|bids?|tenders?))\b/,
	/\bis not a request for (?:proposals?|quot\w*|bids?|tenders?)\b/,
];

const REFURB = /\b(?:refurbished|remanufactured|reconditioned|pre-owned|recertified|renewed|used)\b/;
const NEGATED = /\b(?:not|no|never|unacceptable|prohibited|excluded|rejected)\b|\bmust be new\b/;
const REFURB_ONLY = [
	/\b(?:refurbished|remanufactured|reconditioned|used|pre-owned) (?:equipment|units?|products?|items?|goods)? ?only\b/,
	/\bnew (?:equipment|units?|products?|items?|laptops?|devices?)\b[^.]*\b(?:will not be (?:accepted|considered)|rejected|not acceptable)/,
	/\bnewly manufactured\b[^.]*\b(?:rejected|not be (?:accepted|considered)|not acceptable)/,
];

const ALL_OR_NONE = [
	/\ball[- ]or[- ]none\b/,
	/\bpartial (?:quotes|bids|offers|tenders|quotations) (?:will not|shall not) be (?:accepted|considered)\b/,
	/\ball (?:clins|line items|items|lines) must be (?:priced|quoted|bid|offered)\b/,
	/\bsingle award for all\b/,
];

const REJECTION = new RegExp(
	String.raw`\b(?:(?:will|shall) not be (?:accepted|considered|allowed|permitted)|(?:is|are) not (?:acceptable|permitted|allowed)|` +
		String.raw`(?:is|are) unacceptable|not acceptable|will be rejected|(?:do|does) not meet (?:this|the) requirements?)\b`,
	"i",
);
// Rejections about the bidding process, not about kinds of products.
const PROCESS = new RegExp(
	String.raw`\b(?:quotes?|quotations?|bids?|tenders?|offers?|proposals?|submissions?|responses?|inquiries|questions?|invoices?|` +
		String.raw`variants?|payments?|late|partial|telephone|e-?mail|paper|fax(?:ed)?|offerors?|bidders?|tenderers?|vendors?|suppliers?|` +
		String.raw`concerns?|firms?|substitutions?)\b`,
	"i",
);
const BELOW = /\b(?:below|under|less than|lower than|fewer than|smaller than)\s+/;

function exclusions(notice: NoticeView): Exclusion[] {
	const out: Exclusion[] = [];
	const texts = [notice.title, notice.description, ...notice.items.map((i) => i.description)];
	for (const text of texts)
		for (const s of sentences(text)) {
			const m = REJECTION.exec(s);
			if (!m || m.index === undefined) continue;
			const subject = s.slice(0, m.index);
			if (PROCESS.test(subject) || subject.trim().length < 3) continue;
			const low = subject.toLowerCase();
			const b = BELOW.exec(low);
			const below = b ? (extractQuantities(low.slice(b.index + b[0].length))[0] ?? null) : null;
			// "without X" and "non-X" name what a product must have to escape the rejection.
			const without = /\bwithout\b/i.exec(subject);
			const what = without ? subject.slice(0, without.index) : subject;
			const nonX = [...what.matchAll(/\bnon[- ]([a-z0-9]+)/gi)].map((x) => x[1] ?? "").filter((x) => x.length > 0);
			const lackingText = [without ? subject.slice(without.index + without[0].length) : "", ...nonX].join(" ").trim();
			const lacking = lackingText ? analyze(lackingText).bag : null;
			out.push({ sentence: s.trim(), bag: analyze(what).bag, lacking, below });
		}
	return out;
}

const LABEL_CHUNK =
	/\b(?:brand[- ]name|or equal|or equivalent|sources? sought|notice of intent|set[- ]aside|solicitation|rfq|rfp|itb|amendment|request for)\b/i;

/** The title's leading request: label chunks dropped ("Brand Name Only - ..."), then cut before "with", "and", "for" ... */
function primaryTitlePhrase(title: string): string {
	const chunks = title.split(/\s+[-–—|:]\s+|:\s+/).filter((c) => c.trim().length > 0);
	const chosen = chunks.find((c) => !LABEL_CHUNK.test(c) || c.split(/\s+/).length > 6) ?? chunks[0] ?? title;
	return chosen.split(/\s+(?:with|and|for|including|plus|to|at|in)\s+|,|;|\(/i)[0]?.trim() ?? chosen;
}

export function readFlags(notice: NoticeView): NoticeFlags {
	const title = notice.title.toLowerCase();
	const itemsText = notice.items.map((i) => i.description.toLowerCase());
	const all = [title, notice.description.toLowerCase(), ...itemsText].join("\n");

	let refurbishedOnly: string | null = null;
	const refurbTitle = REFURB.test(title.replace(/\bused (?:for|by|in|on|to|with|at)\b/g, "")) && !NEGATED.test(title);
	const refurbItems = itemsText.filter((t) => REFURB.test(t) && !NEGATED.test(t)).length;
	const explicit = first(REFURB_ONLY, all);
	if (explicit) refurbishedOnly = explicit;
	else if (refurbTitle && /\b(?:refurbished|remanufactured|reconditioned|pre-owned|recertified)\b/.test(title))
		refurbishedOnly = `title: ${notice.title}`;
	else if (itemsText.length > 0 && refurbItems * 2 >= itemsText.length + 1)
		refurbishedOnly = `${refurbItems} of ${itemsText.length} item lines ask for refurbished goods`;

	return {
		brandRestricted: first(BRAND_RESTRICTED, all),
		equalsInvited: first(EQUALS_INVITED, all),
		marketResearch: first(MARKET_RESEARCH_TITLE, title) ?? first(MARKET_RESEARCH_TEXT, all),
		refurbishedOnly,
		allOrNone: first(ALL_OR_NONE, all),
		exclusions: exclusions(notice),
		primaryTitlePhrase: primaryTitlePhrase(notice.title),
	};
}
