import { join } from "node:path";
import { loadDevSet } from "../services/matching/method/eval/dev-set.ts";
import { type CompanyFigures, evaluate } from "../services/matching/method/eval/evaluate.ts";
import { syntheticNotices, syntheticProducts } from "../services/matching/method/eval/synthetic.ts";
import { NoticeIndex } from "../services/matching/method/notice-index.ts";
import { ProductIndex } from "../services/matching/method/product-index.ts";
import { scorePair } from "../services/matching/method/score-pair.ts";
import { scoreNoticeForTenant } from "../services/matching/method/score-tenant.ts";
import type { NoticeView, ProductView } from "../services/matching/method/types.ts";
import { DIGEST_MIN_SCORE } from "../services/matching/method/weights.ts";
import { asApi, foldOf } from "./matching-as-api.ts";

// Offline evaluation of the matching method (issue 5, items 5 and 6) without a running stack:
// stage 1 + stage 2 and a BM25 baseline over the labeled dev set, then a synthetic scale check
// showing that stage 1 keeps single matches far below a full scan.
//
//   node_modules/.bin/node --import tsx scripts/eval-matching-offline.ts [--set DIR] [--details] [--no-scale] [--min-score N] [--fold a|b] [--as-api]
//
// --as-api reads the notices as the service does (parseFeed, storage, matching's view with the signals)
// and applies what the engine applies after the method (the eligibility judgement that halves a barred
// company's score, no record under RECORD_MIN_SCORE), so that the figures are the API's without a stack.
// --fold a|b keeps one of two fixed halves of the set's notices (by a hash of the ocid): a change
// tuned while looking at one fold is checked on the other before it is trusted to generalize.

const args = process.argv.slice(2);
const details = args.includes("--details");
const minScoreArg = args.indexOf("--min-score");
const digestMinScore = minScoreArg >= 0 ? Number(args[minScoreArg + 1]) : DIGEST_MIN_SCORE;
const setArg = args.indexOf("--set");
const foldArg = args.indexOf("--fold");
const fold = foldArg >= 0 ? args[foldArg + 1] : undefined;
if (fold !== undefined && fold !== "a" && fold !== "b") throw new Error("--fold takes a or b");
const inFold = (ocid: string) => fold === undefined || foldOf(ocid) === fold;
const devDir = setArg >= 0 ? (args[setArg + 1] ?? "") : join(import.meta.dirname, "..", "..", "shared", "eval", "dev");

const f3 = (x: number) => x.toFixed(3);
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);
const short = (id: string) => id.replace(/^ocds-evaldev-/, "");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
// One row of the dev-set table: the method's columns, then the BM25 baseline's after a bar.
const METHOD_WIDTHS = [4, 5, 4, 4, 4, 7, 7, 7, 7, 7, 8];
const BM25_WIDTHS = [8, 7, 8];
const columns = (values: (string | number)[], widths: number[]) => values.map((v, i) => lpad(v, widths[i] ?? 0)).join("");
const tableRow = (label: string, method: (string | number)[], bm25Label: string, bm25: (string | number)[]) =>
	`${pad(label, 34)}${columns(method, METHOD_WIDTHS)}   | ${bm25Label}${columns(bm25, BM25_WIDTHS)}`;
type RowFigures = Pick<CompanyFigures, "digest" | "map" | "ndcg10"> & { bm25: { f1AllMatches: number; map: number; ndcg10: number } };
const figuresRow = (label: string, relevant: number, traps: number, x: RowFigures) => {
	const d = x.digest;
	const method = [relevant, d.tp + d.fp, d.tp, d.fp, d.fn, f3(d.precision), f3(d.recall), f3(d.f1), traps, f3(x.map), f3(x.ndcg10)];
	return tableRow(label, method, "    ", [f3(x.bm25.f1AllMatches), f3(x.bm25.map), f3(x.bm25.ndcg10)]);
};
const quantile = (xs: number[], q: number) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

