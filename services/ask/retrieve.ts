import type { Passage } from "./context.ts";
import type { WeightedTerm } from "./intents.ts";
import { terms } from "./text.ts";

// BM25 over the passages of one notice. The collection is small (tens to a few hundred passages),
// so the statistics are computed per question. Besides the score, each hit reports how much of the
// question it covers (IDF-weighted share of the question's own terms): the answerability check
// needs to know whether a passage is about what was asked, not only whether it beats the others.

const K1 = 1.2;
/** Mild length normalization: long sentences are not worse answers, just longer. */
const B = 0.3;
/** A term that appears only in a list line's heading counts this much. */
const LEAD_WEIGHT = 0.5;

export interface Indexed {
	passage: Passage;
	tf: Map<string, number>;
	length: number;
}

export interface Index {
	docs: Indexed[];
	df: Map<string, number>;
	avgLength: number;
}

export function buildIndex(passages: Passage[]): Index {
	const df = new Map<string, number>();
	const docs = passages.map((passage) => {
		const tf = new Map<string, number>();
		const own = terms(passage.text);
		for (const t of own) tf.set(t, (tf.get(t) ?? 0) + 1);
		for (const t of passage.lead ? terms(passage.lead) : []) if (!tf.has(t)) tf.set(t, LEAD_WEIGHT);
		for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
		return { passage, tf, length: own.length };
	});
	const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
	return { docs, df, avgLength };
}

/** Inverse document frequency; a term absent from the notice gets the highest value (its absence matters most). */
export function idf(index: Index, term: string): number {
	const n = index.docs.length;
	const df = index.df.get(term) ?? 0;
	return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export interface Hit {
	doc: Indexed;
	score: number;
	/** The question's terms found in the passage (or its heading). */
	matched: string[];
}

export function score(index: Index, doc: Indexed, query: WeightedTerm[]): Hit {
	let total = 0;
	const matched: string[] = [];
	for (const q of query) {
		const tf = doc.tf.get(q.term) ?? 0;
		if (tf === 0) continue;
		matched.push(q.term);
		const w = idf(index, q.term) * q.weight;
		total += (w * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * doc.length) / Math.max(1, index.avgLength)));
	}
	return { doc, score: total, matched };
}

/** The question's terms as present in a passage (for deciding whether a second passage adds anything). */
export function presentTerms(doc: Indexed, query: WeightedTerm[]): Set<string> {
	return new Set(query.filter((q) => doc.tf.has(q.term)).map((q) => q.term));
}
