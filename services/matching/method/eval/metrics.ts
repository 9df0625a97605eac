// Retrieval and alerting measures for the offline evaluation. Rankings are lists of ids, best
// first; relevance is graded (0..3).

export interface Counts {
	tp: number;
	fp: number;
	fn: number;
}

export function f1(c: Counts): { precision: number; recall: number; f1: number } {
	const precision = c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
	const recall = c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
	return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Alert set against the relevant set. */
export function counts(alerted: ReadonlySet<string>, relevant: ReadonlySet<string>): Counts {
	let tp = 0;
	for (const id of alerted) if (relevant.has(id)) tp++;
	return { tp, fp: alerted.size - tp, fn: relevant.size - tp };
}

/** Average precision of a ranking (relevant items never ranked count as misses). */
export function averagePrecision(ranking: readonly string[], relevant: ReadonlySet<string>): number {
	if (relevant.size === 0) return 0;
	let hits = 0;
	let sum = 0;
	ranking.forEach((id, i) => {
		if (relevant.has(id)) {
			hits++;
			sum += hits / (i + 1);
		}
	});
	return sum / relevant.size;
}

/** nDCG@k with graded gains 2^grade - 1. */
export function ndcgAt(ranking: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
	const gain = (g: number) => 2 ** g - 1;
	let dcg = 0;
	ranking.slice(0, k).forEach((id, i) => {
		dcg += gain(grades.get(id) ?? 0) / Math.log2(i + 2);
	});
	const ideal = [...grades.values()].sort((a, b) => b - a).slice(0, k);
	let idcg = 0;
	ideal.forEach((g, i) => {
		idcg += gain(g) / Math.log2(i + 2);
	});
	return idcg === 0 ? 0 : dcg / idcg;
}

/** Ids by score, best first; ties by id so the ranking is deterministic. */
export function rankByScore(scores: ReadonlyMap<string, number>): string[] {
	return [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([id]) => id);
}

/** The best F1 over every threshold (chosen after seeing the labels: an upper bound, not a setting). */
export function bestThresholdF1(scores: ReadonlyMap<string, number>, relevant: ReadonlySet<string>): { threshold: number; f1: number } {
	const thresholds = [...new Set(scores.values())].sort((a, b) => a - b);
	let best = { threshold: Number.POSITIVE_INFINITY, f1: 0 };
	for (const t of thresholds) {
		const alerted = new Set([...scores.entries()].filter(([, s]) => s >= t).map(([id]) => id));
		const r = f1(counts(alerted, relevant)).f1;
		if (r > best.f1) best = { threshold: t, f1: r };
	}
	return best;
}
