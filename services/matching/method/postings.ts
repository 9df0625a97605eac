// A small inverted index: key -> documents, with removal and bounded gathering. Retrieval only
// walks the posting lists of the probed keys, so its cost grows with how common those keys
// are, not with the size of the collection; lists of very common keys can be skipped.

export class PostingIndex<Doc> {
	private docs: (Doc | undefined)[] = [];
	private ids: (string | undefined)[] = [];
	private slot = new Map<string, number>();
	private keysOf: (string[] | undefined)[] = [];
	private lists = new Map<string, number[]>();
	private dead = 0;
	/** Posting entries the last gather walked (to show retrieval cost does not grow with the collection). */
	lastVisited = 0;

	get size(): number {
		return this.slot.size;
	}

	/** Insert or replace a document under its keys. */
	put(id: string, doc: Doc, keys: Iterable<string>): void {
		this.remove(id);
		const n = this.docs.length;
		const unique = [...new Set(keys)];
		this.docs.push(doc);
		this.ids.push(id);
		this.keysOf.push(unique);
		this.slot.set(id, n);
		for (const k of unique) {
			const list = this.lists.get(k);
			if (list) list.push(n);
			else this.lists.set(k, [n]);
		}
	}

	remove(id: string): void {
		const n = this.slot.get(id);
		if (n === undefined) return;
		this.slot.delete(id);
		this.docs[n] = undefined;
		this.ids[n] = undefined;
		this.keysOf[n] = undefined;
		this.dead++;
		if (this.dead > 64 && this.dead > this.slot.size) this.compact();
	}

	get(id: string): Doc | undefined {
		const n = this.slot.get(id);
		return n === undefined ? undefined : this.docs[n];
	}

	/** How many documents a key has (dead ones included until compaction). */
	frequency(key: string): number {
		return this.lists.get(key)?.length ?? 0;
	}

	/**
	 * Sum the weights of the probed keys per document and return the best `limit` documents
	 * scoring at least `minScore` (ties by id). Keys whose lists are longer than `maxList` are skipped.
	 */
	gather(
		probes: ReadonlyMap<string, number>,
		options: { limit: number; minScore: number; maxList?: (key: string) => number },
	): { id: string; doc: Doc; score: number; keys: string[] }[] {
		const acc = new Map<number, { score: number; keys: string[] }>();
		this.lastVisited = 0;
		for (const [key, weight] of probes) {
			const list = this.lists.get(key);
			if (!list) continue;
			if (options.maxList && list.length > options.maxList(key)) continue;
			this.lastVisited += list.length;
			for (const n of list) {
				if (this.docs[n] === undefined) continue;
				const a = acc.get(n);
				if (a) {
					a.score += weight;
					a.keys.push(key);
				} else acc.set(n, { score: weight, keys: [key] });
			}
		}
		const out: { id: string; doc: Doc; score: number; keys: string[] }[] = [];
		for (const [n, a] of acc) {
			const doc = this.docs[n];
			const id = this.ids[n];
			if (a.score >= options.minScore && doc !== undefined && id !== undefined) out.push({ id, doc, score: a.score, keys: a.keys });
		}
		out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		return out.slice(0, options.limit);
	}

	private compact(): void {
		const docs = this.docs;
		const ids = this.ids;
		const keysOf = this.keysOf;
		this.docs = [];
		this.ids = [];
		this.keysOf = [];
		this.slot = new Map();
		this.lists = new Map();
		this.dead = 0;
		docs.forEach((doc, n) => {
			const id = ids[n];
			const keys = keysOf[n];
			if (doc !== undefined && id !== undefined && keys) this.put(id, doc, keys);
		});
	}
}
