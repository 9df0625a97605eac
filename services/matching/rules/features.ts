import type { RuleType } from "../../../shared/contract/settings.ts";
import { parseCode, significantLength, type Code } from "../method/codes.ts";
import { GENERIC, STOPWORDS, isNumeric, stem, tokenize } from "../method/text.ts";

// The features of a notice that learned rules can hold against it. The same function reads a
// notice when feedback is learned (evidence) and when a notice is scored (applying rules), so a
// rule applies to exactly the notices that share the feature its evidence shared.

/** What the features are read from: a notice and the signals extracted from it. */
export interface FeatureInput {
	issuing_body: string;
	title: string;
	categories: ReadonlyArray<{ scheme: string; code: string }>;
	bid_eligibility: string | null;
	procurement_nature: string | null;
}

export interface Feature {
	type: RuleType;
	/** Normalized value: what two notices must share for the rule to apply to both. */
	key: string;
	/** The value as a person reads it (for the rule's description). */
	label: string;
}

/** At most this many phrases per title: a long title must not flood the evidence. */
export const MAX_PHRASES = 5;
/** The family level of codes, where a scheme has one worth learning (digits from the left). */
const FAMILY: Partial<Record<Code["scheme"], { length: number; name: string }>> = {
	UNSPSC: { length: 4, name: "family" },
	CPV: { length: 3, name: "group" },
};
const SET_ASIDES = new Set(["small_business", "8a", "hubzone", "sdvosb", "wosb", "other_set_aside", "restricted"]);
const SET_ASIDE_LABELS: Record<string, string> = {
	small_business: "small business set-aside",
	"8a": "8(a) set-aside",
	hubzone: "HUBZone set-aside",
	sdvosb: "service-disabled veteran-owned small business set-aside",
	wosb: "women-owned small business set-aside",
	other_set_aside: "set-aside for another kind of business",
	restricted: "restricted competition (sole source, brand name only or incumbent)",
};

/** Stable id of a feature: how evidence documents list it and how rules are looked up. */
export const featureId = (f: { type: string; key: string }): string => `${f.type}|${f.key}`;

/** Lower case, punctuation as spaces, one space: "Ministry of Health." and "MINISTRY OF HEALTH" agree. */
export function normalizeBody(s: string): string {
	return s
		.normalize("NFKC")
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, " ")
		.trim();
}

/** A family key ends with "*" ("UNSPSC:4322*"): every code below it shares it. */
export const isFamilyKey = (key: string): boolean => key.endsWith("*");

function codeFeatures(categories: FeatureInput["categories"]): Feature[] {
	const out: Feature[] = [];
	for (const c of categories) {
		const code = parseCode(c.code, c.scheme);
		if (!code) continue;
		out.push({ type: "category_code", key: `${code.scheme}:${code.code}`, label: `${code.scheme} ${code.code}` });
		// The family too, so verdicts on different codes of one family can add up; only when the
		// code is more specific than the family (else the full code already says the same).
		const fam = FAMILY[code.scheme];
		if (fam && significantLength(code) > fam.length) {
			const prefix = code.code.slice(0, fam.length);
			out.push({ type: "category_code", key: `${code.scheme}:${prefix}*`, label: `${code.scheme} ${fam.name} ${prefix}` });
		}
	}
	return out;
}

/** A word that can say why a notice is unwanted: a word of letters, not boilerplate. */
const isPhraseWord = (t: string): boolean => t.length >= 3 && /^[a-z]+$/.test(t) && !STOPWORDS.has(t) && !GENERIC.has(t) && !isNumeric(t);

/** The key of a phrase feature: its words as the method's stems ("laboratory centrifuges" -> "laboratori centrifug"). */
export function phraseKey(words: string): string {
	return words
		.split(" ")
		.filter(Boolean)
		.map((w) => stem(w))
		.join(" ");
}

/**
 * Two adjacent content words of the title ("preventive maintenance", "janitorial services"),
 * stemmed so plurals agree. One word alone is too broad to say why a notice is unwanted (and
 * the commonest one-word reason, a services contract, is the services_nature feature).
 */
function phraseFeatures(title: string): Feature[] {
	const words = tokenize(title);
	const out: Feature[] = [];
	const seen = new Set<string>();
	for (let i = 0; i + 1 < words.length && out.length < MAX_PHRASES; i++) {
		const a = words[i]!;
		const b = words[i + 1]!;
		if (!isPhraseWord(a) || !isPhraseWord(b)) continue;
		const key = phraseKey(`${a} ${b}`);
		if (seen.has(key)) continue;
		seen.add(key);
		out.push({ type: "phrase", key, label: `${a} ${b}` });
	}
	return out;
}

/** Every feature of one notice, each once. */
export function noticeFeatures(n: FeatureInput): Feature[] {
	const out: Feature[] = [];
	const body = normalizeBody(n.issuing_body ?? "");
	if (body) out.push({ type: "issuing_body", key: body, label: n.issuing_body.trim().replace(/\s+/g, " ") });
	out.push(...codeFeatures(n.categories ?? []));
	out.push(...phraseFeatures(n.title ?? ""));
	if (n.bid_eligibility && SET_ASIDES.has(n.bid_eligibility))
		out.push({ type: "set_aside", key: n.bid_eligibility, label: SET_ASIDE_LABELS[n.bid_eligibility]! });
	if (n.procurement_nature === "services" || n.procurement_nature === "construction")
		out.push({ type: "services_nature", key: n.procurement_nature, label: n.procurement_nature });
	const unique = new Map(out.map((f) => [featureId(f), f]));
	return [...unique.values()];
}

/** The feature ids of a notice, for matching rules against it. */
export const noticeFeatureIds = (n: FeatureInput): Set<string> => new Set(noticeFeatures(n).map(featureId));
