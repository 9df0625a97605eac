// Exists to measure bid_eligibility and procurement_nature on real published notices against the
// labels of the real-notice set (eval/real: tune/ and measure/, labels written before tuning), the
// way production computes them: parseFeed -> mergeVersion -> the stored fields -> noticeForMatching
// -> signalsInput -> extractSignals. Tune on `tune` only; `measure` is reported, never tuned on.
//
//   node_modules/.bin/tsx scripts/eval-real-signals.ts [set-dir] [--native] [--errors] [--text-only]
//
// set-dir    the real set's folder (default eval/real): <split>/notices.ocds.json and signals.json;
//            with --native also notices.tsv and raw/
// --native   read TED eForms, Doffin eForms and SAM.gov notices from their published files (raw/)
//            through their own parsers instead of the set's OCDS rendering of them; OCDS notices
//            come from the set either way (the same releases); a raw file no parser reads counts
//            as predicted `unknown` and is listed
// --text-only  leave the structured procedure and contract nature out of the extractor's input
//            (what the extractor saw before it read structure), for comparison
// --errors   list every disagreement
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { explainSignals } from "../services/matching/signals/extract.ts";
import type { SignalsInput } from "../services/matching/signals/input.ts";
import { parseFeed } from "../services/opportunities/feeds/detect.ts";
import type { NormalizedNotice } from "../services/opportunities/feeds/notice.ts";
import { confusionTable, firstVersions, inputOf } from "./eval-signals.ts";

const SPLITS = ["tune", "measure"] as const;
const FIELDS = ["bid_eligibility", "procurement_nature"] as const;
type Field = (typeof FIELDS)[number];
type Labels = Record<string, Record<Field, string>>;

interface Case {
	ocid: string;
	source: string;
	input: SignalsInput | null;
}

function fromOcds(dir: string, split: string): Map<string, NormalizedNotice> {
	const parsed = parseFeed(readFileSync(path.join(dir, split, "notices.ocds.json")));
	if (parsed.rejected.length) console.error(`${split}: ${parsed.rejected.length} releases rejected: ${parsed.rejected[0]?.reason}`);
	return firstVersions(parsed.notices);
}

interface Row {
	ocid: string;
	split: string;
	source: string;
	raw_file: string;
}

function rows(dir: string): Row[] {
	const [head, ...lines] = readFileSync(path.join(dir, "notices.tsv"), "utf8").trim().split("\n");
	const cols = (head ?? "").split("\t");
	return lines.map((l) => {
		const v = l.split("\t");
		const get = (c: string) => v[cols.indexOf(c)] ?? "";
		return { ocid: get("ocid"), split: get("split"), source: get("source"), raw_file: get("raw_file") };
	});
}

/** Notices read from the published XML and SAM.gov files, keyed by the set's ocid. */
function fromRaw(dir: string, wanted: Row[]): { found: Map<string, NormalizedNotice>; unread: string[] } {
	const found = new Map<string, NormalizedNotice>();
	const unread: string[] = [];
	const byFile = new Map<string, NormalizedNotice[]>();
	for (const row of wanted) {
		let notices = byFile.get(row.raw_file);
		if (!notices) {
			const parsed = parseFeed(readFileSync(path.join(dir, "raw", row.raw_file)), { filename: row.raw_file });
			notices = parsed.notices;
			byFile.set(row.raw_file, notices);
		}
		// SAM.gov files hold many records: the set's ocid ends with the noticeId (the version label).
		const noticeId = /^ocds-samgov-(.+)$/.exec(row.ocid)?.[1];
		const n = noticeId ? notices.find((x) => x.version.label === noticeId) : notices[0];
		if (n) found.set(row.ocid, n);
		else unread.push(`${row.ocid} (${row.raw_file})`);
	}
	return { found, unread };
}

function strip(input: SignalsInput): SignalsInput {
	return { ...input, procedure: null, procurement_category: null };
}

