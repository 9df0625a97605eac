// Normalized copies of catalog text: what uniqueness, re-posting a partner and `q` compare.
// Stored beside the original because FerretDB has no collation indexes (DESIGN.md, rule 6).

/** Unicode-normalized, lower-cased, every run of whitespace one space, trimmed. */
export const fold = (s: string): string => s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

/** A partner name compared case- and space-insensitively: " HEWLETT  packard" and "HewlettPackard" are one partner. */
export const partnerKey = (name: string): string => fold(name).replaceAll(" ", "");

/** The (partner, name, model) identity of a product within its company; JSON so no separator can be forged. */
export const productKey = (tenantId: string, partnerId: string, name: string, model: string | null): string =>
	JSON.stringify([tenantId, partnerId, fold(name), model === null ? null : fold(model)]);

/** What `q` searches: name, model, description and the partner's name. */
export const searchText = (parts: Array<string | null>): string => fold(parts.filter((p): p is string => !!p).join("\n"));
