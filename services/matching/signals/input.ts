// The heuristic signals extractor's input: the minimum any normalized notice can provide
// (an OCDS release, a SAM.gov opportunity, a TED notice...). Everything here is untrusted text
// from a public feed: it is only ever matched against fixed patterns, never interpreted.

export interface SignalsItemInput {
	description: string;
	quantity?: number | null;
	unit?: string | null;
}

export interface SignalsCategoryInput {
	/** UNSPSC, CPV, NAICS, PSC (case-insensitive); other schemes are ignored. */
	scheme: string;
	code: string;
}

/**
 * The procedure as the feed's structured fields state it (opportunities feeds/procedure.ts): the
 * kind in one vocabulary for every feed, whether anyone may tender, and the source's code and words.
 */
export interface SignalsProcedureInput {
	kind?: string | null;
	competition?: string | null;
	code?: string | null;
	text?: string | null;
	/** `agreement` (sets up a framework or DPS) or `call_off` (buys under one). */
	framework?: string | null;
}

export interface SignalsInput {
	title: string;
	description: string;
	items: SignalsItemInput[];
	issuing_body?: string;
	/** Free-text eligibility or set-aside statement, e.g. OCDS tender.eligibilityCriteria or SAM "typeOfSetAsideDescription". */
	set_aside_text?: string | null;
	/** Structured set-aside code, e.g. SAM.gov SBA, SBP, 8A, 8AN, HZC, HZS, SDVOSBC, SDVOSBS, WOSB, WOSBSS, EDWOSB, EDWOSBSS, VSA, VSS, IEE, ISBEE, LAS. */
	set_aside_code?: string | null;
	categories?: SignalsCategoryInput[];
	/** Read before any text for bid_eligibility; null or absent when the feed states no procedure. */
	procedure?: SignalsProcedureInput | null;
	/** The contract nature as the feed codes it (OCDS mainProcurementCategory, eForms contract-nature, SAM.gov's PSC): goods, services or works. */
	procurement_category?: string | null;
}

/** Bounds on the work done per notice, whatever the input size. */
export const LIMITS = {
	titleChars: 1_000,
	descriptionChars: 60_000,
	itemCount: 300,
	itemChars: 1_000,
	setAsideChars: 2_000,
	codeChars: 40,
	categoryCount: 200,
	issuingBodyChars: 500,
} as const;
