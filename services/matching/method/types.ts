// The matching method's inputs and outputs. Pure data: no service, store or queue types here,
// so the method can be evaluated offline and wired into the matching service later unchanged.

/** What the catalog's indexer exposes per product (catalog text is untrusted data). */
export interface ProductView {
	tenantId: string;
	productId: string;
	partnerId: string;
	oemName: string;
	partnerAuthorized: boolean;
	name: string;
	model: string | null;
	description: string | null;
	/** Bare codes are read by shape (8 digits UNSPSC, 8+check digit CPV, 6 digits NAICS, 4 chars PSC); "SCHEME:code" is explicit. */
	commodityCodes: string[];
	/** A bounded subset, in stored order. */
	specs: { key: string; value: string }[];
	repStatus: "carried" | "catalog";
	status: "active" | "discontinued";
}

export type ProcurementNature = "goods" | "services" | "construction" | "mixed" | "unknown";

export interface NoticeClassification {
	scheme: string;
	code: string;
}

export interface NoticeItemView {
	description: string;
	quantity?: number | null;
	unit?: string | null;
	classification?: NoticeClassification | null;
}

export interface NoticeView {
	noticeId: string;
	title: string;
	description: string;
	items: NoticeItemView[];
	categories: { scheme: "UNSPSC" | "CPV" | "NAICS" | "PSC" | (string & {}); code: string }[];
	issuingBody: string;
	/** The notice's language as its feed states it (ISO 639), when it does; otherwise it is detected from the text. */
	language?: string | null;
	/** From the signals extractor when available; the method falls back to its own small heuristic. */
	procurementNature?: ProcurementNature;
	/**
	 * A restricted procedure that published a call for competition (restricted or negotiated with
	 * a call, competitive dialogue, innovation partnership): any supplier may ask to take part, so
	 * it does not bar a company the way a direct award or a sole source does.
	 */
	openCall?: boolean;
	/**
	 * The feed publishes it at the planning stage (an OCDS planning release, an eForms prior
	 * information notice that is not a call for competition): nothing is tendered yet.
	 */
	planningOnly?: boolean;
}

/** One feature that moved a score, for a person to read. */
export interface RationaleEntry {
	feature: string;
	points: number;
	detail: string;
}

export interface PairScore {
	productId: string;
	/** 0..100 */
	score: number;
	/** Largest effect first. */
	rationale: RationaleEntry[];
	matchedTerms: string[];
	matchedCodes: string[];
	/** Set when the product may not count at all (discontinued, partner de-authorized). */
	excluded: string | null;
	/** Indexes of the notice items this product matched (for company-level coverage). */
	matchedItems: number[];
	/** True when the match rests on the product's own identity (model, product line). */
	namedMatch: boolean;
	/** When the notice buys a kind that includes the product: the notice's CPV concept and the product's under it. */
	containedKind?: { notice: string; product: string } | null;
}

export interface BestProduct {
	productId: string;
	name: string;
	model: string | null;
	oem: string;
	matchedTerms: string[];
	matchedCodes: string[];
}

export interface TenantNoticeScore {
	/** 0..100 */
	score: number;
	bestProduct: BestProduct | null;
	/** Largest effect first. */
	rationale: RationaleEntry[];
}
