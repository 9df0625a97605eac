// Builds the crosswalks UNSPSC -> CPV, PSC -> CPV and NAICS -> CPV. No published concordance at class
// level could be had for these pairs (see data/taxonomies/README.md), so each mapping is computed by a
// reproducible method: TF-IDF cosine similarity between English titles (Porter stems, from the
// `stemmer` package), with each code's own title weighted over its context (parents, children), under
// hierarchy constraints: goods map to CPV supply divisions and services to CPV works/service divisions,
// and a code is only mapped inside the CPV divisions that its parent group (UNSPSC family, PSC group,
// NAICS subsector) matches best. The output is code pairs with a score; it holds no source text.
// Usage: node --import tsx scripts/taxonomies/build-crosswalks.ts (after build-schemes.ts)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { stemmer } from "stemmer";
import { dataDir, writeGzJson } from "./lib.ts";

type Json = { entries: unknown[][]; languages?: string[]; source?: { sha256: string } };
const load = (name: string): Json => JSON.parse(gunzipSync(readFileSync(join(dataDir, name))).toString("utf8")) as Json;

// Function words only; domain words (equipment, services, supplies) are left to IDF to down-weight.
const STOP = new Set(
	("a an and or of for the in on with without to by from at as its their other except not nec n e c " +
		"elsewhere classified specified includes including related etc than into per all any same type types").split(" "),
);

export function tokens(text: string): string[] {
	return text
		.toLowerCase()
		.normalize("NFKD")
		.replace(/[\u0300-\u036f]/g, "")
		.split(/[^a-z]+/)
		.filter((t) => t.length > 1 && !STOP.has(t))
		.map((t) => stemmer(t));
}

/** Drops "(except ...)" asides and trailing "except ..." clauses: they name what a code is not. */
export function stripExceptions(text: string): string {
	return text.replace(/\([^)]*\bexcept\b[^)]*\)/gi, " ").replace(/[,;]?\s*\bexcept\b.*$/i, " ");
}

