import type { PreparedNotice, Sentence } from "./text.ts";

// Two or three sentences taken verbatim (whitespace-normalized) from the notice description, in
// order, skipping procedural boilerplate (synopsis format, submission logistics, registration,
// evaluation, clauses, contacts) and list lines. Bounded to MAX_SUMMARY_CHARS; a single sentence
// longer than that is cut at a word boundary and marked with "…". Nothing is composed: when the
// description has no usable sentence, the title (and item lines) stand in.

export const MAX_SUMMARY_CHARS = 400;
const MIN_SENTENCE_CHARS = 30;

const BOILERPLATE = [
	/combined synopsis\/solicitation/,
	/\bonly solicitation\b/,
	/\bwritten solicitation (will not|won't) be issued\b/,
	/\bno separate written solicitation\b/,
	/federal acquisition circular/,
	/\bprepared in accordance with the format\b/,
	/\bfar (subpart|part) \d/,
	/\bprovisions and clauses\b|\bfar 52\.\d|\bdfars 252\.\d|\bfull text is available\b/,
	/\bsystem for award management\b|\bsam\.gov\b|\bunique entity id\b|\bcage code\b/,
	/\b(quotes?|quotations?|offers?|proposals?|bids?|tenders?|responses?|applications?) (are|is|must be|shall be|will be) (due|received|submitted|accepted|opened)\b/,
	/\bdeadline for (receipt|submission)\b|\bclosing (date|time)\b|\bno later than\b/,
	/@/,
	/\bquestions?\b[^.]{0,60}\b(must|should|shall|may) be\b|\bclarification questions?\b|\binquiries\b/,
	/\breserves the right\b|\bnot bound to accept\b/,
	/\bbasis for award\b|\bevaluation will\b|\baward criteri|\bwill be awarded to\b|\bwill award to\b|\btechnical acceptability\b|\bbest[- ]value basis\b|\bapproximately equal to price\b/,
	/\bthis is not a request for\b|\bthis is not a solicitation\b|\bnot pay for any information\b/,
	/\bpayment terms\b|\bnet 30\b|\bsales tax\b|\bnon-collusion\b|\bw-9\b/,
	/\bprices? (shall|must) (be quoted|remain firm)\b|\bfob destination\b/,
	/\bmust be registered\b|\bregistration (is required|with the)\b|\bcentral digital platform\b/,
	/\bpoint of contact\b|\bcontact:|\bcontracting officer\b|\bcontract specialist\b/,
	/\btenders? (and all supporting documents )?must be submitted\b|\bsubmitted electronically\b|\bpaper submissions\b/,
	/\bremain bound by their tenders\b|\bvariants are not permitted\b/,
	/\bthe government (intends|anticipates)[^.]{0,40}\bfirm-fixed-price\b/,
];

const LIST_LINE = /^(clin|item|line|lot|group|part)\b[^a-z]{0,12}|^[-*•>]|^\(?[0-9a-z]{1,3}[.)]\s/i;

function usable(s: Sentence): boolean {
	if (s.part !== "description") return false;
	if (s.text.length < MIN_SENTENCE_CHARS) return false;
	if (LIST_LINE.test(s.text)) return false;
	if (!/[.!?]["')]?$/.test(s.text)) return false; // headings and list fragments do not end like sentences
	return !BOILERPLATE.some((re) => re.test(s.lower));
}

function cut(text: string, max: number): string {
	if (text.length <= max) return text;
	const at = text.lastIndexOf(" ", max - 1);
	return `${text.slice(0, at > max / 2 ? at : max - 1).replace(/[\s,;:]+$/, "")}…`;
}

export function buildSummary(n: PreparedNotice): string {
	const picked: string[] = [];
	let length = 0;
	for (const s of n.sentences) {
		if (!usable(s)) continue;
		if (picked.length === 0) {
			picked.push(cut(s.text, MAX_SUMMARY_CHARS));
			length = picked[0]?.length ?? 0;
		} else if (length + 1 + s.text.length <= MAX_SUMMARY_CHARS) {
			picked.push(s.text);
			length += 1 + s.text.length;
		} else break;
		if (picked.length === 3) break;
	}
	if (picked.length > 0) return picked.join(" ");
	// No prose: the title and item lines, as written.
	const parts = [n.title, ...n.items.slice(0, 3).map((i) => i.text)].filter((p) => p.length > 0);
	return cut(parts.join(". "), MAX_SUMMARY_CHARS);
}