function devSetReport(): void {
	const loaded = loadDevSet(devDir);
	const api = args.includes("--as-api") ? asApi(loaded, devDir) : null;
	const whole = api?.set ?? loaded;
	const set = {
		...whole,
		notices: whole.notices.filter((n) => inFold(n.view.noticeId)),
		qrels: whole.qrels.filter((q) => inFold(q.noticeId)),
	};
	const products = set.tenants.reduce((n, t) => n + t.products.length, 0);
	const matchable = set.tenants.reduce((n, t) => n + t.products.filter((p) => p.status === "active" && p.partnerAuthorized).length, 0);
	const cancelled = set.notices.filter((n) => n.cancelled).length;
	const amended = set.notices.filter((n) => n.releases > 1 && !n.cancelled).length;
	const e = evaluate(set, digestMinScore, api?.after);

	console.log(`Matching method, offline evaluation on ${devDir}${fold ? `, fold ${fold}` : ""}${api ? ", as the API" : ""}`);
	console.log(
		`  ${set.tenants.length} companies, ${products} products (${matchable} matchable: active, partner authorized), ` +
			`${set.notices.length} notices (${amended} amended, ${cancelled} cancelled), ${set.qrels.length} labeled rows`,
	);
	console.log(
		`  digest = opportunities with score >= ${digestMinScore} (DIGEST_MIN_SCORE); relevant = grade >= 2; cancelled notices never reach a digest and count as grade 0`,
	);
	console.log("");
	console.log(
		tableRow("company", ["rel", "dig", "TP", "FP", "FN", "P", "R", "F1", "traps", "MAP", "nDCG10"], "BM25", ["F1 all", "MAP", "nDCG10"]),
	);
	for (const c of e.companies) {
		console.log(figuresRow(c.tenantId.slice(0, 33), c.relevant, c.traps.length, c));
	}
	const o = e.overall;
	const relevant = e.companies.reduce((n, c) => n + c.relevant, 0);
	console.log(figuresRow("overall (pooled F1, mean MAP/nDCG)", relevant, o.traps, o));
	console.log("");
	console.log(
		`BM25 baseline (product names as saved searches): F1 when every match is alerted ${f3(o.bm25.f1AllMatches)}; ` +
			`best F1 with a threshold chosen after seeing the labels ${f3(o.bm25.bestF1)} (score >= ${o.bm25.bestThreshold.toFixed(2)}); ` +
			`MAP ${f3(o.bm25.map)}; nDCG@10 ${f3(o.bm25.ndcg10)}`,
	);
	console.log(
		`Method: digest F1 ${f3(o.digest.f1)} with ${o.traps} trap(s) in the digest; MAP ${f3(o.map)} (baseline ${f3(o.bm25.map)}); nDCG@10 ${f3(o.ndcg10)} (baseline ${f3(o.bm25.ndcg10)})`,
	);
	for (const c of e.companies) {
		const notes = [
			c.traps.length ? `traps in digest: ${c.traps.map(short).join(", ")}` : "",
			c.weak.length ? `grade-1 rows in digest: ${c.weak.map(short).join(", ")}` : "",
			c.missed.length ? `relevant not in digest: ${c.missed.map(short).join(", ")}` : "",
		].filter(Boolean);
		if (notes.length) console.log(`  ${c.tenantId}: ${notes.join("; ")}`);
	}
	console.log("");
	const s1 = e.stage1;
	console.log(
		`Stage 1: ${s1.retrieved} of ${s1.relevantPairs} relevant (grade >= 2) company-notice pairs had a candidate product (${((100 * s1.retrieved) / Math.max(1, s1.relevantPairs)).toFixed(1)}%)`,
	);
	console.log(
		`Timing (dev set): index ${products} products of ${set.tenants.length} companies ${ms(e.timing.indexMs)}; ` +
			`stage 1 + stage 2 for ${set.tenants.length} x ${set.notices.length} (company, notice) pairs ${ms(e.timing.scoreMs)} ` +
			`(${e.timing.candidates} candidate products scored, of ${matchable * set.notices.length} possible product-notice pairs)`,
	);

	if (details) {
		const grade = new Map(set.qrels.map((q) => [`${q.tenantId}|${q.noticeId}`, q.grade]));
		for (const t of set.tenants) {
			console.log(`\n${t.tenantId}: opportunities scored >= 30`);
			const rows = [...(e.results.get(t.tenantId) ?? new Map()).entries()]
				.filter(([, r]) => r.score >= 30)
				.sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1));
			for (const [id, r] of rows) {
				const g = grade.get(`${t.tenantId}|${id}`);
				console.log(
					`  ${lpad(r.score, 3)} ${short(id)} grade ${g ?? "-"} ${r.bestProduct ? `${r.bestProduct.model ?? r.bestProduct.name}` : ""}`,
				);
				for (const x of r.rationale.slice(0, 4)) console.log(`        ${x.points > 0 ? "+" : ""}${x.points} ${x.feature}: ${x.detail}`);
			}
		}
	}
}

