// The matching method of issue 5 as pure modules: stage 1 (inverted indexes), stage 2 (readable
// pair scores), company-level aggregation, and the BM25 baseline used to judge it.

import { warmLabelIndexes } from "../../../shared/taxonomy/label-index.ts";
import { umbrellasCovering } from "../../../shared/taxonomy/umbrella.ts";
import { cpvBreadth } from "./concepts.ts";

export { Bm25 } from "./bm25.ts";
export { bestAgreement, parseCode } from "./codes.ts";
export { compactKey, modelKeys } from "./model-number.ts";
export { assessNature } from "./nature.ts";
export { NoticeIndex } from "./notice-index.ts";
export { ProductIndex } from "./product-index.ts";
export { scorePair } from "./score-pair.ts";
export { scoreNoticeForTenant } from "./score-tenant.ts";
export type { BestProduct, NoticeView, PairScore, ProductView, RationaleEntry, TenantNoticeScore } from "./types.ts";
export { DIGEST_MIN_SCORE, FACTORS, POINTS } from "./weights.ts";

/** Builds the method's lazily built tables (label indexes, CPV breadths, the class labels' kinds) now, at a worker's start. */
export function warmMatchingMethod(): void {
	warmLabelIndexes(["en"]);
	cpvBreadth("301");
	umbrellasCovering("32341000");
}
