// Issue 16 step 9: a learned weighting of the scorer's existing features, fitted on a labeled set's tuning
// part (services/matching/method/fit.ts says what the model is). It reads every (company, notice) pair as the
// API would score it (the offline evaluation's --as-api path), keeps each candidate product's rationale as
// features, then checks the fit by folds: fit on a, measure on b, and the other way round, against the
// hand-set scorer on the same fold. Only if the fit wins on both held-out folds (F1 at the digest line and
// MAP, neither at the other's cost) does --out FILE write the model fitted on the whole set, as data for the
// scorer. On eval/real/tune it has not won (services/matching/method/README.md): the scorer reads no fit.
//
//   node_modules/.bin/tsx scripts/fit-matching.ts [--set eval/real/tune] [--split] [--by-language] [--lambda X] [--out FILE] [--signatures]
//       [--evidence [--evidence-only]] [--details a|b]
//
// --split gives the kind agreement and the type overlap one weight per place they were read (the notice's
// CPV code, another scheme's code, its words; title, item line, description). The regularisation strength
// is chosen inside the training fold (two inner halves by another hash, by log loss), never by looking at
// the held-out fold. --evidence adds each pair's evidence (services/matching/method/evidence.ts: what the
// kind agreement rests on, what the notice's words say of the product's kind) as weights the fit may move
// from 0; --evidence-only fits those alone, the scorer's own weights kept. --details a|b prints one fold's
// pairs near the line with their evidence, to design on that fold and check on the other.

import { writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { BARRED_FACTOR, RECORD_MIN_SCORE } from "../services/matching/engine.ts";
import { loadDevSet } from "../services/matching/method/eval/dev-set.ts";
import {
	type FitModel,
	type FitRow,
	type FoldFigures,
	IDENTITY,
	featureNames,
	figures,
	fitModel,
	logLoss,
	pairFeatures,
	scoreRow,
	toWeightsFile,
} from "../services/matching/method/fit.ts";
import { EVIDENCE, pairEvidence } from "../services/matching/method/evidence.ts";
import { noticeProfile } from "../services/matching/method/notice-profile.ts";
import { ProductIndex } from "../services/matching/method/product-index.ts";
import { scorePair } from "../services/matching/method/score-pair.ts";
import { scoreNoticeForTenant } from "../services/matching/method/score-tenant.ts";
import type { RationaleEntry } from "../services/matching/method/types.ts";
import { FACTORS } from "../services/matching/method/weights.ts";
import { asApi, foldOf } from "./matching-as-api.ts";

const args = process.argv.slice(2);
const arg = (name: string) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};
const setDir = arg("--set") ?? join("eval", "real", "tune");
const out = arg("--out");
const fixedLambda = arg("--lambda") !== undefined ? Number(arg("--lambda")) : undefined;
const LAMBDAS = [0.1, 0.3, 1, 3, 10, 30, 100];

/**
 * --split: the kind agreement and the type overlap by where they were read (the notice's own CPV code,
 * another scheme, words; title, item line, description).
 */
const split = args.includes("--split");
/** --by-language: the kind agreement and the type overlap in English notices and in others (concepts alone carry the kind there). */
const byLanguage = args.includes("--by-language");
/** --evidence: each pair's evidence as weights the fit may move from 0; --evidence-only: those alone. */
const evidenceOnly = args.includes("--evidence-only");
const withEvidence = evidenceOnly || args.includes("--evidence");
const detailsFold = arg("--details");
function subKey(e: RationaleEntry, language: string): string {
	const key = splitKey(e);
	return byLanguage && (e.feature === "concept_agreement" || e.feature === "product_type_overlap")
		? `${key}:${language === "en" ? "en" : "other"}`
		: key;
}
function splitKey(e: RationaleEntry): string {
	if (!split) return e.feature;
	if (e.feature === "concept_agreement") {
		const from = /notice \S+ from (\S+)/.exec(e.detail)?.[1];
		const sub = e.detail.includes("the same kind of goods")
			? "codes"
			: e.detail.includes("class of goods covers")
				? "class"
				: from === "CPV"
					? "cpv"
					: from?.startsWith('"')
						? "words"
						: "crosswalk";
		return `${e.feature}:${sub}`;
	}
	if (e.feature === "product_type_overlap") return `${e.feature}:${e.detail.split(" ")[0]}`;
	return e.feature;
}