/** The head noun of an English title: the last word of its first phrase ("Laboratory centrifuges and ..." -> centrifug). */
export function head(text: string): string | undefined {
	const first = stripExceptions(text).split(/\s(?:for|of|with|and|or|in|on|by|including)\s|[,;:(/]/i)[0] ?? "";
	return tokens(first).at(-1);
}

type Vec = Map<string, number>;
function addInto(v: Vec, toks: string[], w: number): void {
	for (const t of toks) v.set(t, (v.get(t) ?? 0) + w);
}

class Space {
	idf = new Map<string, number>();
	constructor(docs: string[][]) {
		const df = new Map<string, number>();
		for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
		for (const [t, n] of df) this.idf.set(t, Math.log((docs.length + 1) / (n + 0.5)));
	}
	weigh(v: Vec): Vec {
		const out: Vec = new Map();
		let norm = 0;
		for (const [t, tf] of v) {
			const w = (1 + Math.log(tf > 0 ? tf : 1)) * Math.min(tf, 1) * (this.idf.get(t) ?? Math.log(10_000));
			out.set(t, w);
			norm += w * w;
		}
		norm = Math.sqrt(norm) || 1;
		for (const [t, w] of out) out.set(t, w / norm);
		return out;
	}
}
function cosine(a: Vec, b: Vec): number {
	const [s, l] = a.size < b.size ? [a, b] : [b, a];
	let dot = 0;
	for (const [t, w] of s) dot += w * (l.get(t) ?? 0);
	return dot;
}

// ---------- CPV side ----------
const cpvJson = load("cpv.json.gz");
const EN = (cpvJson.languages ?? []).indexOf("en");
const cpvTitle = new Map<string, string>();
for (const [code, , labels] of cpvJson.entries as [string, string | null, string[]][]) cpvTitle.set(code, labels[EN] ?? "");

/** CPV parent by structure: the nearest existing code with the last significant digit zeroed. */
export function cpvParent(code: string, exists: (c: string) => boolean): string | undefined {
	let c = code;
	for (;;) {
		const i = c.replace(/0+$/, "").length - 1;
		if (i < 2) return undefined; // a division has no parent
		c = c.slice(0, i) + "0".repeat(8 - i);
		if (exists(c)) return c;
	}
}
const cpvCodes = [...cpvTitle.keys()];
const cpvParentOf = new Map(cpvCodes.map((c) => [c, cpvParent(c, (x) => cpvTitle.has(x))]));
const cpvOwn = new Map(cpvCodes.map((c) => [c, tokens(cpvTitle.get(c) ?? "")]));
const cpvSpace = new Space([...cpvOwn.values()]);
const cpvHead = new Map(cpvCodes.map((c) => [c, head(cpvTitle.get(c) ?? "")]));
/** A CPV code's text: its own label, plus a little of its parent's so that "Accessories" under computers differs from the rest. */
const cpvVec = new Map(
	cpvCodes.map((c) => {
		const v: Vec = new Map();
		addInto(v, cpvOwn.get(c) ?? [], 1);
		const p = cpvParentOf.get(c);
		if (p) addInto(v, cpvOwn.get(p) ?? [], 0.25);
		return [c, cpvSpace.weigh(v)];
	}),
);
/** A CPV code's ancestry (parent chain labels), compared with the source code's group context to break ties between homonyms. */
const cpvPathVec = new Map(
	cpvCodes.map((c) => {
		const v: Vec = new Map();
		for (let p = cpvParentOf.get(c); p; p = cpvParentOf.get(p)) addInto(v, cpvOwn.get(p) ?? [], 1);
		addInto(v, cpvOwn.get(c) ?? [], 0.5);
		return [c, cpvSpace.weigh(v)];
	}),
);
/** Weight of the ancestry agreement in the final score. */
const PATH_WEIGHT = 0.3;
/** CPV divisions as whole subtrees, for the group-level constraint. */
const divisionVec = new Map<string, Vec>();
{
	const acc = new Map<string, Vec>();
	for (const c of cpvCodes) {
		const d = c.slice(0, 2);
		const v = acc.get(d) ?? new Map();
		addInto(v, cpvOwn.get(c) ?? [], c.endsWith("000000") ? 3 : 1);
		acc.set(d, v);
	}
	for (const [d, v] of acc) divisionVec.set(d, cpvSpace.weigh(v));
}
/** How many CPV divisions a source group may map into: wide enough for mixed families, narrow enough to keep homonyms out. */
const DIVISIONS_PER_GROUP = 5;
const SUPPLY = (d: string): boolean => Number(d) <= 44 || d === "48";
const CPV_ROOT_DEPTH = (c: string): number => c.replace(/0+$/, "").length;

type Hit = { cpv: string; score: number };
/**
 * Best CPV codes for a text vector, inside the allowed divisions; ties go to the more general code.
 * A CPV code whose head noun the source title names gets a bonus (and a little more when both heads agree),
 * so that "Media storage devices" prefers a device over a "software package" sharing two modifiers.
 */
function bestCpv(v: Vec, divisions: Set<string>, src?: { own: Set<string>; head?: string; path?: Vec }): Hit[] {
	const hits: Hit[] = [];
	for (const c of cpvCodes) {
		if (!divisions.has(c.slice(0, 2))) continue;
		let s = cosine(v, cpvVec.get(c) ?? new Map());
		if (s <= 0) continue;
		const h = cpvHead.get(c);
		if (src && h && src.own.has(h)) s += h === src.head ? 0.2 : 0.1;
		if (src?.path) s += PATH_WEIGHT * cosine(src.path, cpvPathVec.get(c) ?? new Map());
		hits.push({ cpv: c, score: s });
	}
	hits.sort((a, b) => b.score - a.score || CPV_ROOT_DEPTH(a.cpv) - CPV_ROOT_DEPTH(b.cpv));
	return hits;
}
function topDivisions(v: Vec, goods: boolean, k: number): Set<string> {
	const scored = [...divisionVec]
		.filter(([d]) => SUPPLY(d) === goods)
		.map(([d, dv]) => [d, cosine(v, dv)] as const)
		.sort((a, b) => b[1] - a[1]);
	return new Set(scored.slice(0, k).map(([d]) => d));
}

// ---------- generic source-side walk ----------
type Node = { code: string; title: string; text: string; parent?: string; goods: boolean };
/** code -> [CPV code, score] or, for a commodity that inherits its class mapping, [CPV code, class score, "class"]. */
type Out = { [code: string]: [string, number] | [string, number, "class"] };
/** Below this score a mapping is kept in the file but not counted as mapped (and not returned by default). */
export const MIN_SCORE = 0.45;

/**
 * Maps each node of `level` (e.g. UNSPSC classes) and each node of `leaf` (e.g. commodities):
 * the group (`groupOf`) picks the allowed CPV divisions; the node's own title weighs 1, its
 * group context 0.3 and its children's titles 0.4 in total.
 */
function mapScheme(nodes: Node[], groupOf: (n: Node) => string | undefined, childrenOf: Map<string, Node[]>): Out {
	const byCode = new Map(nodes.map((n) => [n.code, n]));
	const groupDivs = new Map<string, Set<string>>();
	const out: Out = {};
	for (const n of nodes) {
		const g = groupOf(n);
		const key = `${g ?? n.code}|${n.goods}`;
		let divs = groupDivs.get(key);
		if (!divs) {
			const gv: Vec = new Map();
			const gnode = g ? byCode.get(g) : undefined;
			addInto(gv, tokens(gnode?.text ?? n.text), 2);
			for (const m of nodes) if (groupOf(m) === g && g) addInto(gv, tokens(m.title), 1);
			divs = topDivisions(cpvSpace.weigh(gv), n.goods, DIVISIONS_PER_GROUP);
			groupDivs.set(key, divs);
		}
		const v: Vec = new Map();
		addInto(v, tokens(stripExceptions(n.text)), 1);
		const gnode = g ? byCode.get(g) : undefined;
		if (gnode) addInto(v, tokens(gnode.title), 0.3);
		const kids = childrenOf.get(n.code) ?? [];
		for (const k of kids) addInto(v, tokens(k.title), 0.4 / Math.max(1, kids.length) * 3);
		const path: Vec = new Map();
		if (gnode) addInto(path, tokens(gnode.text), 1);
		addInto(path, tokens(stripExceptions(n.title)), 0.5);
		const src = { own: new Set(tokens(stripExceptions(n.title))), head: head(n.title), path: cpvSpace.weigh(path) };
		const best = bestCpv(cpvSpace.weigh(v), divs, src)[0];
		if (best) out[n.code] = [best.cpv, Math.round(best.score * 1000) / 1000];
	}
	return out;
}

// ---------- UNSPSC ----------
function unspsc(): { classes: Out; commodities: Out } {
	const entries = load("unspsc.json.gz").entries as [string, string][];
	const title = new Map(entries);
	const node = (code: string): Node => ({
		code,
		title: title.get(code) ?? "",
		text: title.get(code) ?? "",
		goods: Number(code.slice(0, 2)) < 70,
	});
	const classes = entries.filter(([c]) => c.endsWith("00") && !c.endsWith("0000")).map(([c]) => node(c));
	const commodities = entries.filter(([c]) => !c.endsWith("00")).map(([c]) => node(c));
	const families = entries.filter(([c]) => c.endsWith("0000") && !c.endsWith("000000")).map(([c]) => node(c));
	const kids = new Map<string, Node[]>();
	for (const m of commodities) {
		const k = `${m.code.slice(0, 6)}00`;
		kids.set(k, [...(kids.get(k) ?? []), m]);
	}
	const familyOf = (n: Node): string => `${n.code.slice(0, 4)}0000`;
	const classMap = mapScheme([...families, ...classes], (n) => (n.code.endsWith("0000") ? undefined : familyOf(n)), kids);
	// Commodities: searched inside the CPV division their class mapped to, falling back to the class mapping.
	const commodityMap: Out = {};
	for (const m of commodities) {
		const cls = `${m.code.slice(0, 6)}00`;
		const viaClass = classMap[cls];
		const v: Vec = new Map();
		addInto(v, tokens(m.title), 1);
		addInto(v, tokens(title.get(cls) ?? ""), 0.3);
		const divs = viaClass ? new Set([viaClass[0].slice(0, 2)]) : topDivisions(cpvSpace.weigh(v), m.goods, 3);
		const path: Vec = new Map();
		addInto(path, tokens(title.get(cls) ?? ""), 1);
		addInto(path, tokens(title.get(`${m.code.slice(0, 4)}0000`) ?? ""), 0.5);
		addInto(path, tokens(m.title), 0.5);
		const src = { own: new Set(tokens(m.title)), head: head(m.title), path: cpvSpace.weigh(path) };
		const best = bestCpv(cpvSpace.weigh(v), divs, src)[0];
		if (best && (!viaClass || best.score >= 0.5 * viaClass[1])) commodityMap[m.code] = [best.cpv, Math.round(best.score * 1000) / 1000];
		else if (viaClass) commodityMap[m.code] = [viaClass[0], viaClass[1], "class"];
	}
	for (const f of families) delete classMap[f.code];
	return { classes: classMap, commodities: commodityMap };
}

// ---------- PSC ----------
function psc(): Out {
	const entries = load("psc.json.gz").entries as [string, string, string, string, string | null, boolean][];
	const nodes: Node[] = entries.map(([code, name, full, includes, parent]) => ({
		code,
		title: full || name,
		// The "includes" list names the goods a product code covers; it is the best description PSC gives.
		text: `${full || name} ${full ? "" : ""} ${includes}`.trim(),
		parent: parent ?? undefined,
		goods: /^\d/.test(code),
	}));
	const groupOf = (n: Node): string | undefined => {
		if (n.code.length < 4) return undefined;
		return n.parent ?? (/^\d/.test(n.code) ? n.code.slice(0, 2) : n.code.slice(0, 2));
	};
	const all = mapScheme(nodes, groupOf, new Map());
	const out: Out = {};
	for (const n of nodes) if (n.code.length === 4 && all[n.code]) out[n.code] = all[n.code] as [string, number];
	return out;
}

// ---------- NAICS ----------
function naics(): Out {
	const entries = load("naics.json.gz").entries as [string, string][];
	// NAICS sectors: 11, 21 agriculture/mining and 31-33 manufacturing make goods; trade (42, 44-45) sells goods.
	const goodsSector = (c: string): boolean => /^(11|21|31|32|33|42|44|45)/.test(c);
	const nodes: Node[] = entries.map(([code, t]) => ({ code, title: t, text: t, goods: goodsSector(code) }));
	const groupOf = (n: Node): string | undefined => (n.code.length > 3 ? n.code.slice(0, 3) : undefined);
	const all = mapScheme(nodes, groupOf, new Map());
	const out: Out = {};
	for (const n of nodes) if (n.code.length === 6 && all[n.code]) out[n.code] = all[n.code] as [string, number];
	return out;
}

const METHOD =
	"tfidf-cosine on English titles (Porter stems), own title 1.0 + group 0.3 + children 0.4, " +
	"goods->CPV supply divisions / services->CPV works+services, inside the 3 CPV divisions nearest the group";
const u = unspsc();
const p = psc();
const n = naics();
const outputs = [
	["crosswalk-unspsc-cpv.json.gz", { classes: u.classes, commodities: u.commodities }],
	["crosswalk-psc-cpv.json.gz", { codes: p }],
	["crosswalk-naics-cpv.json.gz", { codes: n }],
] as const;
for (const [name, map] of outputs) {
	const size = writeGzJson(name, { method: METHOD, minScore: MIN_SCORE, cpvSource: cpvJson.source?.sha256, ...map });
	console.log(name, size, "bytes");
}
const coverage = (m: Out, total: number): string => {
	const ok = Object.values(m).filter((h) => h[1] >= MIN_SCORE).length;
	return `${ok}/${total} (${((100 * ok) / total).toFixed(1)}%)`;
};
const unspscTitles = load("unspsc.json.gz").entries as [string][];
const count = (re: RegExp, list: [string, ...unknown[]][]): number => list.filter(([c]) => re.test(c)).length;
console.log(`coverage at score >= ${MIN_SCORE}:`);
console.log(`  UNSPSC classes ${coverage(u.classes, count(/^\d{4}(?!00)\d\d00$/, unspscTitles))}`);
console.log(`  UNSPSC commodities ${coverage(u.commodities, count(/^\d{6}(?!00)\d\d$/, unspscTitles))}`);
const pscList = load("psc.json.gz").entries as [string, string, string, string, string | null, boolean][];
console.log(`  PSC 4-character codes ${coverage(p, pscList.filter((e) => e[0].length === 4).length)}`);
const activePsc = new Set(pscList.filter((e) => e[0].length === 4 && e[5]).map((e) => e[0]));
const activeMap = Object.fromEntries(Object.entries(p).filter(([c]) => activePsc.has(c)));
console.log(`  PSC active 4-character codes ${coverage(activeMap, activePsc.size)}`);
console.log(`  NAICS 6-digit ${coverage(n, count(/^\d{6}$/, load("naics.json.gz").entries as [string][]))}`);