function casesOf(dir: string, split: string, labels: Labels, native: boolean, textOnly: boolean): { cases: Case[]; unread: string[] } {
	const fromSet = fromOcds(dir, split);
	const all = existsSync(path.join(dir, "notices.tsv")) ? rows(dir).filter((r) => r.split === split) : [];
	const nativeRows = native ? all.filter((r) => /\.xml$/i.test(r.raw_file) || r.source === "sam.gov") : [];
	const raw = native ? fromRaw(dir, nativeRows) : { found: new Map<string, NormalizedNotice>(), unread: [] };
	const sourceOf = new Map(all.map((r) => [r.ocid, r.source]));
	const nativeOcids = new Set(nativeRows.map((r) => r.ocid));
	const cases = Object.keys(labels).flatMap((ocid): Case[] => {
		const n = nativeOcids.has(ocid) ? raw.found.get(ocid) : fromSet.get(ocid);
		if (!n && !nativeOcids.has(ocid)) return [];
		const input = n ? inputOf(n) : null;
		return [{ ocid, source: sourceOf.get(ocid) ?? n?.source ?? "?", input: input && textOnly ? strip(input) : input }];
	});
	return { cases, unread: raw.unread };
}

interface Report {
	n: number;
	right: Record<Field, number>;
	confusion: Record<Field, Record<string, Record<string, number>>>;
	bySource: Map<string, { n: number; right: Record<Field, number> }>;
	errors: string[];
}

function evaluate(cases: Case[], labels: Labels): Report {
	const r: Report = {
		n: 0,
		right: { bid_eligibility: 0, procurement_nature: 0 },
		confusion: { bid_eligibility: {}, procurement_nature: {} },
		bySource: new Map(),
		errors: [],
	};
	for (const c of cases) {
		const gold = labels[c.ocid];
		if (!gold) continue;
		const explained = c.input ? explainSignals(c.input) : null;
		r.n++;
		const src = r.bySource.get(c.source) ?? { n: 0, right: { bid_eligibility: 0, procurement_nature: 0 } };
		src.n++;
		r.bySource.set(c.source, src);
		for (const f of FIELDS) {
			const predicted = explained ? explained.signals[f] : "unknown";
			const row = (r.confusion[f][gold[f]] ??= {});
			row[predicted] = (row[predicted] ?? 0) + 1;
			if (predicted === gold[f]) {
				r.right[f]++;
				src.right[f]++;
			} else {
				const why = explained ? `${explained.explanation[f].rule}: ${explained.explanation[f].evidence ?? ""}`.slice(0, 140) : "not parsed";
				r.errors.push(`${c.ocid} [${c.source}] ${f}: gold ${gold[f]}, predicted ${predicted} (${why})`);
			}
		}
	}
	return r;
}

const pct = (a: number, n: number) => `${((a / (n || 1)) * 100).toFixed(1)}% (${a}/${n})`;

function main(): void {
	const args = process.argv.slice(2);
	const dir = path.resolve(args.find((a) => !a.startsWith("--")) ?? "eval/real");
	const native = args.includes("--native");
	const textOnly = args.includes("--text-only");
	const how = native ? "XML and SAM.gov notices from their published files" : "the set's OCDS releases";
	console.log(`Real-notice signals: ${dir}, ${how}${textOnly ? ", text only" : ""}`);
	for (const split of SPLITS) {
		const labels = JSON.parse(readFileSync(path.join(dir, split, "signals.json"), "utf8")) as Labels;
		const { cases, unread } = casesOf(dir, split, labels, native, textOnly);
		const r = evaluate(cases, labels);
		console.log(`\n== ${split}: ${r.n} notices`);
		for (const f of FIELDS) console.log(`  ${f.padEnd(20)} ${pct(r.right[f], r.n)}`);
		if (unread.length) console.log(`  not read by any parser (counted as unknown): ${unread.length}: ${unread.join(", ")}`);
		console.log("  by source:");
		for (const [source, s] of [...r.bySource].sort()) {
			const [eligibility, nature] = [pct(s.right.bid_eligibility, s.n).padEnd(14), pct(s.right.procurement_nature, s.n)];
			console.log(`    ${source.padEnd(32)} n ${String(s.n).padStart(3)}  bid_eligibility ${eligibility} procurement_nature ${nature}`);
		}
		console.log("");
		console.log(
			confusionTable(
				"  bid_eligibility",
				["open", "small_business", "other_set_aside", "restricted", "unknown"],
				r.confusion.bid_eligibility,
			),
		);
		console.log(
			confusionTable("  procurement_nature", ["goods", "services", "construction", "mixed", "unknown"], r.confusion.procurement_nature),
		);
		if (args.includes("--errors")) for (const e of r.errors) console.log(`  ${e}`);
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) main();