/** Every (company, notice) pair of the set, with features read under the hand-set weights. */
function readRows(): FitRow[] {
	const { set, after } = asApi(loadDevSet(setDir), setDir);
	const cancelled = new Set(set.notices.filter((n) => n.cancelled).map((n) => n.view.noticeId));
	const grade = new Map(set.qrels.map((q) => [`${q.tenantId}|${q.noticeId}`, q.cancelled ? 0 : q.grade]));
	const rows: FitRow[] = [];
	let mismatched = 0;
	for (const t of set.tenants) {
		const index = new ProductIndex();
		for (const p of t.products) index.upsert(p);
		for (const n of set.notices) {
			const id = n.view.noticeId;
			const row: FitRow = {
				tenantId: t.tenantId,
				noticeId: id,
				grade: cancelled.has(id) ? 0 : (grade.get(`${t.tenantId}|${id}`) ?? 0),
				products: [],
				breadth: 0,
				companyFactors: {},
				barredFactor: 1,
				recordMin: RECORD_MIN_SCORE,
			};
			rows.push(row);
			if (cancelled.has(id)) continue;
			const found = index.candidatesForNotice(n.view).map((c) => c.product);
			const language = noticeProfile(n.view).language;
			for (const p of found) {
				const pair = scorePair(p, n.view);
				if (pair.excluded) continue;
				const features = pairFeatures(pair.rationale, (e) => subKey(e, language));
				// Only what is there: zeros weigh nothing and would slow every step of the fit.
				if (withEvidence) features.evidence = Object.fromEntries(Object.entries(pairEvidence(p, n.view)).filter(([, x]) => x !== 0));
				row.products.push(features);
			}
			const scored = scoreNoticeForTenant(found, n.view);
			for (const e of scored.rationale)
				if (e.feature === "more_lines_covered") row.breadth = e.points;
				else if (e.feature === "all_or_none_main_item_missing") row.companyFactors[e.feature] = FACTORS.allOrNoneUncovered;
			const probe = after(t.tenantId, id, { score: 100, bestProduct: scored.bestProduct ?? null, rationale: [] });
			if (scored.bestProduct && probe.score < 100) row.barredFactor = BARRED_FACTOR;
			const expected = after(t.tenantId, id, scored).score;
			if (scoreRow(row, IDENTITY) !== expected) mismatched++;
		}
	}
	console.log(`${rows.length} (company, notice) pairs read; ${mismatched} whose score the features do not reproduce exactly`);
	return rows;
}

/** Two inner halves of a training fold, by a hash other than the folds'. */
const inner = (noticeId: string) => createHash("sha256").update(`inner:${noticeId}`).digest()[0]! % 2 === 0;

function chooseLambda(train: FitRow[]): number {
	if (fixedLambda !== undefined) return fixedLambda;
	const halves = [train.filter((r) => inner(r.noticeId)), train.filter((r) => !inner(r.noticeId))] as const;
	let best = { lambda: LAMBDAS[0] ?? 1, loss: Number.POSITIVE_INFINITY };
	for (const lambda of LAMBDAS) {
		const loss =
			logLoss(halves[1], fitModel(halves[0], { lambda, evidenceOnly })) + logLoss(halves[0], fitModel(halves[1], { lambda, evidenceOnly }));
		if (loss < best.loss) best = { lambda, loss };
	}
	return best.lambda;
}

