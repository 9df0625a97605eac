// Measures the computed crosswalks against the hand-graded samples in data/taxonomies/checks/, so that a
// change of method is judged on codes it was not tuned on (each sample has a tuning half and a
// measured-only half). `--draw` prints a fresh seeded sample with titles, for grading by hand; the
// titles stay on screen (the title files are not committed, see data/taxonomies/README.md).
// Usage: node --import tsx scripts/taxonomies/check-crosswalks.ts [--draw psc|unspsc] [--verbose]
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { toCpv } from "../../shared/taxonomy/index.ts";
import { dataDir } from "./lib.ts";

/** Seed of the class-level samples (`checks/*-class-check.tsv`); earlier samples used 7 (tuning) and 2026. */
export const SEED = "xwalk-515";
/** Codes named as known failures when the samples were drawn; they join the tuning half. */
const NAMED: Record<string, string[]> = { psc: ["7010", "6640", "6515", "6115", "2320", "5835"], unspsc: [], naics: [] };

const load = (name: string): { entries: unknown[][] } => JSON.parse(gunzipSync(readFileSync(join(dataDir, name))).toString("utf8"));

/** A seeded shuffle that needs no generator: order by a hash of seed and code. */
const shuffled = (codes: string[]): string[] =>
	codes
		.map((c) => [createHash("sha256").update(`${SEED}:${c}`).digest("hex"), c] as const)
		.sort((a, b) => a[0].localeCompare(b[0]))
		.map(([, c]) => c);

function draw(scheme: "psc" | "unspsc" | "naics", n: number): void {
	const cpv = new Map((load("cpv.json.gz").entries as [string, string | null, string[]][]).map(([c, , l]) => [c, l[5] ?? ""]));
	let rows: [string, string][];
	if (scheme === "psc") {
		const psc = load("psc.json.gz").entries as [string, string, string, string, string | null, boolean][];
		// Withdrawn codes too: GSIN (Canada) and older US notices still carry them (e.g. 7010, 7021).
		rows = psc.filter((e) => /^\d[0-9A-Z]{3}$/.test(e[0])).map((e) => [e[0], `${e[2] || e[1]} | ${e[3]}`]);
	} else if (scheme === "naics") {
		// Goods-producing industries (agriculture, mining, manufacturing): the ones a product catalog meets.
		rows = (load("naics.json.gz").entries as [string, string][]).filter(([c]) => /^(11|21|31|32|33)\d{4}$/.test(c));
	} else {
		const unspsc = load("unspsc.json.gz").entries as [string, string][];
		rows = unspsc.filter(([c]) => /^\d{4}(?!00)\d\d00$/.test(c));
	}
	const title = new Map(rows);
	const named = NAMED[scheme] ?? [];
	const picked = [...named, ...shuffled(rows.map(([c]) => c).filter((c) => !named.includes(c))).slice(0, n)];
	picked.forEach((code, i) => {
		const half = i < named.length || (i - named.length) % 2 === 0 ? "tune" : "measure";
		const hit = toCpv(scheme, code, -1)[0];
		console.log([i + 1, code, half, title.get(code), hit ? `${hit.cpv} ${cpv.get(hit.cpv)} (${hit.score})` : "-"].join("\t"));
	});
}

type Row = { code: string; right: string[]; half: string };
type Tally = { n: number; exact: number; group: number; wrong: number; none: number; top2: number };

/**
 * Grades the first mapping against the graded CPV codes: "exact" when it lies in a graded class (4 digits), or
 * is exactly a graded group or division (graded where no class fits; anything below it is only "group");
 * "group" when it shares the first 3 digits with a graded code.
 */
export function grade(predicted: string[], right: string[]): "exact" | "group" | "wrong" | "none" {
	const top = predicted[0];
	if (!top) return "none";
	const isClass = (r: string): boolean => r.slice(3, 4) !== "0";
	if (right.some((r) => (isClass(r) ? top.slice(0, 4) === r.slice(0, 4) : top === r))) return "exact";
	if (right.some((r) => top.slice(0, 3) === r.slice(0, 3))) return "group";
	return "wrong";
}

function readCheck(file: string): Row[] {
	const [, ...lines] = readFileSync(join(dataDir, "checks", file), "utf8")
		.trim()
		.split("\n");
	return lines.map((l) => {
		const [, code = "", right = "", half = ""] = l.split("\t");
		return { code, right: right.split("|"), half };
	});
}

function measure(scheme: "psc" | "unspsc" | "naics", file: string, verbose: boolean): void {
	const tallies = new Map<string, Tally>();
	for (const r of readCheck(file)) {
		const hits = toCpv(scheme, r.code).map((h) => h.cpv);
		const g = grade(hits, r.right);
		const t = tallies.get(r.half) ?? { n: 0, exact: 0, group: 0, wrong: 0, none: 0, top2: 0 };
		t.n++;
		t[g]++;
		if (hits.slice(0, 2).some((h) => grade([h], r.right) === "exact")) t.top2++;
		tallies.set(r.half, t);
		if (verbose && g !== "exact")
			console.log(`  ${scheme} ${r.code} ${r.half}: ${g}, got ${hits.join(",") || "-"}, right ${r.right.join("|")}`);
	}
	for (const [half, t] of [...tallies].sort()) {
		const pct = (x: number): string => `${((100 * x) / t.n).toFixed(0)}%`;
		console.log(
			`${scheme.padEnd(6)} ${half.padEnd(7)} n=${t.n}  exact class ${t.exact} (${pct(t.exact)})  same group ${t.group} (${pct(t.group)})  ` +
				`wrong ${t.wrong} (${pct(t.wrong)})  unmapped ${t.none} (${pct(t.none)})  class in top 2 ${t.top2} (${pct(t.top2)})`,
		);
	}
}

if (import.meta.filename === process.argv[1]) {
	const i = process.argv.indexOf("--draw");
	if (i >= 0) {
		const scheme = process.argv[i + 1] === "unspsc" ? "unspsc" : process.argv[i + 1] === "naics" ? "naics" : "psc";
		draw(scheme, scheme === "naics" ? 60 : 150);
	} else {
		const verbose = process.argv.includes("--verbose");
		measure("psc", "psc-class-check.tsv", verbose);
		measure("unspsc", "unspsc-class-check.tsv", verbose);
		measure("naics", "naics-class-check.tsv", verbose);
	}
}
