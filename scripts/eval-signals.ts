// Measures the heuristic signals extractor against the labeled dev set (../shared/eval/dev).
//   node_modules/.bin/node --import tsx scripts/eval-signals.ts [--errors] [--ingested]
// Each tender ocid is built from its first `tender` release only (signals follow the original
// tender text; amendments and cancellations are ignored). By default the extractor gets the
// release's text, items, codes and eligibility criteria, the fields the set's labels were written
// from ("open only when the notice says so"); --ingested builds the input the way production does
// (parseFeed, storage, matching's view), which adds the structured procedure (procurementMethod)
// and contract nature (mainProcurementCategory) that the labels did not read. Prints per-field accuracy, precision /
// recall / F1 over certification items, a token-overlap measure for actual_product_category, an
// overall figure and the confusion matrices of bid_eligibility and procurement_nature.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BidEligibility, ProcurementNature, Signals } from "../shared/contract/opportunities.ts";
import { extractSignals } from "../services/matching/signals/extract.ts";
import type { SignalsInput } from "../services/matching/signals/input.ts";
import type { NoticeForMatching } from "../shared/contract/internal/opportunities-actions.ts";
import { signalsInput } from "../services/matching/views.ts";
import { parseFeed } from "../services/opportunities/feeds/detect.ts";
import type { NormalizedNotice } from "../services/opportunities/feeds/notice.ts";
import { mergeVersion } from "../services/opportunities/feeds/versions.ts";
import { storedFields } from "../services/opportunities/ingest.ts";
import type { NoticeDoc } from "../services/opportunities/models.ts";
import { noticeForMatching } from "../services/opportunities/notices.ts";

export const DEV_DIR = path.resolve(import.meta.dirname, "..", "..", "shared", "eval", "dev");

type Gold = Omit<Signals, "summary">;

interface OcdsItem {
	description?: string;
	quantity?: number;
	unit?: { name?: string };
	classification?: { scheme?: string; id?: string };
	additionalClassifications?: { scheme?: string; id?: string }[];
}
interface OcdsRelease {
	ocid: string;
	tag?: string[];
	buyer?: { name?: string };
	tender?: {
		title?: string;
		description?: string;
		eligibilityCriteria?: string;
		items?: OcdsItem[];
	};
}

/** The extractor input of an OCDS tender release. */
export function inputFromRelease(r: OcdsRelease): SignalsInput {
	const t = r.tender ?? {};
	const items = t.items ?? [];
	const categories: { scheme: string; code: string }[] = [];
	for (const it of items) {
		for (const c of [it.classification, ...(it.additionalClassifications ?? [])]) {
			if (c?.scheme && c.id) categories.push({ scheme: c.scheme, code: c.id });
		}
	}
	return {
		title: t.title ?? "",
		description: t.description ?? "",
		items: items.map((it) => ({ description: it.description ?? "", quantity: it.quantity ?? null, unit: it.unit?.name ?? null })),
		issuing_body: r.buyer?.name ?? "",
		set_aside_text: t.eligibilityCriteria ?? null,
		set_aside_code: null,
		categories,
	};
}

/** A parsed notice as the bus hands it to matching, through the same steps as ingestion (stored, then read back). */
export function forMatching(n: NormalizedNotice, id = "eval"): NoticeForMatching {
	const stored = mergeVersion(null, n).notice;
	const doc = { _id: id, ...storedFields(stored, new Date(0)) } as unknown as NoticeDoc;
	// JSON, typed by matching's own view of the answer.
	return JSON.parse(JSON.stringify(noticeForMatching(doc))) as NoticeForMatching;
}

/** The extractor's input for a parsed notice, through the same steps as ingestion and matching. */
export function inputOf(n: NormalizedNotice): SignalsInput {
	return signalsInput(forMatching(n));
}

export interface DevCase {
	ocid: string;
	input: SignalsInput;
	gold: Gold;
}

export function loadDevSet(dir = DEV_DIR): DevCase[] {
	const pkg = JSON.parse(readFileSync(path.join(dir, "notices.ocds.json"), "utf8")) as { releases: OcdsRelease[] };
	const gold = JSON.parse(readFileSync(path.join(dir, "signals.json"), "utf8")) as Record<string, Gold>;
	const first = new Map<string, OcdsRelease>();
	for (const r of pkg.releases) {
		if (!r.tag?.includes("tender")) continue;
		if (!first.has(r.ocid)) first.set(r.ocid, r);
	}
	const cases: DevCase[] = [];
	for (const [ocid, g] of Object.entries(gold)) {
		const r = first.get(ocid);
		if (r) cases.push({ ocid, input: inputFromRelease(r), gold: g });
	}
	return cases.sort((a, b) => a.ocid.localeCompare(b.ocid));
}