const f3 = (x: number) => x.toFixed(3);
const line = (label: string, f: FoldFigures) => {
	const share = f.digest ? ((100 * f.grade0) / f.digest).toFixed(0) : 0;
	const figs = `F1 ${f3(f.f1)} (P ${f3(f.precision)}, R ${f3(f.recall)})  MAP ${f3(f.map)}`;
	return `  ${label.padEnd(34)} ${figs}  digest ${String(f.digest).padStart(3)}, grade 0 ${f.grade0} (${share}%)`;
};

function describe(m: FitModel): string {
	const pts = Object.entries(m.points).map(([f, v]) => `${f} x${v.toFixed(2)}`);
	const fac = Object.entries(m.factorPowers).map(([f, v]) => `${f} ^${v.toFixed(2)}`);
	const ev = Object.entries(m.evidence ?? {}).map(([f, v]) => `${f} ${v >= 0 ? "+" : ""}${v.toFixed(2)}`);
	const evidence = ev.length > 0 ? `\n    evidence (log scale): ${ev.join(", ")}` : "";
	return `    slope ${m.slope.toFixed(2)}/10 points; points: ${pts.join(", ")}\n    factors: ${fac.join(", ")}${evidence}`;
}

const rows = readRows();
const names = featureNames(rows);
console.log(`features: ${[...names.points].map(([f, n]) => `${f} ${n}`).join(", ")}`);
console.log(`factors: ${[...names.factors].map(([f, n]) => `${f} ${n}`).join(", ")}`);
if (withEvidence) console.log(`evidence: ${[...names.evidence].map(([f, n]) => `${f} ${n}`).join(", ")}`);
const folds = { a: rows.filter((r) => foldOf(r.noticeId) === "a"), b: rows.filter((r) => foldOf(r.noticeId) === "b") };
let wins = true;
for (const [train, test] of [
	["a", "b"],
	["b", "a"],
] as const) {
	const lambda = chooseLambda(folds[train]);
	const m = fitModel(folds[train], { lambda, evidenceOnly });
	const before = figures(folds[test], IDENTITY);
	const afterFit = figures(folds[test], m);
	console.log(`\nfit on fold ${train} (lambda ${lambda}, chosen inside fold ${train}), measured on fold ${test}:`);
	console.log(line(`fold ${test}, hand-set weights`, before));
	console.log(line(`fold ${test}, fitted on ${train}`, afterFit));
	console.log(line(`fold ${train} (training), fitted`, figures(folds[train], m)));
	console.log(describe(m));
	// A gain in one figure does not pay for a loss in the other.
	if (afterFit.f1 < before.f1 || afterFit.map < before.map || afterFit.f1 + afterFit.map <= before.f1 + before.map) wins = false;
}
// The simplest calibration, a monotone map of today's score: it leaves every ranking (MAP) as it is and
// moves only the digest line, to where F1 peaks on the training fold.
for (const [train, test] of [
	["a", "b"],
	["b", "a"],
] as const) {
	let best = { line: 60, f1: figures(folds[train], IDENTITY).f1 };
	for (let l = 40; l <= 80; l++) {
		const f = figures(folds[train], IDENTITY, l).f1;
		if (f > best.f1 + 1e-9 || (Math.abs(f - best.f1) < 1e-9 && Math.abs(l - 60) < Math.abs(best.line - 60))) best = { line: l, f1: f };
	}
	console.log(`\nmonotone calibration: line at ${best.line} on fold ${train} (F1 ${f3(best.f1)}), measured on fold ${test}:`);
	console.log(line(`fold ${test}, line 60`, figures(folds[test], IDENTITY)));
	console.log(line(`fold ${test}, line ${best.line}`, figures(folds[test], IDENTITY, best.line)));
}
console.log(`\nfold check: ${wins ? "the fit beats the hand-set weights on both held-out folds" : "no held-out gain on both folds"}`);
const lambda = chooseLambda(rows);
const whole = fitModel(rows, { lambda, evidenceOnly });
console.log(`\nfit on the whole set (lambda ${lambda}):`);
console.log(line("whole, hand-set weights", figures(rows, IDENTITY)));
console.log(line("whole, fitted (in-sample)", figures(rows, whole)));
console.log(describe(whole));
if (out !== undefined) {
	if (!wins) console.log(`not written to ${out}: the fold check failed`);
	else {
		const about =
			`Written by scripts/fit-matching.ts${split ? " --split" : ""}${byLanguage ? " --by-language" : ""}` +
			`${withEvidence ? (evidenceOnly ? " --evidence-only" : " --evidence") : ""} over ${setDir} (${rows.length} company-notice pairs), ` +
			`${new Date().toISOString().slice(0, 10)}: logistic fit of grade 2 on the score, L2 towards the hand-set weights ` +
			`(lambda ${lambda}), after beating them on both held-out folds; do not edit by hand, rerun the script.`;
		writeFileSync(out, `${JSON.stringify(toWeightsFile(whole, about), null, "\t")}\n`);
		console.log(`written: ${out}`);
	}
}

