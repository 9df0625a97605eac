// Between services (not HTTP): what the catalog hands the matching service's indexer for a
// product (catalog.indexView / indexViews).

export interface SpecAttribute {
	key: string;
	value: string;
}

export interface ProductIndexView {
	tenantId: string;
	productId: string;
	/** The pending (or last) indexing request; pass it to catalog.markIndexed once indexed. */
	version: string;
	partner: { id: string; name: string; authorized: boolean };
	name: string;
	model: string | null;
	description: string | null;
	commodityCodes: string[];
	/** Untrusted catalog data: a bounded, deterministic subset of specs (see specsSubset). */
	specs: SpecAttribute[];
	repStatus: "carried" | "catalog";
	status: "active" | "discontinued";
	/** Active and under an authorized partner: only such products may influence matching. */
	matchable: boolean;
}
