import { compactRuns } from "./model-number.ts";
import { tokenize } from "./text.ts";

// The compact runs of a passage (model numbers and maker names in any spelling) were most of a
// notice profile's memory: some 12 KB of short strings per notice, 1.2 GB for 100,000 open
// notices, and the collector's pauses grew with them. A run set keeps only sorted 32-bit
// hashes; a hash hit is confirmed against the runs recomputed from the passages' text, so an
// answer is never a collision's. Hits are rare (a model or maker actually named), misses are a
// binary search.

/** FNV-1a over UTF-16 code units. */
export function runHash(s: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

export class RunSet implements Iterable<string> {
	private readonly hashes: Uint32Array;

	/** `runs`: the compact runs of `texts` (computed once by the caller, not kept). */
	constructor(
		private readonly texts: readonly string[],
		runs: Iterable<string>,
	) {
		const unique = new Set<number>();
		for (const r of runs) unique.add(runHash(r));
		this.hashes = Uint32Array.from(unique).sort();
	}

	static of(text: string): RunSet {
		return new RunSet([text], compactRuns(tokenize(text)));
	}

	get size(): number {
		return this.hashes.length;
	}

	has(key: string): boolean {
		return this.mayHave(runHash(key)) && this.exact().has(key);
	}

	[Symbol.iterator](): Iterator<string> {
		return this.exact()[Symbol.iterator]();
	}

	private mayHave(h: number): boolean {
		let lo = 0;
		let hi = this.hashes.length - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >>> 1;
			const v = this.hashes[mid]!;
			if (v === h) return true;
			if (v < h) lo = mid + 1;
			else hi = mid - 1;
		}
		return false;
	}

	private exact(): Set<string> {
		const out = new Set<string>();
		for (const t of this.texts) for (const r of compactRuns(tokenize(t))) out.add(r);
		return out;
	}
}