// --signatures: which features the company's best product scored with, for hits, misses, false positives and
// the non-relevant pairs just under the line. Pairs that share one signature differ only in those features'
// values; where most of them carry one feature alone, no reweighting can separate them.
if (args.includes("--signatures")) {
	const signature = (r: FitRow) => {
		let best = { score: -1, features: "" };
		for (const p of r.products) {
			const score = scoreRow({ ...r, products: [p] }, IDENTITY);
			if (score > best.score) best = { score, features: [...Object.keys(p.points), ...Object.keys(p.factors)].sort().join(" + ") };
		}
		return best.features || "(no candidate)";
	};
	const tally = new Map<string, number[]>();
	for (const r of rows) {
		const s = scoreRow(r, IDENTITY);
		const kind = r.grade >= 2 ? (s >= 60 ? "hit" : "missed") : s >= 60 ? "false positive" : s >= 40 ? "not relevant, 40-59" : "";
		if (kind) tally.set(`${kind}: ${signature(r)}`, [...(tally.get(`${kind}: ${signature(r)}`) ?? []), s]);
	}
	console.log("\nbest product's features (whole set, hand-set weights): pairs, their scores");
	for (const [k, v] of [...tally].sort()) console.log(`  ${k}: ${v.length} (${v.sort((a, b) => a - b).join(" ")})`);
}

// --details a|b: one fold's pairs scored 30 or more or graded 2, with the best product's evidence (short names),
// to design a rule on that fold alone and check it on the other.
if (detailsFold === "a" || detailsFold === "b") {
	const short = (k: string) => k.replace(/^ev_/, "");
	console.log(`\nfold ${detailsFold}: grade, score, features of the best product | evidence (non-zero)`);
	const listed = rows
		.filter((r) => foldOf(r.noticeId) === detailsFold)
		.map((r) => ({ r, s: scoreRow(r, IDENTITY) }))
		.filter(({ r, s }) => s >= 30 || r.grade >= 2)
		.sort((x, y) => y.s - x.s);
	for (const { r, s } of listed) {
		let best: { score: number; p: (typeof r.products)[number] | null } = { score: -1, p: null };
		for (const p of r.products) {
			const one = scoreRow({ ...r, products: [p] }, IDENTITY);
			if (one > best.score) best = { score: one, p };
		}
		const feats = best.p ? [...Object.keys(best.p.points), ...Object.keys(best.p.factors)].sort().join("+") : "(none)";
		const ev = best.p?.evidence
			? EVIDENCE.filter((k) => (best.p?.evidence?.[k] ?? 0) !== 0)
					.map((k) => `${short(k)}=${(best.p?.evidence?.[k] ?? 0).toFixed(2).replace(/\.00$/, "")}`)
					.join(" ")
			: "";
		console.log(`  g${r.grade} ${String(s).padStart(3)} ${r.tenantId.padEnd(10).slice(0, 10)} ${feats} | ${ev}`);
	}
}
