import { isStopword } from "../../../shared/text/index.ts";
import { normalizeText } from "./text.ts";

// The baseline the method is measured against: plain BM25 keyword search, as a saved search
// would run it. Each product name is a query over notice text (title, description, item lines);
// a company's score for a notice is its best product query's score. No stemming, no synonyms,
// no codes: exactly what a keyword alert gives a user.

export function bm25Tokens(text: string): string[] {
	return (normalizeText(text).match(/[a-z0-9]+/g) ?? []).filter((t) => !isStopword(t, "en"));
}

export class Bm25 {
	private docs: { id: string; tf: Map<string, number>; length: number }[] = [];
	private df = new Map<string, number>();
	private avgLength = 0;

	constructor(
		documents: { id: string; text: string }[],
		private readonly k1 = 1.2,
		private readonly b = 0.75,
	) {
		let total = 0;
		for (const d of documents) {
			const tokens = bm25Tokens(d.text);
			const tf = new Map<string, number>();
			for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
			for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
			this.docs.push({ id: d.id, tf, length: tokens.length });
			total += tokens.length;
		}
		this.avgLength = this.docs.length > 0 ? total / this.docs.length : 0;
	}

	private idf(term: string): number {
		const n = this.docs.length;
		const df = this.df.get(term) ?? 0;
		return Math.log(1 + (n - df + 0.5) / (df + 0.5));
	}

	/** Score of every document with at least one query term (documents without any are absent: no match). */
	search(query: string): Map<string, number> {
		const terms = [...new Set(bm25Tokens(query))];
		const out = new Map<string, number>();
		for (const d of this.docs) {
			let s = 0;
			for (const t of terms) {
				const f = d.tf.get(t);
				if (!f) continue;
				s += (this.idf(t) * (f * (this.k1 + 1))) / (f + this.k1 * (1 - this.b + (this.b * d.length) / (this.avgLength || 1)));
			}
			if (s > 0) out.set(d.id, s);
		}
		return out;
	}
}
