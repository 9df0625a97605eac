// Why: a reseller's catalog is specialised. Where a product's own words leave its kind of goods
// open (its phrase names no CPV label, or one word names a kind far from anything else the company
// sells: a "pencil" in a catalog of electrosurgical and dialysis goods), the CPV groups and
// divisions its company's other products are surely read into say which reading is meant (issue 16).
// The company's products are indexed together (product-index.ts), so the index keeps this tally;
// a product's profile reads it through the registry below, by the company's id.

/** What a product's concepts may ask of its catalog: how much of the company's other products lies under a CPV prefix. */
export interface CatalogContext {
	/** Share (0..1) of the company's other products surely read under this CPV prefix (2 digits: division, 3: group). */
	share(prefix: string): number;
	/** The largest share any one prefix of this many digits holds (how specialised the catalog is). */
	largest(digits: number): number;
}

/** The CPV groups (3 digits) each of a company's indexed products is surely read into, from its codes and the labels its words name. */
export class CatalogKinds {
	private kinds = new Map<string, readonly string[]>();
	/** Changes whenever a product's kinds do: profiles that asked the context read it again. */
	version = 0;

	/** The product whose change made the current version: what it sees of its catalog (the others) did not change. */
	lastChanged: string | null = null;

	set(productId: string, groups: readonly string[]): void {
		const before = this.kinds.get(productId);
		if (before && before.length === groups.length && before.every((g, i) => g === groups[i])) return;
		this.kinds.set(productId, groups);
		this.version++;
		this.lastChanged = productId;
	}

	remove(productId: string): void {
		if (!this.kinds.delete(productId)) return;
		this.version++;
		this.lastChanged = productId;
	}

	/** Whether what a product sees of its catalog is still as it was at a version. */
	sameFor(productId: string, version: number): boolean {
		return version === this.version || (version === this.version - 1 && this.lastChanged === productId);
	}

	/** The context one product sees: the company's other products. */
	contextFor(productId: string): CatalogContext {
		return {
			share: (prefix) => this.shareOf(prefix, productId),
			largest: (digits) => this.largestOf(digits, productId),
		};
	}

	private counted = -1;
	private counts = new Map<string, number>();

	/** How many products hold each division and group, counted once per version. */
	private tally(): Map<string, number> {
		if (this.counted !== this.version) {
			this.counts = new Map();
			for (const groups of this.kinds.values())
				for (const p of new Set(groups.flatMap((g) => [g.slice(0, 2), g.slice(0, 3)]))) this.counts.set(p, (this.counts.get(p) ?? 0) + 1);
			this.counted = this.version;
		}
		return this.counts;
	}

	private shareOf(prefix: string, except: string): number {
		const own = this.kinds.get(except);
		const n = this.kinds.size - (own ? 1 : 0);
		if (n <= 0) return 0;
		const held = (this.tally().get(prefix) ?? 0) - (own?.some((g) => g.startsWith(prefix)) ? 1 : 0);
		return held / n;
	}

	private largestOf(digits: number, except: string): number {
		let best = 0;
		for (const p of this.tally().keys()) if (p.length === digits) best = Math.max(best, this.shareOf(p, except));
		return best;
	}
}

// One tally per company: the index that holds a company's products registers it (the last one made wins).
const registry = new Map<string, CatalogKinds>();

export function registerCatalog(tenantId: string, kinds: CatalogKinds): void {
	registry.set(tenantId, kinds);
}

export function catalogOf(tenantId: string): CatalogKinds | undefined {
	return registry.get(tenantId);
}

/** No catalog known: every share is 0, so nothing is settled by it. */
export const NO_CONTEXT: CatalogContext = { share: () => 0, largest: () => 0 };

/** A context that tells `onAsk` when it is asked anything (a profile whose concepts asked must follow its catalog). */
export function noting(context: CatalogContext | undefined, onAsk: () => void): CatalogContext {
	return {
		share: (prefix) => {
			onAsk();
			return context?.share(prefix) ?? 0;
		},
		largest: (digits) => {
			onAsk();
			return context?.largest(digits) ?? 0;
		},
	};
}
