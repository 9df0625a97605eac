import { type Code, parseCode } from "./codes.ts";
import { type CatalogContext, catalogOf, noting } from "./catalog-context.ts";
import { type Concept, ownKinds, productConcepts } from "./concepts.ts";
import { type ModelKeys, compactKey, keyStrength, modelKeys } from "./model-number.ts";
import { oemAliases, oemWords } from "./oem.ts";
import { type Quantity, extractQuantities } from "./spec-numbers.ts";
import { GENERIC, STOPWORDS, analyze, hasDigit, normalizeText, rawTokens, stem, stemSet } from "./text.ts";
import type { ProductView } from "./types.ts";
import { abbreviationsEndingWith } from "./vocabulary.ts";
import { headedDivisions, isClassNoun, labelWordWeight } from "../../../shared/taxonomy/label-index.ts";

// Everything the method reads from one product, computed once: the names its maker goes by,
// its model keys and product-line identifiers, the kind of thing it is (head noun of its name,
// e.g. "switch", with the word before it, e.g. "poe"), its words, figures and codes.

export interface ProductProfile {
	view: ProductView;
	/** Why the product may not count, or null when it may. */
	excluded: string | null;
	oemAliases: string[];
	oemWords: Set<string>;
	model: ModelKeys;
	/** Compact keys of the product line named in the product name ("stratus7400", "qx410"). */
	lineIds: string[];
	/** What kind of thing it is: head nouns of its name (and of its description, when the name agrees), with abbreviations. */
	heads: string[];
	/** The word before the head in the name ("poe" of "PoE+ Switch"), if any. */
	modifier: string | null;
	/** The modifier and the head written as one word ("thermalcycl" of "thermal cycler"), as a notice may spell the type. */
	compoundHead: string | null;
	/** Words of the name that say what the product is (no maker, model or figures). */
	nameWords: string[];
	/** Words of name, description and specs (stemmed, with compounds and abbreviations). */
	textBag: Set<string>;
	/** The same words in order (for phrases). */
	textSeq: string[];
	quantities: Quantity[];
	codes: Code[];
	/** What kind of goods it is, as CPV codes (from its codes and its name; where they leave it open, its catalog's other products). */
	concepts: Concept[];
	/** The CPV groups it is surely read into by itself, for its catalog's tally (catalog-context.ts). */
	ownKinds: string[];
	/** A subscription, licence, support or other service item rather than goods. */
	serviceLike: boolean;
	refurbished: boolean;
}

// Words that end a product name without saying what the product is ("Rack-Mount", "LCD", "Bundle").
const NON_HEAD = stemSet(
	"mount mounted rack tower lcd led online edition version advantage essential essentials bundle platform series kit touch smart fully semi plus pro max mini ready based internal external",
);
const SERVICE_HEADS = stemSet("subscription license licence support warranty service training maintenance renewal contract");
// Short tokens with a digit that are still words ("CO2", "O2").
const WORDLIKE = /^[a-z]{1,2}\d$/;
const UNITLIKE =
	/^\d+(\.\d+)?(v|va|kva|w|kw|mm|cm|m|ft|in|g|kg|mg|ml|l|ul|u|gb|tb|mb|mhz|ghz|hz|nm|dpi|ips|lm|rpm|c|mp|k|x|gbps|mbps|gbe|h|hr|hrs|yr|yrs|y|port|ports|ch|ah|mah|bit|p|a|d|th|st|nd|rd)$/;

