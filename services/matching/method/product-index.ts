import { indexPrefixes } from "./codes.ts";
import { conceptKeys, coveredKeys, umbrellaKeys } from "./concepts.ts";
import { noticeProfile } from "./notice-profile.ts";
import { CatalogKinds, registerCatalog } from "./catalog-context.ts";
import { PostingIndex } from "./postings.ts";
import { asksCatalog, productProfile } from "./product-profile.ts";
import type { NoticeView, ProductView } from "./types.ts";

// Stage 1 for a new or amended notice: which of a company's products could it be about? The
// products are indexed by model keys, product-line identifiers, maker names, head nouns and the
// other words of their names, and commodity-code prefixes; a notice probes with its runs of
// tokens, its words and its codes. Discontinued products and products of de-authorized partners
// are not indexed at all, so they can never be candidates.

/** Weight of each kind of key: a model number says far more than a shared word. */
export const PRODUCT_KEY_WEIGHTS = { model: 10, line: 6, oem: 2, head: 4, word: 1, concept: 4 } as const;

function codeWeight(prefix: string): number {
	const [scheme, code = ""] = prefix.split(":");
	if (scheme === "UNSPSC" || scheme === "CPV") return code.length >= 8 ? 4 : code.length >= 5 ? 3 : 2;
	return 2;
}

export interface ProductCandidate {
	product: ProductView;
	/** Stage-1 score (sum of key weights). */
	retrieval: number;
}

export class ProductIndex {
	private index = new PostingIndex<ProductView>();
	/** Each company's tally of the kinds its products are read into (catalog-context.ts). */
	private catalogs = new Map<string, CatalogKinds>();
	/** Products whose concepts follow their catalog's other products. */
	private following = new Map<string, ProductView>();
	/** The version of each company's tally the following products' keys were last made at. */
	private keyedAt = new Map<string, number>();

	constructor(readonly options: { maxCandidates: number; minRetrieval: number } = { maxCandidates: 50, minRetrieval: 4 }) {}

	get size(): number {
		return this.index.size;
	}

	/** Posting entries walked by the last candidate query. */
	get lastVisited(): number {
		return this.index.lastVisited;
	}

	/** Index (or re-index) a product; one that may not count is removed instead. */
	upsert(product: ProductView): void {
		let catalog = this.catalogs.get(product.tenantId);
		if (!catalog) {
			catalog = new CatalogKinds();
			this.catalogs.set(product.tenantId, catalog);
			registerCatalog(product.tenantId, catalog);
		}
		const p = productProfile(product);
		if (p.excluded) {
			this.remove(product.productId, product.tenantId);
			return;
		}
		catalog.set(product.productId, p.ownKinds);
		this.put(product, catalog);
	}

	private put(product: ProductView, catalog: CatalogKinds): void {
		const p = productProfile(product);
		if (asksCatalog(product)) this.following.set(product.productId, product);
		else this.following.delete(product.productId);
		const keys: string[] = [];
		for (const k of [p.model.full, p.model.base]) if (k) keys.push(`m:${k}`);
		for (const k of [p.model.family, ...p.lineIds]) if (k) keys.push(`l:${k}`);
		for (const a of p.oemAliases) keys.push(`o:${a}`);
		for (const h of p.heads) keys.push(`h:${h}`);
		if (p.compoundHead) keys.push(`h:${p.compoundHead}`);
		if (p.modifier) keys.push(`w:${p.modifier}`);
		// The other words of the name order candidates that share the head noun.
		for (const w of p.nameWords) keys.push(`w:${w}`);
		for (const c of p.codes) for (const prefix of indexPrefixes(c)) keys.push(`c:${prefix}`);
		for (const c of p.concepts) keys.push(...conceptKeys(c), ...coveredKeys(c));
		this.index.put(product.productId, product, keys);
	}

	remove(productId: string, tenantId?: string): void {
		const tenant = tenantId ?? this.index.get(productId)?.tenantId;
		if (tenant !== undefined) this.catalogs.get(tenant)?.remove(productId);
		this.following.delete(productId);
		this.index.remove(productId);
	}

	/** Re-keys the products whose concepts follow their catalog, when it has changed since they were keyed. */
	private follow(): void {
		for (const [tenant, catalog] of this.catalogs) {
			if (this.keyedAt.get(tenant) === catalog.version) continue;
			for (const view of [...this.following.values()]) if (view.tenantId === tenant) this.put(view, catalog);
			this.keyedAt.set(tenant, catalog.version);
		}
	}

	/** The products a notice could be about, best first (bounded; never a scan of the whole catalog). */
	candidatesForNotice(notice: NoticeView, limit = this.options.maxCandidates): ProductCandidate[] {
		this.follow();
		const n = noticeProfile(notice);
		const probes = new Map<string, number>();
		const put = (key: string, w: number) => probes.set(key, Math.max(probes.get(key) ?? 0, w));
		for (const r of n.runs) {
			put(`m:${r}`, PRODUCT_KEY_WEIGHTS.model);
			put(`l:${r}`, PRODUCT_KEY_WEIGHTS.line);
			put(`o:${r}`, PRODUCT_KEY_WEIGHTS.oem);
		}
		// Words of the title and item lines count fully, words only in the description half.
		for (const seg of n.segments) {
			const f = seg.kind === "description" ? 0.5 : 1;
			for (const t of seg.bag) {
				put(`h:${t}`, PRODUCT_KEY_WEIGHTS.head * f);
				put(`w:${t}`, PRODUCT_KEY_WEIGHTS.word * f);
			}
		}
		for (const c of n.codes) for (const prefix of indexPrefixes(c)) put(`c:${prefix}`, codeWeight(prefix));
		for (const c of n.concepts) for (const k of [...conceptKeys(c), ...umbrellaKeys(c)]) put(k, PRODUCT_KEY_WEIGHTS.concept);
		return this.index.gather(probes, { limit, minScore: this.options.minRetrieval }).map((g) => ({ product: g.doc, retrieval: g.score }));
	}
}