/** The first version of each process (the notice as first published), by ocid / source id. */
export function firstVersions(notices: NormalizedNotice[]): Map<string, NormalizedNotice> {
	const out = new Map<string, NormalizedNotice>();
	for (const n of notices) if (!out.has(n.source_id)) out.set(n.source_id, n);
	return out;
}

/** The dev set with each tender's input built as production builds it (see the header). */
export function loadIngestedDevSet(dir = DEV_DIR): DevCase[] {
	const text = loadDevSet(dir);
	const first = firstVersions(parseFeed(readFileSync(path.join(dir, "notices.ocds.json"))).notices);
	return text.flatMap((c) => {
		const n = first.get(c.ocid);
		return n ? [{ ...c, input: inputOf(n) }] : [];
	});
}

const STOP = new Set(["and", "or", "of", "the", "a", "an", "for", "with", "to", "in", "on", "-"]);
function tokens(s: string): Set<string> {
	return new Set(
		s
			.toLowerCase()
			.split(/[^a-z0-9]+/)
			.filter((w) => w.length > 0 && !STOP.has(w))
			.map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)),
	);
}
function jaccard(a: string, b: string): number {
	const x = tokens(a);
	const y = tokens(b);
	if (x.size === 0 && y.size === 0) return 1;
	let inter = 0;
	for (const t of x) if (y.has(t)) inter++;
	return inter / (x.size + y.size - inter);
}

export interface SignalsReport {
	n: number;
	accuracy: {
		bid_eligibility: number;
		requires_manufacturer: number;
		requires_oem_documentation: number;
		mandatory_certifications_exact: number;
		procurement_nature: number;
	};
	certifications: { precision: number; recall: number; f1: number; tp: number; fp: number; fn: number };
	category: { mean_jaccard: number; any_overlap: number };
	overall: number;
	all_fields_exact: number;
	confusion: { bid_eligibility: Record<string, Record<string, number>>; procurement_nature: Record<string, Record<string, number>> };
	errors: { ocid: string; field: string; gold: unknown; predicted: unknown }[];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
	const x = new Set(a);
	const y = new Set(b);
	return x.size === y.size && [...x].every((v) => y.has(v));
}

export function evaluate(cases: readonly DevCase[]): SignalsReport {
	let elig = 0,
		mfr = 0,
		doc = 0,
		certExact = 0,
		nature = 0,
		allExact = 0;
	let tp = 0,
		fp = 0,
		fn = 0,
		jac = 0,
		anyOverlap = 0;
	const confE: Record<string, Record<string, number>> = {};
	const confN: Record<string, Record<string, number>> = {};
	const errors: SignalsReport["errors"] = [];
	const bump = (m: Record<string, Record<string, number>>, g: string, p: string) => {
		const row = (m[g] ??= {});
		row[p] = (row[p] ?? 0) + 1;
	};
	for (const c of cases) {
		const p = extractSignals(c.input);
		const g = c.gold;
		const ok = {
			elig: p.bid_eligibility === g.bid_eligibility,
			mfr: p.requires_manufacturer === g.requires_manufacturer,
			doc: p.requires_oem_documentation === g.requires_oem_documentation,
			cert: sameSet(p.mandatory_certifications, g.mandatory_certifications),
			nature: p.procurement_nature === g.procurement_nature,
		};
		elig += +ok.elig;
		mfr += +ok.mfr;
		doc += +ok.doc;
		certExact += +ok.cert;
		nature += +ok.nature;
		if (ok.elig && ok.mfr && ok.doc && ok.cert && ok.nature) allExact++;
		bump(confE, g.bid_eligibility, p.bid_eligibility);
		bump(confN, g.procurement_nature, p.procurement_nature);
		const gs = new Set(g.mandatory_certifications);
		const ps = new Set(p.mandatory_certifications);
		for (const x of ps) gs.has(x) ? tp++ : fp++;
		for (const x of gs) if (!ps.has(x)) fn++;
		const j = jaccard(p.actual_product_category, g.actual_product_category);
		jac += j;
		if (j > 0) anyOverlap++;
		if (!ok.elig) errors.push({ ocid: c.ocid, field: "bid_eligibility", gold: g.bid_eligibility, predicted: p.bid_eligibility });
		if (!ok.mfr)
			errors.push({ ocid: c.ocid, field: "requires_manufacturer", gold: g.requires_manufacturer, predicted: p.requires_manufacturer });
		if (!ok.doc)
			errors.push({
				ocid: c.ocid,
				field: "requires_oem_documentation",
				gold: g.requires_oem_documentation,
				predicted: p.requires_oem_documentation,
			});
		if (!ok.cert)
			errors.push({
				ocid: c.ocid,
				field: "mandatory_certifications",
				gold: g.mandatory_certifications,
				predicted: p.mandatory_certifications,
			});
		if (!ok.nature) errors.push({ ocid: c.ocid, field: "procurement_nature", gold: g.procurement_nature, predicted: p.procurement_nature });
		if (j === 0)
			errors.push({
				ocid: c.ocid,
				field: "actual_product_category",
				gold: g.actual_product_category,
				predicted: p.actual_product_category,
			});
	}
	const n = cases.length || 1;
	const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
	const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
	const accuracy = {
		bid_eligibility: elig / n,
		requires_manufacturer: mfr / n,
		requires_oem_documentation: doc / n,
		mandatory_certifications_exact: certExact / n,
		procurement_nature: nature / n,
	};
	const values = Object.values(accuracy);
	return {
		n: cases.length,
		accuracy,
		certifications: { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), tp, fp, fn },
		category: { mean_jaccard: jac / n, any_overlap: anyOverlap / n },
		overall: values.reduce((a, b) => a + b, 0) / values.length,
		all_fields_exact: allExact / n,
		confusion: { bid_eligibility: confE, procurement_nature: confN },
		errors,
	};
}

