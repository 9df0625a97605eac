import { normalizeText } from "./text.ts";

// Model numbers are written many ways ("NX7400-48P-A", "NX740048PA", "nx7400 48p a"): every form
// reduces to one compact key, lower case letters and digits only. A notice is searched by the
// compact keys of its runs of 1..4 adjacent tokens, so spacing and punctuation never matter,
// while a key must equal a whole run (no substring hits inside longer part numbers).

/** Lower-case letters and digits only. */
export function compactKey(s: string): string {
	return normalizeText(s).replace(/[^a-z0-9]+/g, "");
}

function segmentsOf(model: string): string[] {
	return normalizeText(model)
		.split(/[^a-z0-9]+/)
		.filter((s) => s.length > 0);
}

const hasLetter = (s: string) => /[a-z]/.test(s);
const hasDigitChar = (s: string) => /\d/.test(s);
// Trailing parts that name a region, licence tier or packaging rather than a different product.
const SHORT_SUFFIX = /^([a-z]{1,2}|[a-z]\d|\d[a-z]|\d{1,2}|plus|pro|max|mini|lite|ii|iii)$/;

/** Can this key identify a product by itself? Short keys and bare numbers collide with ordinary text. */
export function keyStrength(key: string, segments = 1): "strong" | "weak" | "none" {
	if (key.length < 3) return "none";
	if (hasLetter(key) && hasDigitChar(key)) return key.length >= 5 ? "strong" : "weak";
	if (!hasDigitChar(key)) return segments >= 2 && key.length >= 5 ? "strong" : "none";
	// Digits only: catalog numbers of 6+ digits are distinctive, short numbers are not.
	return key.length >= 6 ? "strong" : key.length >= 4 ? "weak" : "none";
}

export interface ModelKeys {
	/** The whole model. */
	full: string | null;
	fullStrength: "strong" | "weak" | "none";
	/** The model without a short trailing suffix ("QB204TS/00" -> "qb204ts"). */
	base: string | null;
	/** The first segment when it names a product family ("NX7400-48P-A" -> "nx7400"). */
	family: string | null;
}

export function modelKeys(model: string | null): ModelKeys {
	const none: ModelKeys = { full: null, fullStrength: "none", base: null, family: null };
	if (!model) return none;
	const segs = segmentsOf(model);
	if (segs.length === 0) return none;
	const full = segs.join("");
	const fullStrength = keyStrength(full, segs.length);
	let base: string | null = null;
	const last = segs[segs.length - 1] ?? "";
	if (segs.length >= 2 && SHORT_SUFFIX.test(last)) {
		const b = segs.slice(0, -1).join("");
		if (keyStrength(b, segs.length - 1) === "strong" && b !== full) base = b;
	}
	let family: string | null = null;
	const first = segs[0] ?? "";
	if (segs.length >= 2 && first !== base && keyStrength(first) === "strong") family = first;
	return { full: fullStrength === "none" ? null : full, fullStrength, base, family };
}

/** Compact keys of every run of 1..maxRun adjacent tokens (the forms a model can take in text). */
export function compactRuns(tokens: string[], maxRun = 4): Set<string> {
	const out = new Set<string>();
	for (let i = 0; i < tokens.length; i++) {
		let key = "";
		for (let j = i; j < Math.min(tokens.length, i + maxRun); j++) {
			key += tokens[j];
			if (key.length > 24) break;
			out.add(key);
		}
	}
	return out;
}

/** Runs that could be model numbers (contain a digit, or several letter tokens): what an index needs to store. */
export function modelLikeRuns(tokens: string[], maxRun = 4): Set<string> {
	const out = new Set<string>();
	for (let i = 0; i < tokens.length; i++) {
		let key = "";
		let digit = false;
		for (let j = i; j < Math.min(tokens.length, i + maxRun); j++) {
			const t = tokens[j] ?? "";
			key += t;
			digit ||= /\d/.test(t);
			if (key.length > 24) break;
			if (digit && key.length >= 3) out.add(key);
		}
	}
	return out;
}
