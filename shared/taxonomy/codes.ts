// Code syntax of the four classification schemes, kept apart from the data so that callers can
// validate and normalize a notice's or a product's codes (and walk their hierarchy by prefix)
// without loading any taxonomy file.
import { z } from "zod";

export const Scheme = z.enum(["cpv", "unspsc", "naics", "psc"]);
export type Scheme = z.infer<typeof Scheme>;

/**
 * A code as written in the wild (spaces, dots, dashes, a CPV check digit, a UNSPSC code with its
 * two-digit business function suffix, lower case PSC) in the scheme's canonical form, or
 * undefined when it cannot be a code of that scheme. A CPV check digit is accepted and dropped, not
 * verified: the weighted-sum rule most codes follow (3,7,1,3,7,1,3,7 mod 10) does not hold for all of
 * them (35125300-2 "Security cameras" is one), and refusing a real code is worse than accepting a typo.
 */
export function normalizeCode(scheme: Scheme, raw: string): string | undefined {
	const s = raw.trim().toUpperCase();
	switch (scheme) {
		case "cpv": {
			const m = /^(\d{2})[\s.]?(\d{3})[\s.]?(\d{3})(?:\s*-?\s*(\d))?$/.exec(s);
			if (!m) return undefined;
			return `${m[1]}${m[2]}${m[3]}`;
		}
		case "unspsc": {
			const digits = s.replace(/[\s.-]/g, "");
			if (/^\d{10}$/.test(digits)) return digits.slice(0, 8); // trailing business function
			if (/^\d{2}(\d{2}){0,3}$/.test(digits)) return digits.padEnd(8, "0");
			return undefined;
		}
		case "naics": {
			const d = s.replace(/\s/g, "");
			return /^\d{2,6}$/.test(d) || /^\d{2}-\d{2}$/.test(d) ? d : undefined;
		}
		case "psc":
			return /^[0-9A-Z]{1,4}$/.test(s.replace(/\s/g, "")) ? s.replace(/\s/g, "") : undefined;
	}
}

/** Candidate parents by code structure alone, nearest first (whether each exists is the data's business). */
export function structuralAncestors(scheme: Scheme, code: string): string[] {
	const out: string[] = [];
	switch (scheme) {
		case "cpv":
			// 2 digits division, 3 group, 4 class, 5 category, then finer levels: zero the last significant digit.
			for (let c = code; ; ) {
				const i = c.replace(/0+$/, "").length - 1;
				if (i < 2) break;
				c = c.slice(0, i) + "0".repeat(8 - i);
				out.push(c);
			}
			break;
		case "unspsc":
			// segment SS000000, family SSFF0000, class SSFFCC00, commodity SSFFCCDD
			for (const n of [6, 4, 2]) {
				const c = code.slice(0, n).padEnd(8, "0");
				if (c !== code && !out.includes(c)) out.push(c);
			}
			break;
		case "naics":
			for (let n = code.length - 1; n >= 2; n--) out.push(code.slice(0, n));
			break;
		case "psc":
			// products: FSC 4 digits -> group 2 digits; services and R&D: D302 -> D3 -> D
			if (/^\d{4}$/.test(code)) out.push(code.slice(0, 2));
			else for (let n = Math.min(code.length - 1, 3); n >= 1; n--) out.push(code.slice(0, n));
			break;
	}
	return out.filter((c) => c !== code);
}

/** Digits of a CPV code that say what it is: trailing zeros are "anything below", and a division has 2. */
export function cpvDepth(code: string): number {
	let n = 8;
	while (n > 2 && code[n - 1] === "0") n--;
	return n;
}

/** One CPV code is the other's ancestor, descendant or itself, read to the shallower of their depths. */
export function cpvInLine(a: string, b: string, depthA = cpvDepth(a), depthB = cpvDepth(b)): boolean {
	const d = Math.min(depthA, depthB);
	return a.slice(0, d) === b.slice(0, d);
}
