// Commodity and industry codes and how far two of them agree. Each scheme is a hierarchy read
// from the left: UNSPSC segment/family/class/commodity (2/4/6/8 digits), CPV division/group/
// class/category (2/3/4/5 digits, then the full 8), NAICS sector to national industry (2..6
// digits), PSC/FSC group and code (first character(s), all 4). Trailing zeros mean "any below
// this level", so a class-level code agrees at most at class level.

export type CodeScheme = "UNSPSC" | "CPV" | "NAICS" | "PSC";

export interface Code {
	scheme: CodeScheme;
	/** Normalized: UNSPSC and CPV 8 digits (CPV check digit dropped), NAICS 2..6 digits, PSC 4 upper-case characters. */
	code: string;
}

const SCHEME_ALIASES: Record<string, CodeScheme> = {
	UNSPSC: "UNSPSC",
	CPV: "CPV",
	NAICS: "NAICS",
	PSC: "PSC",
	FSC: "PSC",
};

/** A code from a notice (scheme given) or a catalog ("SCHEME:code", or a bare code read by its shape: 8 digits UNSPSC, 8+check digit CPV, 4 characters PSC, other 2-6 digits NAICS). */
export function parseCode(raw: string, schemeHint?: string | null): Code | null {
	let text = raw.trim();
	let scheme: CodeScheme | undefined;
	const prefixed = /^([A-Za-z]+)\s*[:\s]\s*(.+)$/.exec(text);
	if (prefixed?.[1] && prefixed[2] && SCHEME_ALIASES[prefixed[1].toUpperCase()]) {
		scheme = SCHEME_ALIASES[prefixed[1].toUpperCase()];
		text = prefixed[2].trim();
	} else if (schemeHint) scheme = SCHEME_ALIASES[schemeHint.trim().toUpperCase()];
	if (scheme === undefined) {
		if (/^\d{8}-\d$/.test(text)) scheme = "CPV";
		else if (/^\d{8}$/.test(text)) scheme = "UNSPSC";
		// Four characters read as a PSC/FSC code (NAICS is usually given to 6 digits; prefix it otherwise).
		else if (/^[A-Za-z0-9]{4}$/.test(text)) scheme = "PSC";
		else if (/^\d{2,6}$/.test(text)) scheme = "NAICS";
		else return null;
	}
	switch (scheme) {
		case "UNSPSC": {
			const d = text.replace(/\D/g, "");
			return d.length === 8
				? { scheme, code: d }
				: d.length >= 2 && d.length < 8 && d.length % 2 === 0
					? { scheme, code: d.padEnd(8, "0") }
					: null;
		}
		case "CPV": {
			const d = text.split("-")[0]?.replace(/\D/g, "") ?? "";
			return d.length === 8 ? { scheme, code: d } : null;
		}
		case "NAICS": {
			const d = text.replace(/\D/g, "");
			return d.length >= 2 && d.length <= 6 ? { scheme, code: d } : null;
		}
		case "PSC": {
			const c = text.toUpperCase().replace(/[^A-Z0-9]/g, "");
			return c.length === 4 ? { scheme, code: c } : null;
		}
	}
}

export interface CodeLevel {
	/** Digits (or characters) that must agree. */
	length: number;
	name: string;
	points: number;
}

// Points for agreeing at each level: the deeper, the more it says about the product itself.
export const CODE_LEVELS: Record<CodeScheme, CodeLevel[]> = {
	UNSPSC: [
		{ length: 8, name: "commodity", points: 18 },
		{ length: 6, name: "class", points: 13 },
		{ length: 4, name: "family", points: 6 },
		{ length: 2, name: "segment", points: 1 },
	],
	CPV: [
		{ length: 8, name: "code", points: 18 },
		{ length: 5, name: "category", points: 15 },
		{ length: 4, name: "class", points: 12 },
		{ length: 3, name: "group", points: 6 },
		{ length: 2, name: "division", points: 1 },
	],
	NAICS: [
		{ length: 6, name: "national industry", points: 10 },
		{ length: 5, name: "industry", points: 8 },
		{ length: 4, name: "industry group", points: 6 },
		{ length: 3, name: "subsector", points: 3 },
		{ length: 2, name: "sector", points: 1 },
	],
	PSC: [
		{ length: 4, name: "code", points: 10 },
		{ length: 2, name: "group", points: 5 },
		{ length: 1, name: "category", points: 1 },
	],
};