const ELIGIBILITY: BidEligibility[] = [
	"open",
	"small_business",
	"8a",
	"hubzone",
	"sdvosb",
	"wosb",
	"other_set_aside",
	"restricted",
	"unknown",
];
const NATURE: ProcurementNature[] = ["goods", "services", "construction", "mixed", "unknown"];

export function confusionTable(title: string, labels: readonly string[], m: Record<string, Record<string, number>>): string {
	const w = Math.max(...labels.map((l) => l.length), 10);
	const short = (l: string) => l.slice(0, 7).padStart(7);
	const lines = [`${title} (rows: gold, columns: predicted)`, `${"".padEnd(w)} ${labels.map(short).join(" ")}`];
	for (const g of labels) {
		const row = m[g] ?? {};
		if (Object.keys(row).length === 0) continue;
		lines.push(`${g.padEnd(w)} ${labels.map((p) => String(row[p] ?? 0).padStart(7)).join(" ")}`);
	}
	return lines.join("\n");
}

export function formatReport(r: SignalsReport): string {
	const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
	const a = r.accuracy;
	return [
		`Signals extractor on the dev set: ${r.n} tenders (first tender release of each ocid)`,
		"",
		"Per-field accuracy",
		`  bid_eligibility               ${pct(a.bid_eligibility)}`,
		`  requires_manufacturer         ${pct(a.requires_manufacturer)}`,
		`  requires_oem_documentation    ${pct(a.requires_oem_documentation)}`,
		`  mandatory_certifications      ${pct(a.mandatory_certifications_exact)} exact set; ` +
			`items: precision ${pct(r.certifications.precision)}, recall ${pct(r.certifications.recall)}, F1 ${pct(r.certifications.f1)} ` +
			`(tp ${r.certifications.tp}, fp ${r.certifications.fp}, fn ${r.certifications.fn})`,
		`  procurement_nature            ${pct(a.procurement_nature)}`,
		`  actual_product_category       token Jaccard ${r.category.mean_jaccard.toFixed(2)} mean; ${pct(r.category.any_overlap)} share at least one token (free text, indicative only)`,
		"",
		`Overall (mean of the five categorical fields): ${pct(r.overall)}; all five exact on ${pct(r.all_fields_exact)} of tenders`,
		"",
		confusionTable("bid_eligibility", ELIGIBILITY, r.confusion.bid_eligibility),
		"",
		confusionTable("procurement_nature", NATURE, r.confusion.procurement_nature),
	].join("\n");
}

function main(): void {
	const ingested = process.argv.includes("--ingested");
	const report = evaluate(ingested ? loadIngestedDevSet() : loadDevSet());
	if (ingested) console.log("Inputs built as production builds them (structured procedure and contract nature included)\n");
	console.log(formatReport(report));
	if (process.argv.includes("--errors")) {
		console.log("\nMismatches");
		for (const e of report.errors)
			console.log(`  ${e.ocid} ${e.field}: gold ${JSON.stringify(e.gold)} predicted ${JSON.stringify(e.predicted)}`);
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) main();