function scaleCheck(): void {
	console.log("");
	console.log("Scale check (synthetic, small vocabulary: 15 product kinds, 12 makers)");
	const heap0 = process.memoryUsage().heapUsed;

	// One company of 1,000 products against 10,000 notices.
	const products = syntheticProducts("tenant-000", 1000, 11);
	let t = performance.now();
	const notices = syntheticNotices(10_000, 12, products);
	const noticeIndex = new NoticeIndex();
	for (const n of notices) noticeIndex.upsert(n);
	console.log(`  notice index: ${notices.length} notices in ${ms(performance.now() - t)}`);

	const sample = products.filter((p) => p.status === "active" && p.partnerAuthorized).slice(0, 200);
	const perProduct: number[] = [];
	const candidateCounts: number[] = [];
	for (const p of sample) {
		const t0 = performance.now();
		const cands = noticeIndex.candidatesForProduct(p);
		for (const c of cands) scorePair(p, c.notice);
		perProduct.push(performance.now() - t0);
		candidateCounts.push(cands.length);
	}
	const full: number[] = [];
	for (const p of sample.slice(0, 10)) {
		const t0 = performance.now();
		for (const n of notices) scorePair(p, n);
		full.push(performance.now() - t0);
	}
	console.log(
		`  one product vs all ${notices.length} notices, stage 1 + stage 2: ` +
			`p50 ${ms(quantile(perProduct, 0.5))}, p99 ${ms(quantile(perProduct, 0.99))} (${sample.length} products; ` +
			`mean ${Math.round(mean(candidateCounts))} candidates, max ${Math.max(...candidateCounts)}); ` +
			`full scan for comparison: p50 ${ms(quantile(full, 0.5))}`,
	);

	// One notice against 100 companies of 1,000 products each.
	t = performance.now();
	const indexes: { tenantId: string; index: ProductIndex }[] = [];
	const allProducts: ProductView[] = [];
	for (let i = 0; i < 100; i++) {
		const tenantId = `tenant-${String(i).padStart(3, "0")}`;
		const ps = i === 0 ? products : syntheticProducts(tenantId, 1000, 1000 + i);
		const index = new ProductIndex();
		for (const p of ps) index.upsert(p);
		indexes.push({ tenantId, index });
		allProducts.push(...ps);
	}
	console.log(`  product indexes: 100 companies x 1,000 products in ${ms(performance.now() - t)}`);
	const probe: NoticeView[] = notices.slice(0, 100);
	const perNotice: number[] = [];
	const perTenantCandidates: number[] = [];
	let digests = 0;
	for (const n of probe) {
		const t0 = performance.now();
		for (const { index } of indexes) {
			const cands = index.candidatesForNotice(n);
			perTenantCandidates.push(cands.length);
			if (cands.length === 0) continue;
			if (
				scoreNoticeForTenant(
					cands.map((c) => c.product),
					n,
				).score >= DIGEST_MIN_SCORE
			)
				digests++;
		}
		perNotice.push(performance.now() - t0);
	}
	const fullNotice: number[] = [];
	for (const n of probe.slice(0, 3)) {
		const t0 = performance.now();
		for (const p of allProducts) scorePair(p, n);
		fullNotice.push(performance.now() - t0);
	}
	console.log(
		"  one notice vs 100 companies (100,000 products), stage 1 + stage 2: " +
			`p50 ${ms(quantile(perNotice, 0.5))}, p99 ${ms(quantile(perNotice, 0.99))} (${probe.length} notices; ` +
			`mean ${mean(perTenantCandidates).toFixed(1)} candidates per company; ${digests} company digests); ` +
			`full scan for comparison: p50 ${ms(quantile(fullNotice, 0.5))}`,
	);
	console.log(`  heap in use after the scale check: ${Math.round((process.memoryUsage().heapUsed - heap0) / 1e6)} MB more than before it`);
}

devSetReport();
if (!args.includes("--no-scale")) scaleCheck();
