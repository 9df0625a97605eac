import type { Category, CategoryScheme, ProcurementCategory, SetAside, SetAsideCode } from "./notice.ts";
import { SET_ASIDE_CODES } from "./notice.ts";
import { cleanLine } from "./text.ts";

// Classification codes and set-aside codes, normalized so that the same code from two feeds
// compares equal.

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

/** One classification, or null when the scheme is not one we use or the code is malformed. */
export function normalizeCategory(scheme: unknown, code: unknown, label?: unknown): Category | null {
	if (typeof scheme !== "string" || (typeof code !== "string" && typeof code !== "number")) return null;
	const s = SCHEME_ALIASES.get(scheme.trim().toUpperCase());
	if (!s) return null;
	let c = String(code).trim().toUpperCase().replace(/\s+/g, "");
	if (s === "CPV") c = c.replace(/-\d$/, "");
	// A GSIN code becomes another scheme's code: the source's own form is kept beside it (bidders quote that one).
	let published: string | undefined;
	if (scheme.trim().toUpperCase() === "GSIN") {
		const fsc = /^N(\d{4})/.exec(c);
		if (!fsc?.[1]) return null;
		published = `GSIN ${c}`;
		c = fsc[1];
	}
	if (!CODE_SHAPES[s].test(c)) return null;
	const l = cleanLine(label, 300);
	return { scheme: s, code: c, ...(l ? { label: l } : {}), ...(published ? { as_published: published.slice(0, 60) } : {}) };
}

/**
 * A national catalogue built on UNSPSC (its scheme or description says so, e.g. Paraguay's DNCP
 * catalogue "basado en UNSPSC", ids like "72131701-004"): the UNSPSC commodity its id starts with.
 */
export function unspscBased(scheme: unknown, code: unknown, label?: unknown): Category | null {
	const named = [scheme, label].some((v) => typeof v === "string" && /\bunspsc\b/i.test(v.slice(0, 500)));
	const m = typeof code === "string" ? /^\s*(\d{8})(?!\d)/.exec(code) : null;
	return named && m?.[1] ? { scheme: "UNSPSC", code: m[1] } : null;
}

/** Keeps the first entry per (scheme, code), filling a missing label from a later duplicate. */
export function uniqueCategories(list: Iterable<Category | null>): Category[] {
	const seen = new Map<string, Category>();
	for (const c of list) {
		if (!c) continue;
		const key = `${c.scheme}:${c.code}`;
		const prior = seen.get(key);
		if (!prior) seen.set(key, c);
		else if (!prior.label && c.label) seen.set(key, { ...prior, label: c.label });
	}
	return [...seen.values()];
}

// SAM.gov's set-aside descriptions, for records that carry the text but not the code.
// Checked in order: the more specific wording first.
const SET_ASIDE_WORDING: [RegExp, SetAsideCode, SetAsideCode][] = [
	[/economically disadvantaged/i, "EDWOSB", "EDWOSBSS"],
	[/women[- ]owned/i, "WOSB", "WOSBSS"],
	[/service[- ]disabled/i, "SDVOSBC", "SDVOSBS"],
	[/hubzone/i, "HZC", "HZS"],
	[/8\s?\(a\)/i, "8A", "8AN"],
	[/veteran[- ]owned/i, "VSA", "VSS"],
	[/partial small business/i, "SBP", "SBP"],
	[/total small business/i, "SBA", "SBA"],
	[/indian small business economic/i, "ISBEE", "ISBEE"],
	[/indian economic enterprise/i, "IEE", "IEE"],
	[/buy indian/i, "BICIV", "BICIV"],
	[/local area/i, "LAS", "LAS"],
];

const KNOWN_CODES = new Set<string>(SET_ASIDE_CODES);

/**
 * A set-aside from a code and/or its description. The code is taken when it is one of SAM.gov's
 * (case-insensitive); otherwise the description's official wording decides; else only the text is
 * kept. Null when neither says anything ("NONE" is SAM's "no set-aside").
 */
export function normalizeSetAside(code: unknown, text: unknown): SetAside | null {
	const raw = cleanLine(code, 20)?.toUpperCase() ?? null;
	const description = cleanLine(text, 500);
	if (raw === "NONE" || (raw === null && description === null)) return null;
	if (raw !== null && KNOWN_CODES.has(raw)) return { code: raw as SetAsideCode, text: description };
	if (description) {
		const soleSource = /sole source/i.test(description);
		for (const [pattern, setAside, sole] of SET_ASIDE_WORDING) {
			if (pattern.test(description)) return { code: soleSource ? sole : setAside, text: description };
		}
	}
	return { code: null, text: description ?? raw };
}

/** The nature of the purchase from words the standards use (OCDS, eForms contract-nature). */
export function procurementCategory(value: unknown): ProcurementCategory | null {
	const v = typeof value === "string" ? value.trim().toLowerCase() : "";
	if (v === "goods" || v === "supplies") return "goods";
	if (v === "services") return "services";
	if (v === "works") return "works";
	return null;
}

/** US PSC: a numeric code is a product, Y and Z are construction and real property, letters are services. */
export function categoryOfPsc(code: string | null): ProcurementCategory | null {
	if (!code) return null;
	if (/^\d/.test(code)) return "goods";
	if (/^[YZ]/.test(code)) return "works";
	return /^[A-Z]/.test(code) ? "services" : null;
}
