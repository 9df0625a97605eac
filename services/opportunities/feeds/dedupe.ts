import { LIMITS } from "./notice.ts";
import { tokens } from "./text.ts";

// Keys under which one solicitation published by two feeds (a US notice on SAM.gov and in a
// state's OCDS feed; a UK tender on TED and on Contracts Finder) is recognised as the same.
// Two notices are the same solicitation when they share any key. The rule:
//
// 1. `ref:<REF>`: the buyer's reference upper-cased with everything but letters and digits
//    removed ("FA4890-27-R-0007" -> "FA489027R0007"), only when it is distinctive: at least 8
//    characters mixing letters and digits. US solicitation numbers (which embed the office's
//    activity code) and most European references qualify; "2024-001" or "RFP 12" do not.
// 2. `ref+buyer:<REF>|<BUYER>`: any reference, with the buyer's name as a sorted set of word
//    tokens without filler words, so "VETERANS AFFAIRS, DEPARTMENT OF" and "Department of
//    Veterans Affairs" agree.
// 3. `title+buyer+deadline:<TITLE>|<BUYER>|<YYYY-MM-DD>`: for notices without a reference, the
//    title's tokens, the buyer and the deadline's UTC day together (a recurring tender with the
//    same title in another year has another deadline).

const FILLER = new Set([
	"the",
	"of",
	"and",
	"for",
	"a",
	"an",
	"de",
	"du",
	"des",
	"la",
	"le",
	"les",
	"der",
	"die",
	"das",
	"und",
	"dept",
	"department",
]);

export function normalizeReference(ref: string): string {
	return ref
		.normalize("NFKC")
		.toUpperCase()
		.replace(/[^A-Z0-9]/g, "");
}

function isDistinctive(ref: string): boolean {
	return ref.length >= 8 && /[A-Z]/.test(ref) && /\d/.test(ref);
}

// Each part is capped so that a key never exceeds LIMITS.dedupeKey and the deadline is never cut off.
function nameKey(name: string): string {
	return [...new Set(tokens(name).filter((t) => !FILLER.has(t)))].sort().join("-").slice(0, 100);
}

export interface DedupeInput {
	reference_number: string | null;
	issuing_body: string;
	title: string;
	deadline: string | null;
}

export function dedupeKeys(n: DedupeInput): string[] {
	const keys: string[] = [];
	const ref = n.reference_number ? normalizeReference(n.reference_number).slice(0, 100) : "";
	const buyer = nameKey(n.issuing_body);
	if (ref) {
		if (isDistinctive(ref)) keys.push(`ref:${ref}`);
		if (buyer) keys.push(`ref+buyer:${ref}|${buyer}`);
	} else if (buyer && n.deadline) {
		const title = tokens(n.title).join("-").slice(0, 150);
		if (title) keys.push(`title+buyer+deadline:${title}|${buyer}|${n.deadline.slice(0, 10)}`);
	}
	return keys.filter((k) => k.length <= LIMITS.dedupeKey);
}
