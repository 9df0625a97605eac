import { categoryCode, unspscBased as unspscBasedCode } from "../../../shared/taxonomy/categories.ts";
import type { Category, ProcurementCategory, SetAside, SetAsideCode } from "./notice.ts";
import { SET_ASIDE_CODES } from "./notice.ts";
import { cleanLine } from "./text.ts";

// Classification codes and set-aside codes, normalized so that the same code from two feeds
// compares equal.

/** One classification, or null when the scheme is not one we use or the code is malformed. */
export function normalizeCategory(scheme: unknown, code: unknown, label?: unknown): Category | null {
	const c = categoryCode(scheme, code);
	if (!c) return null;
	const l = cleanLine(label, 300);
	// A GSIN code becomes another scheme's code: the source's own form is kept beside it (bidders quote that one).
	const raw =
		typeof scheme === "string" && scheme.trim().toUpperCase() === "GSIN" ? String(code).trim().toUpperCase().replace(/\s+/g, "") : null;
	return { ...c, ...(l ? { label: l } : {}), ...(raw ? { as_published: `GSIN ${raw}`.slice(0, 60) } : {}) };
}

/** A national catalogue built on UNSPSC: the UNSPSC commodity its id starts with (shared/taxonomy/categories.ts). */
export const unspscBased = (scheme: unknown, code: unknown, label?: unknown): Category | null => unspscBasedCode(scheme, code, label);

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