function firstClause(text: string, splitVerbs: boolean): string {
	const cut = text.split(/,|;|\(|\s[-–]\s|\.\s|\.$|\bwith\b|\bfor\b|\bthat\b|\bwhich\b|\bincluding\b/i)[0] ?? text;
	if (!splitVerbs) return cut;
	// "Plug-in card providing ...", "Compact mixer handling ...": the clause ends at the verb.
	const words = cut.split(/\s+/);
	const verb = words.findIndex(
		(w, i) => i > 0 && /^[a-z]{3,}ing$/i.test(w) && !/^(?:string|ring|building|ceiling|housing|mounting|ending)$/i.test(w),
	);
	return verb > 0 ? words.slice(0, verb).join(" ") : cut;
}

/** Content words of a clause that can say what a product is. */
function typeWords(clause: string, oem: Set<string>, modelTokens: Set<string>): string[] {
	return rawTokens(normalizeText(clause))
		.map((t) => t.text)
		.filter((t) => !oem.has(t) && !modelTokens.has(t))
		.map(stem)
		.filter(
			(t) =>
				(WORDLIKE.test(t) || !hasDigit(t)) &&
				(t.length >= 3 || ["lc", "gc", "ap", "pc"].includes(t)) &&
				!STOPWORDS.has(t) &&
				!GENERIC.has(t),
		);
}

/** Product-line identifiers in a name: "4410AX", "QX410", and bare numbers with the word before them ("Stratus 7400", "FIELDBOOK 20"). */
export function lineIdentifiers(name: string, oem: Set<string>): string[] {
	const out = new Set<string>();
	const clause = name.split(/,|;|\(|\bwith\b|\bfor\b/i)[0] ?? name;
	const norm = normalizeText(clause);
	const raw = rawTokens(norm);
	const toks = raw.map((t) => t.text);
	toks.forEach((t, i) => {
		const prev = toks[i - 1];
		const prevWord = prev !== undefined && /^[a-z]{3,}$/.test(prev) && !STOPWORDS.has(prev) ? prev : null;
		if (/^\d+$/.test(t)) {
			if (t.length >= 2 && prevWord) out.add(prevWord + t);
			return;
		}
		if (!/[a-z]/.test(t) || !/\d/.test(t) || UNITLIKE.test(t) || t.includes(".")) return;
		if (!WORDLIKE.test(t) && keyStrength(t) !== "none" && t.length >= 4 && (t.match(/\d/g) ?? []).length >= 2) out.add(t);
		else if (prevWord && !oem.has(t)) {
			// "NetGuard 60F", "FIELDBOOK G2": a short code joined to a product-line word, written as a brand is
			// (CamelCase or capitals), not to an ordinary word ("Multi-Band P25").
			const original = new RegExp(`\\b${prevWord}\\b`, "i").exec(clause.normalize("NFKC"))?.[0] ?? "";
			if (/[A-Z].*[A-Z]/.test(original)) out.add(prevWord + t);
		}
	});
	return [...out];
}

export function buildProductProfile(view: ProductView, context?: CatalogContext): ProductProfile {
	let excluded: string | null = null;
	if (view.status !== "active") excluded = "discontinued product";
	else if (!view.partnerAuthorized) excluded = "partner no longer authorized";

	const oem = oemWords(view.oemName);
	const model = modelKeys(view.model);
	const modelTokens = new Set(view.model ? rawTokens(normalizeText(view.model)).map((t) => t.text) : []);
	// The name's first clause usually says what the product is; when it holds only brand words, the whole name does.
	const clauseWords = typeWords(firstClause(view.name, false), oem, modelTokens);
	const nameWords = clauseWords.filter((w) => !NON_HEAD.has(w)).length > 0 ? clauseWords : typeWords(view.name, oem, modelTokens);
	const descWords = view.description ? typeWords(firstClause(view.description, true), oem, modelTokens) : [];
	const nameSeq = new Set(analyze(view.name).seq);
	const nameTypeWords = nameWords.filter((w) => !NON_HEAD.has(w));
	const nameHead = nameTypeWords[nameTypeWords.length - 1] ?? null;
	const descHead = descWords[descWords.length - 1] ?? null;
	const heads = new Set<string>();
	if (nameHead) heads.add(nameHead);
	if (descHead && !NON_HEAD.has(descHead) && nameSeq.has(descHead)) heads.add(descHead);
	// A name that ends in a trim or feature word ("Corolla ... Hybrid Active", "RAV4 ... AWD-i") says what the product is in its
	// description ("Estate car", "Plug-in hybrid SUV"): where the name's head heads no goods label, the description's head
	// (before any "in", "of" phrase) counts too, if it heads goods labels or is no label word at all (a kind the labels lack).
	const fallback = view.description
		? typeWords(firstClause(view.description, false).split(/\s(?:in|on|of|per)\s/i)[0] ?? "", oem, modelTokens).at(-1)
		: undefined;
	if (nameHead && fallback && !heads.has(fallback) && !NON_HEAD.has(fallback) && headedDivisions(nameHead).size === 0) {
		// Not a class noun ("instrument", "system": what many kinds are), and a word the labels lack only as an acronym ("SUV", not "Bosch").
		const acronyms = new Set((view.description?.match(/\b[A-Z]{2,}s?\b/g) ?? []).map((w) => stem(w.toLowerCase())));
		const kind = headedDivisions(fallback).size > 0 ? !isClassNoun(fallback) : labelWordWeight(fallback) === 0 && acronyms.has(fallback);
		if (kind) heads.add(fallback);
	}

	const specText = view.specs.map((s) => `${s.key.replace(/[_.]/g, " ")} ${s.value}`).join("; ");
	const fullText = [view.name, view.description ?? "", specText].join("\n");
	const text = analyze(fullText);
	// An abbreviation whose long form ends in a head ("access point" -> "ap") names the same kind of thing.
	for (const h of [...heads]) for (const a of abbreviationsEndingWith(h)) if (text.bag.has(a)) heads.add(a);

	const headIndex = nameHead ? nameWords.lastIndexOf(nameHead) : -1;
	const before = headIndex > 0 ? nameWords[headIndex - 1] : undefined;
	const modifier = before !== undefined && !NON_HEAD.has(before) ? before : null;

	const codes = view.commodityCodes.map((c) => parseCode(c)).filter((c): c is Code => c !== null);
	const serviceLike =
		[...heads].some((h) => SERVICE_HEADS.has(h)) || codes.some((c) => c.scheme === "UNSPSC" && Number(c.code.slice(0, 2)) >= 70);
	const lineIds = lineIdentifiers(view.name, oem).filter((k) => k !== model.full && k !== compactKey(view.oemName));
	// Its own kinds are what it says without its catalog; read again with its catalog only where that was asked (whatever the answers, the same questions are asked).
	let asked = false;
	const contextFree = productConcepts(
		view,
		codes,
		serviceLike,
		noting(undefined, () => {
			asked = true;
		}),
	);
	const concepts = asked && context ? productConcepts(view, codes, serviceLike, context) : contextFree;

	return {
		view,
		excluded,
		oemAliases: oemAliases(view.oemName),
		oemWords: oem,
		model,
		lineIds,
		heads: [...heads],
		modifier,
		compoundHead: modifier && nameHead ? stem(modifier + nameHead) : null,
		nameWords: [...new Set(typeWords(view.name, oem, modelTokens))],
		textBag: text.bag,
		textSeq: text.seq,
		quantities: extractQuantities(fullText),
		codes,
		concepts,
		ownKinds: ownKinds(contextFree),
		serviceLike,
		refurbished: /\b(?:refurbished|remanufactured|reconditioned|recertified|renewed|pre-owned|used)\b/i.test(
			`${view.name} ${view.description ?? ""}`,
		),
	};
}

interface Cached {
	profile: ProductProfile;
	/** Whether its concepts asked its catalog, and of which tally at which version. */
	asked: boolean;
	catalog: unknown;
	version: number;
}

const cache = new WeakMap<ProductView, Cached>();

/**
 * The profile of a product view, computed once per view object; its concepts again when they
 * asked its catalog's other products (catalog-context.ts) and that catalog has changed since.
 */
export function productProfile(view: ProductView): ProductProfile {
	const catalog = catalogOf(view.tenantId);
	const version = catalog?.version ?? 0;
	let c = cache.get(view);
	if (c && (!c.asked || (c.catalog === catalog && (catalog === undefined || catalog.sameFor(view.productId, c.version))))) return c.profile;
	let asked = false;
	const context = noting(catalog?.contextFor(view.productId), () => {
		asked = true;
	});
	const profile = c
		? { ...c.profile, concepts: productConcepts(view, c.profile.codes, c.profile.serviceLike, context) }
		: buildProductProfile(view, context);
	c = { profile, asked, catalog, version };
	cache.set(view, c);
	return profile;
}

/** Whether a product's concepts depend on its catalog's other products (its index keys must follow them). */
export function asksCatalog(view: ProductView): boolean {
	productProfile(view);
	return cache.get(view)?.asked ?? false;
}
