// Every weight of the stage-2 score in one place, so the README can quote them and a reviewer
// can see the whole scale at once. Points add up (capped at 100); the factors then scale the
// sum down for notices that do not buy the product whatever the words say.

export const POINTS = {
	/** The notice names the product's model, in any spelling. */
	modelExact: 42,
	/** The model without a regional/tier suffix ("QB204TS" for "QB204TS/00"). */
	modelBase: 36,
	/** The product line of the name ("Stratus 7400", "QX410"). */
	productLine: 30,
	/** The first segment of the model ("NX7400" of "NX7400-48P-A"). */
	modelFamily: 20,
	/** A short or all-digit key found without the maker or the product type nearby counts only this share. */
	weakKeyShare: 0.3,
	/** The notice names the product's maker (only counted with other evidence of the same product). */
	oemMention: 8,
	/**
	 * Product-type phrase overlap at full strength (head noun, the word before it, and all of the
	 * passage's distinctive words supported by the product). A goods notice for exactly this kind
	 * of product, any brand, is a relevant opportunity, so full strength alone nears the digest line.
	 */
	typeMax: 62,
	/** Strength parts: the head noun is there ... */
	typeHead: 0.6,
	/** ... with the word before it ... */
	typeModifier: 0.15,
	/** ... and this share for the passage's distinctive words the product's description also has. */
	typeCoverage: 0.25,
	/** A line that names the product kind only as what it is for ("batteries for radios") counts this share. */
	accessoryShare: 0.5,
	/** The passage qualifies the type otherwise than the product does ("walk-in" freezer for an ultra-low one, "ventilator" batteries for VRLA ones). */
	otherQualifierShare: 0.7,
	/** Description sentences count a little less than the title and item lines. */
	descriptionWeight: 0.8,
	/** Passage-level coverage below this reads as "a specialised variant of the type". */
	lowCoverageBelow: 0.34,
	lowCoverage: -12,
	/** The product's figures meet the notice's (lumens, VA, speeds, volumes, temperatures ...). */
	specFit: 5,
	/** The product's figures fall short of the notice's requirement. */
	specShortfall: -25,
	/** The notice asks for an attribute value the product states the opposite of (indoor/outdoor, single-/multimode ...). */
	attributeConflict: -20,
	/** The product's and the notice's CPV concepts agree at full strength (same category, both from codes). */
	conceptMax: 72,
	/** ... when the notice is not in English (the catalog's language): no word of it can overlap the product's. */
	conceptMaxOtherLanguage: 82,
	/** Codes of one scheme that agree, in an English notice where no word reads as the product's type, count this share of a concept agreement. */
	codeKindEnglishShare: 0.8,
	/** The matched passage is a countable goods line ("12 each"). */
	goodsLine: 4,
	/** Equals are invited and the product is of the requested kind. */
	equalsInvited: 4,
	/** Catalog (not carried) products count a little less. */
	catalogOnly: -4,
} as const;

export const FACTORS = {
	/** The notice buys services (maintenance, training, disposal ...), not goods. */
	services: 0.3,
	/** The notice is construction work; goods appear only as part of the works. */
	construction: 0.25,
	/** Mixed notice, and the product only matches a service or construction line. */
	serviceLine: 0.4,
	/** Brand name only, and the brand is not the product's maker. */
	brandOnlyOther: 0.35,
	/** ... softened when the notice also invites equals for some lines. */
	brandOnlyOtherWithEquals: 0.7,
	/** Sources sought / market research: nothing is being bought yet. */
	marketResearch: 0.55,
	/** Refurbished goods only, and the product is new. */
	refurbishedOnly: 0.35,
	/** The notice rejects products like this one ("tabletop mixers ... are not acceptable"). */
	excludedKind: 0.45,
	/** The notice names the product's head noun qualified by other goods ("ventilator batteries"): a variant for those goods. */
	otherGoodsQualifier: 0.55,
	/**
	 * The passage qualifies the kind otherwise than the product ("walk-in" freezer) and the notice's own
	 * classification files it under another group of goods (refrigeration equipment): another kind that
	 * shares a head noun with the product.
	 */
	otherKindVariant: 0.55,
	/** The notice buys parts of the product's kind ("chair components", a parts code), not the kind. */
	partsOnly: 0.45,
	/** A broad code holds the product, and the notice's own words name another kind under it. */
	wordsNameOtherKind: 0.6,
	/** The kinds agree only through a code the publisher filed beside the purchase (alone in its division, unread in the words). */
	strayCode: 0.6,
	/** The kinds agree only through the notice's code and one word of the product, in a division the company does not trade in. */
	otherTrade: 0.75,
	/** The notice lists its goods line by line under a broad code, and no line names the product's kind. */
	unlistedKind: 0.6,
	/** Company level: all-or-none award and the company cannot supply the leading item; a company that cannot bid alone stays out of the digest. */
	allOrNoneUncovered: 0.5,
} as const;

/** Company level: each further notice line that another of the company's products matches. */
export const BREADTH = { perLine: 3, max: 9, minPairScore: 50 } as const;

/**
 * Opportunities at or above this score go into the digest by default (a company's
 * digest_min_score overrides it). 60 is where the stage-2 scale moves from "a product of the
 * requested kind, with most of the notice's wording supported" to weaker evidence.
 */
export const DIGEST_MIN_SCORE = 60;
