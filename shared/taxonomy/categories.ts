// Why: a notice's classification as its feed writes it ("GSIN" "N7010", "CPV" "30213100-6", a
// national catalogue "basado en UNSPSC" with ids like "26111703-005") must read the same wherever
// an OCDS file is read: by ingestion (opportunities' feeds) and by matching's offline evaluation,
// which loads the labeled sets' OCDS files itself.

export const CATEGORY_SCHEMES = ["UNSPSC", "CPV", "NAICS", "PSC"] as const;
export type CategoryScheme = (typeof CATEGORY_SCHEMES)[number];

export interface SchemeCode {
	scheme: CategoryScheme;
	code: string;
}

const SCHEME_ALIASES = new Map<string, CategoryScheme>([
	["UNSPSC", "UNSPSC"],
	["CPV", "CPV"],
	["NAICS", "NAICS"],
	["PSC", "PSC"],
	// The Product Service Code was the Federal Supply Code; feeds still use either name.
	["FSC", "PSC"],
	["PSC/FSC", "PSC"],
	// Canada's GSIN: its goods codes are the Federal Supply Classification behind an "N" ("N7010" is FSC 7010).
	["GSIN", "PSC"],
]);

const CODE_SHAPES: Record<CategoryScheme, RegExp> = {
	// CPV codes are 8 digits; TED and many OCDS feeds append the check digit ("71630000-3").
	CPV: /^\d{8}$/,
	// 8 digits (segment, family, class, commodity), sometimes 10 with a business function.
	UNSPSC: /^\d{8}(\d{2})?$/,
	NAICS: /^\d{2,6}$/,
	PSC: /^[A-Z0-9]{1,4}$/,
};

/** One classification in a scheme we use, or null when the scheme is another or the code is malformed. */
export function categoryCode(scheme: unknown, code: unknown): SchemeCode | null {
	if (typeof scheme !== "string" || (typeof code !== "string" && typeof code !== "number")) return null;
	const s = SCHEME_ALIASES.get(scheme.trim().toUpperCase());
	if (!s) return null;
	let c = String(code).trim().toUpperCase().replace(/\s+/g, "");
	if (s === "CPV") c = c.replace(/-\d$/, "");
	if (scheme.trim().toUpperCase() === "GSIN") {
		const fsc = /^N(\d{4})/.exec(c);
		if (!fsc?.[1]) return null;
		c = fsc[1];
	}
	return CODE_SHAPES[s].test(c) ? { scheme: s, code: c } : null;
}

/**
 * A national catalogue built on UNSPSC (its scheme or description says so, e.g. Paraguay's DNCP
 * catalogue "basado en UNSPSC", ids like "72131701-004"): the UNSPSC commodity its id starts with.
 */
export function unspscBased(scheme: unknown, code: unknown, label?: unknown): SchemeCode | null {
	const named = [scheme, label].some((v) => typeof v === "string" && /\bunspsc\b/i.test(v.slice(0, 500)));
	const m = typeof code === "string" ? /^\s*(\d{8})(?!\d)/.exec(code) : null;
	return named && m?.[1] ? { scheme: "UNSPSC", code: m[1] } : null;
}