/** How many leading characters of the code are specified (trailing zero pairs mean "unspecified"). */
export function significantLength(c: Code): number {
	if (c.scheme === "UNSPSC") {
		let n = 8;
		while (n > 2 && c.code.slice(n - 2, n) === "00") n -= 2;
		return n;
	}
	if (c.scheme === "CPV") {
		let n = 8;
		while (n > 2 && c.code[n - 1] === "0") n--;
		return n;
	}
	return c.code.length;
}

export interface CodeAgreement {
	scheme: CodeScheme;
	level: string;
	points: number;
	productCode: string;
	noticeCode: string;
	/** How surely the agreement says "the same kind of goods" (0..1), on the scale of CPV concept agreement. */
	kind: number;
}

// The deepest level of a scheme names one kind; the next level up holds it (when the notice is
// coded there) or its siblings; further up, a family of kinds. NAICS names industries, not goods.
const KIND_BY_LEVEL = [1, 0.6, 0.35];
const KIND_BY_LEVEL_CONTAINS = [1, 0.95, 0.8];
const SCHEME_KIND: Record<CodeScheme, number> = { UNSPSC: 1, CPV: 1, PSC: 1, NAICS: 0.6 };

/** The deepest agreement between one product code and one notice code, if any. */
export function agreement(p: Code, n: Code): CodeAgreement | null {
	if (p.scheme !== n.scheme) return null;
	const noticeLength = significantLength(n);
	const depth = Math.min(significantLength(p), noticeLength);
	const levels = CODE_LEVELS[p.scheme];
	for (const [i, level] of levels.entries()) {
		if (level.length > depth) continue;
		if (p.code.slice(0, level.length) !== n.code.slice(0, level.length)) continue;
		// Levels are counted from the deepest the scheme has, whatever depth the two codes are given at.
		const contains = level.length >= noticeLength;
		const kind = ((contains ? KIND_BY_LEVEL_CONTAINS : KIND_BY_LEVEL)[i] ?? 0) * SCHEME_KIND[p.scheme];
		return { scheme: p.scheme, level: level.name, points: level.points, productCode: p.code, noticeCode: n.code, kind };
	}
	return null;
}

/** The best agreement over all pairs (schemes never mix: the catalog and the notice must use the same one). */
export function bestAgreement(productCodes: readonly Code[], noticeCodes: readonly Code[]): CodeAgreement | null {
	let best: CodeAgreement | null = null;
	for (const p of productCodes)
		for (const n of noticeCodes) {
			const a = agreement(p, n);
			if (a && (!best || a.points > best.points)) best = a;
		}
	return best;
}

/** Prefixes worth indexing for retrieval: levels specific enough to suggest a product type. */
export function indexPrefixes(c: Code): string[] {
	const sig = significantLength(c);
	const wanted: Record<CodeScheme, number[]> = { UNSPSC: [8, 6], CPV: [8, 5, 4], NAICS: [6, 5], PSC: [4] };
	return wanted[c.scheme].filter((l) => l <= sig).map((l) => `${c.scheme}:${c.code.slice(0, l)}`);
}

/** What the code says about the nature of the purchase, where the scheme's top levels say it. */
export function codeNature(c: Code): "goods" | "services" | "construction" | null {
	switch (c.scheme) {
		case "UNSPSC": {
			const seg = Number(c.code.slice(0, 2));
			if (seg === 72) return c.code.slice(0, 4) === "7210" ? "services" : "construction";
			if (seg === 95) return "construction";
			return seg >= 70 ? "services" : "goods";
		}
		case "CPV": {
			const div = Number(c.code.slice(0, 2));
			if (div === 45) return "construction";
			if (div === 48) return "goods";
			return div >= 50 ? "services" : "goods";
		}
		case "PSC": {
			const first = c.code[0] ?? "";
			if (/\d/.test(first)) return "goods";
			return first === "Y" || first === "Z" ? "construction" : "services";
		}
		case "NAICS": {
			const sec = c.code.slice(0, 2);
			if (sec === "23") return "construction";
			return ["31", "32", "33", "42", "44", "45"].includes(sec) ? "goods" : null;
		}
	}
}
