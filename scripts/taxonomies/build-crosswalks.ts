// Builds the crosswalks UNSPSC -> CPV, PSC -> CPV and NAICS -> CPV. No published concordance at class
// level could be had for these pairs (see data/taxonomies/README.md), so each mapping is computed by a
// reproducible method over the schemes' English titles (method and figures in that README):
// - TF-IDF cosine between a code's text (own title, a little of its group's title, its PSC "includes"
//   list or UNSPSC commodity titles) and each CPV label, words in British spelling and Snowball stems;
// - the fit of the code's whole group (PSC group, UNSPSC family and segment, NAICS subsector and sector)
//   with the vocabulary of each CPV division and group: PSC 2320 (wheeled trucks, in the motor vehicles
//   group) lands among CPV goods vehicles, not among the works trucks of lifting equipment;
// - the fit of the code's text with the vocabulary of each CPV class (all the labels below it);
// - head-noun and ancestry agreement.
// The output is code -> one or two scored CPV candidates (from different CPV classes); it holds no source text.
// `--explain CODE,...` prints the parts of the scores of those codes' best candidates.
// Usage: node --import tsx scripts/taxonomies/build-crosswalks.ts [--explain CODE,...] (after build-schemes.ts)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { isStopword, stemOf, wordsOf } from "../../shared/text/index.ts";
import { dataDir, writeGzJson } from "./lib.ts";

type Json = { entries: unknown[][]; languages?: string[]; source?: { sha256: string } };
const load = (name: string): Json => JSON.parse(gunzipSync(readFileSync(join(dataDir, name))).toString("utf8")) as Json;

// ---------- words ----------
// CPV is written in British English, the US schemes in American English: "fiber optic" must meet
// "fibre-optic" and "tires" meet "tyres". The package's spelling table brings each word to its British
// form on both sides; -ize/-yze endings the table lacks follow the same rule.
const require = createRequire(import.meta.url);
const BRITISH = JSON.parse(
	readFileSync(require.resolve("american-british-english-translator/data/american_spellings.json"), "utf8"),
) as Record<string, string>;
function british(word: string): string {
	const w = BRITISH[word] ?? word;
	return w.replace(/^([a-z]{3,})([iy])z(e|es|ed|er|ers|ing|ation|ations)$/, "$1$2s$3");
}

// Words of classification prose, not of goods: they say where a code sits, not what it holds.
const FILLER = new Set([
	"except",
	"nec",
	"elsewhere",
	"classified",
	"classifiable",
	"specified",
	"includes",
	"including",
	"etc",
	"type",
	"types",
	"kind",
	"kinds",
]);

const tokenCache = new Map<string, string[]>();
/** Content stems of an English title (the project's text toolkit: segmenter, stopwords, Snowball), British spelling. */
export function tokens(text: string): string[] {
	const hit = tokenCache.get(text);
	if (hit) return hit;
	const out: string[] = [];
	for (const w of wordsOf(text.normalize("NFKD").replace(/[\u0300-\u036f]/g, ""))) {
		if (!/^[a-z]{2,}$/.test(w) || isStopword(w, "en") || FILLER.has(w)) continue;
		out.push(stemOf(british(w), "en"));
	}
	tokenCache.set(text, out);
	return out;
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
function addInto(v: Vec, toks: readonly string[], w: number): void {
	for (const t of toks) v.set(t, (v.get(t) ?? 0) + w);
}
function bag(parts: [readonly string[], number][]): Vec {
	const v: Vec = new Map();
	for (const [toks, w] of parts) addInto(v, toks, w);
	return v;
}

/** IDF over the CPV labels; a word CPV never uses weighs as much as its rarest. */
class Space {
	idf = new Map<string, number>();
	unseen: number;
	constructor(docs: string[][]) {
		const df = new Map<string, number>();
		for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
		for (const [t, n] of df) this.idf.set(t, Math.log((docs.length + 1) / (n + 0.5)));
		this.unseen = Math.log((docs.length + 1) / 0.5);
	}
	weigh(v: Vec): Vec {
		const out: Vec = new Map();
		let norm = 0;
		for (const [t, tf] of v) {
			const w = (tf >= 1 ? 1 + Math.log(tf) : tf) * (this.idf.get(t) ?? this.unseen);
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
const cpvCodes = [...cpvTitle.keys()].sort();
const cpvByDivision = new Map<string, string[]>();
for (const c of cpvCodes) cpvByDivision.set(c.slice(0, 2), [...(cpvByDivision.get(c.slice(0, 2)) ?? []), c]);
const cpvParentOf = new Map(cpvCodes.map((c) => [c, cpvParent(c, (x) => cpvTitle.has(x))]));
const cpvOwn = new Map(cpvCodes.map((c) => [c, tokens(cpvTitle.get(c) ?? "")]));
const space = new Space([...cpvOwn.values()]);
const cpvHead = new Map(cpvCodes.map((c) => [c, head(cpvTitle.get(c) ?? "")]));
const depthOf = (c: string): number => c.replace(/0+$/, "").length;
/** The CPV class (4 digits) a code belongs to, or its group or division when it sits above the class level. */
const classOf = (c: string): string => (depthOf(c) <= 3 ? c : `${c.slice(0, 4)}0000`);

/** A CPV code's text: its own label, plus a little of its parent's so that "Accessories" under computers differs from the rest. */
const cpvVec = new Map(
	cpvCodes.map((c) => {
		const p = cpvParentOf.get(c);
		return [
			c,
			space.weigh(
				bag([
					[cpvOwn.get(c) ?? [], 1],
					[p ? (cpvOwn.get(p) ?? []) : [], 0.25],
				]),
			),
		];
	}),
);
/** A CPV code's ancestry (parent chain labels), compared with the source code's group context to break ties between homonyms. */
const cpvPathVec = new Map(
	cpvCodes.map((c) => {
		const parts: [string[], number][] = [[cpvOwn.get(c) ?? [], 0.5]];
		for (let p = cpvParentOf.get(c); p; p = cpvParentOf.get(p)) parts.push([cpvOwn.get(p) ?? [], 1]);
		return [c, space.weigh(bag(parts))];
	}),
);
/**
 * The vocabulary of a whole CPV subtree (division, group or class): its own label three times, every
 * label below it once. A title about trucks then meets the class of goods vehicles (whose members
 * are trucks of all kinds) rather than the one "works trucks" label elsewhere.
 */
function subtreeVecs(level: number): Map<string, Vec> {
	const acc = new Map<string, Vec>();
	for (const c of cpvCodes) {
		if (depthOf(c) < level) continue;
		// A class CPV skips (39254100 "Clocks" has no 39250000) still gathers its members' labels.
		const root = `${c.slice(0, level)}${"0".repeat(8 - level)}`;
		const v = acc.get(root) ?? new Map();
		addInto(v, cpvOwn.get(c) ?? [], c === root ? 3 : 1);
		acc.set(root, v);
	}
	return new Map([...acc].map(([k, v]) => [k, space.weigh(v)]));
}
const divisionVec = subtreeVecs(2);
const groupVec = subtreeVecs(3);
const classVec = subtreeVecs(4);

const SUPPLY = (d: string): boolean => Number(d) <= 44 || d === "48";

// ---------- scoring ----------
/** Weights of the score's parts (tuned on the tuning halves of checks/*-class-check.tsv only). */
export const W = {
	/** the CPV label's head noun named in the source title; more when both heads agree */
	headNamed: 0.1,
	headAgree: 0.3,
	/** source group context against the CPV code's parent chain */
	path: 0.3,
	/** source text against the vocabulary of the CPV class the code is in */
	subtree: 0.3,
	/** source group against the CPV division and group the code is in, relative to the best one */
	division: 0.3,
	group: 0.2,
	/** share of the division prior that comes from the group's parent (UNSPSC segment, NAICS sector) */
	super: 0.5,
	/** a commodity's candidate inside what its class mapped to */
	near: 0.3,
};
/** A word in more than one in COMMON_SHARE of a scheme's titles is weighed down. */
const COMMON_SHARE = 20;
/** How many CPV divisions a source group may map into: wide enough for mixed families, narrow enough to keep homonyms out. */
const DIVISIONS_PER_GROUP = 5;
/** ... and how many more a code's own text may add (saddlery, filed in PSC's agricultural equipment group). */
const OWN_DIVISIONS = 2;
/** A second candidate is kept when it is in another CPV class and scores at least this share of the first. */
const SECOND_RATIO = 0.9;

type Hit = { cpv: string; score: number; parts?: number[] };
/** What a source code brings to the comparison. */
type Probe = {
	/** own title (1), extra text (includes, children), a little of the group title */
	text: Vec;
	/** the group's title and the own title, for the ancestry agreement */
	path: Vec;
	/** stems of the own title, and its head noun */
	own: Set<string>;
	head?: string;
	/** prior per CPV division and group, 0..1, from the whole source group */
	divisions: Map<string, number>;
	groups: Map<string, number>;
	/** CPV code prefixes a commodity's class mapped into (a class, or a whole group): a commodity stays near its class */
	near?: string[];
};

function priors(context: Vec, goods: boolean): { divisions: Map<string, number>; groups: Map<string, number> } {
	const rel = (vecs: Map<string, Vec>): Map<string, number> => {
		const scored = [...vecs].filter(([k]) => SUPPLY(k.slice(0, 2)) === goods).map(([k, v]) => [k, cosine(context, v)] as const);
		const top = Math.max(1e-9, ...scored.map(([, s]) => s));
		return new Map(scored.map(([k, s]) => [k, s / top]));
	};
	return { divisions: rel(divisionVec), groups: rel(groupVec) };
}

/** CPV candidates for a probe, best first, one per CPV class; ties go to the more general code. */
function rank(p: Probe, allowed: Set<string>): Hit[] {
	// How well each CPV class's vocabulary (all the labels below it) fits the source text.
	const codes = [...allowed].sort().flatMap((d) => cpvByDivision.get(d) ?? []);
	const classFit = new Map<string, number>();
	for (const c of codes) {
		const k = classOf(c);
		if (!classFit.has(k)) classFit.set(k, cosine(p.text, classVec.get(k) ?? groupVec.get(k) ?? divisionVec.get(k) ?? new Map()));
	}
	const best = new Map<string, Hit>();
	for (const c of codes) {
		const d = c.slice(0, 2);
		const own = cosine(p.text, cpvVec.get(c) ?? new Map());
		if (own <= 0) continue;
		const k = classOf(c);
		const h = cpvHead.get(c);
		const parts = [
			own,
			h && p.own.has(h) ? (h === p.head ? W.headAgree : W.headNamed) : 0,
			W.path * cosine(p.path, cpvPathVec.get(c) ?? new Map()),
			W.subtree * (classFit.get(k) ?? 0),
			W.division * (p.divisions.get(`${d}000000`) ?? 0),
			W.group * (p.groups.get(`${c.slice(0, 3)}00000`) ?? 0),
			p.near?.some((prefix) => c.startsWith(prefix)) ? W.near : 0,
		];
		let s = 0;
		for (const x of parts) s += x;
		const prev = best.get(k);
		if (!prev || s > prev.score || (s === prev.score && depthOf(c) < depthOf(prev.cpv)))
			best.set(k, { cpv: c, score: s, ...(explaining ? { parts } : {}) });
	}
	return [...best.values()].sort((a, b) => b.score - a.score || depthOf(a.cpv) - depthOf(b.cpv) || a.cpv.localeCompare(b.cpv));
}

/** The CPV divisions a code is searched in: those its group fits best, and those its own text fits best. */
function topDivisions(p: Probe, k: number): Set<string> {
	const scored = [...p.divisions].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
	const own = [...p.divisions.keys()]
		.map((d) => [d, cosine(p.text, divisionVec.get(d) ?? new Map())] as const)
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
	return new Set([...scored.slice(0, k), ...own.slice(0, OWN_DIVISIONS)].map(([d]) => d.slice(0, 2)));
}

/** Below this score a mapping is kept in the file but not counted as mapped (and not returned by default). */
export const MIN_SCORE = 0.4;
/** code -> [cpv, score, cpv, score, ...], with "class" last for a commodity that carries its class's mapping. */
type Out = { [code: string]: (string | number)[] };
const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The candidates kept for a code: the first, and a second from another class when it is nearly as good. */
function keep(hits: Hit[]): Hit[] {
	const [first, second] = hits;
	if (!first) return [];
	return second && second.score >= SECOND_RATIO * first.score ? [first, second] : [first];
}
/**
 * The scores written are the sums above halved: a code whose title is a CPV label, in the CPV branch its
 * group fits best, scores about 1. On the tuning halves of the checks, codes scored at least 0.4 had the
 * right CPV class about three times in four (PSC) and three in five (UNSPSC).
 */
const SCORE_SCALE = 2;
const flat = (hits: Hit[]): (string | number)[] => hits.flatMap((h) => [h.cpv, round(h.score / SCORE_SCALE)]);

/** `--explain CODE,CODE`: prints the best candidates of these codes with the parts of their scores. */
const EXPLAIN = new Set(
	(process.argv[process.argv.indexOf("--explain") + 1] ?? "").split(",").filter((c) => process.argv.includes("--explain") && c),
);
let explaining = false;
function explain(code: string, p: Probe, hits: Hit[]): void {
	const top = (m: Map<string, number>): string =>
		[...m]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 4)
			.map(([k, v]) => `${k.replace(/0+$/, "")}:${v.toFixed(2)}`)
			.join(" ");
	console.log(
		`${code}: divisions ${top(p.divisions)}; groups ${top(p.groups)}; head ${p.head}; text ${[...p.text]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 8)
			.map(([t, w]) => `${t}:${w.toFixed(2)}`)
			.join(" ")}`,
	);
	for (const h of hits.slice(0, 6))
		console.log(
			`  ${h.cpv} ${h.score.toFixed(3)} [own head path sub div grp near] ${h.parts?.map((x) => x.toFixed(2)).join(" ")} ${cpvTitle.get(h.cpv)}`,
		);
}

// ---------- generic source-side walk ----------
type Node = { code: string; title: string; extra: string[]; goods: boolean };
type Scheme = {
	/** the codes to map */
	nodes: Node[];
	/** a code's group (PSC group, UNSPSC family, NAICS subsector) as a title and its members' titles */
	groupOf: (n: Node) => Group;
	/** the group's own parent (UNSPSC segment, NAICS sector), when there is one: a second say on the CPV division */
	superOf?: (n: Node) => Group;
};
type Group = { key: string; title: string; members: string[] };

function probeFor(
	n: Node,
	g: { title: string },
	divisions: Map<string, number>,
	groups: Map<string, number>,
	common?: Map<string, number>,
): Probe {
	const own = tokens(stripExceptions(n.title));
	const extra = n.extra.map((e) => tokens(stripExceptions(e)));
	const parts: [string[], number][] = [
		[own, 1],
		[tokens(g.title), 0.3],
	];
	// The extras (PSC "includes" lists, UNSPSC commodity titles) weigh 0.5 in all, however many there are.
	for (const e of extra) parts.push([e, 0.5 / Math.max(1, extra.length)]);
	const text = bag(parts);
	if (common) for (const [t, w] of text) text.set(t, w * (common.get(t) ?? 1));
	return {
		text: space.weigh(text),
		path: space.weigh(
			bag([
				[tokens(g.title), 1],
				[own, 0.5],
			]),
		),
		own: new Set(own),
		head: head(n.title),
		divisions,
		groups,
	};
}

/** Two priors mixed, `share` of the second, scaled again so that the best is 1. */
function mix(a: Map<string, number>, b: Map<string, number>, share: number): Map<string, number> {
	const m = [...a].map(([k, v]) => [k, (1 - share) * v + share * (b.get(k) ?? 0)] as const);
	const top = Math.max(1e-9, ...m.map(([, v]) => v));
	return new Map(m.map(([k, v]) => [k, v / top]));
}

/** A group's context: its title twice and each member's title once (a big group's members say more than its title). */
function contextOf(title: string, members: string[]): Vec {
	return space.weigh(bag([[tokens(title), 2], ...members.map((m): [string[], number] => [tokens(m), 1])]));
}

/**
 * Words a scheme puts in a large share of its own titles ("Manufacturing" in NAICS) say what kind of
 * code it is, not what goods: weighed down by how common they are in the scheme (1 below 5% of titles).
 */
function schemeWords(titles: string[]): Map<string, number> {
	const df = new Map<string, number>();
	for (const t of titles) for (const w of new Set(tokens(t))) df.set(w, (df.get(w) ?? 0) + 1);
	const out = new Map<string, number>();
	for (const [w, n] of df) out.set(w, Math.max(0.1, Math.min(1, Math.log(titles.length / n) / Math.log(COMMON_SHARE))));
	return out;
}

function mapScheme(s: Scheme): Map<string, Hit[]> {
	const contexts = new Map<string, ReturnType<typeof priors>>();
	const out = new Map<string, Hit[]>();
	const common = schemeWords(s.nodes.map((n) => n.title));
	for (const n of s.nodes) {
		const g = s.groupOf(n);
		const key = `${g.key}|${n.goods}`;
		let pr = contexts.get(key);
		if (!pr) {
			pr = priors(contextOf(g.title, g.members), n.goods);
			const sup = s.superOf?.(n);
			if (sup && W.super) {
				// A UNSPSC drug family may name its classes after chemical families; its segment says they are drugs.
				const wide = priors(contextOf(sup.title, sup.members), n.goods);
				pr = { divisions: mix(pr.divisions, wide.divisions, W.super), groups: mix(pr.groups, wide.groups, W.super) };
			}
			contexts.set(key, pr);
		}
		const p = probeFor(n, g, pr.divisions, pr.groups, common);
		explaining = EXPLAIN.has(n.code);
		const hits = rank(p, topDivisions(p, DIVISIONS_PER_GROUP));
		if (explaining) explain(n.code, p, hits);
		out.set(n.code, hits);
	}
	return out;
}

// ---------- UNSPSC ----------
function unspsc(): { classes: Out; commodities: Out } {
	const entries = load("unspsc.json.gz").entries as [string, string][];
	const title = new Map(entries);
	const isClass = (c: string): boolean => /^\d{4}(?!00)\d\d00$/.test(c);
	const isCommodity = (c: string): boolean => /^\d{6}(?!00)\d\d$/.test(c);
	const kids = new Map<string, string[]>();
	for (const [c, t] of entries) if (isCommodity(c)) kids.set(`${c.slice(0, 6)}00`, [...(kids.get(`${c.slice(0, 6)}00`) ?? []), t]);
	const membersOf = new Map<string, string[]>();
	for (const [c, t] of entries) if (isClass(c)) membersOf.set(c.slice(0, 4), [...(membersOf.get(c.slice(0, 4)) ?? []), t]);
	const familiesOf = new Map<string, string[]>();
	for (const [c, t] of entries)
		if (/^\d{2}(?!00)\d\d0000$/.test(c)) familiesOf.set(c.slice(0, 2), [...(familiesOf.get(c.slice(0, 2)) ?? []), t]);
	const goods = (c: string): boolean => Number(c.slice(0, 2)) < 70;
	const classNodes: Node[] = entries
		.filter(([c]) => isClass(c))
		.map(([c, t]) => ({ code: c, title: t, extra: kids.get(c) ?? [], goods: goods(c) }));
	// A family's context is its own title and its segment's: the drug segment's title over a family of
	// blood-pressure drugs whose class titles are the names of chemical families.
	const familyTitle = (c: string): string => `${title.get(`${c.slice(0, 4)}0000`) ?? ""}. ${title.get(`${c.slice(0, 2)}000000`) ?? ""}`;
	const classHits = mapScheme({
		nodes: classNodes,
		groupOf: (n) => ({ key: n.code.slice(0, 4), title: familyTitle(n.code), members: membersOf.get(n.code.slice(0, 4)) ?? [] }),
		superOf: (n) => ({
			key: n.code.slice(0, 2),
			title: title.get(`${n.code.slice(0, 2)}000000`) ?? "",
			members: familiesOf.get(n.code.slice(0, 2)) ?? [],
		}),
	});
	const classes: Out = {};
	for (const [c, hits] of classHits) if (hits[0]) classes[c] = flat(keep(hits));

	// Commodities: searched inside the CPV divisions their class mapped to, near the class's CPV classes;
	// a commodity whose best match scores under half its class's keeps the class's mapping.
	const commodities: Out = {};
	const classContext = new Map<string, ReturnType<typeof priors>>();
	for (const [c, t] of entries) {
		if (!isCommodity(c)) continue;
		const cls = `${c.slice(0, 6)}00`;
		const viaClass = keep(classHits.get(cls) ?? []);
		let pr = classContext.get(cls);
		if (!pr) {
			pr = priors(contextOf(title.get(cls) ?? "", kids.get(cls) ?? []), goods(c));
			classContext.set(cls, pr);
		}
		const p = probeFor({ code: c, title: t, extra: [], goods: goods(c) }, { title: title.get(cls) ?? "" }, pr.divisions, pr.groups);
		const allowed = viaClass.length ? new Set(viaClass.map((h) => h.cpv.slice(0, 2))) : topDivisions(p, 3);
		p.near = viaClass.map((h) => h.cpv.slice(0, Math.min(4, depthOf(h.cpv))));
		const hits = keep(rank(p, allowed));
		const top = hits[0];
		const classTop = viaClass[0];
		if (top && (!classTop || top.score >= 0.5 * classTop.score)) commodities[c] = flat(hits);
		else if (classTop) commodities[c] = [...flat(viaClass), "class"];
	}
	return { classes, commodities };
}

// ---------- PSC ----------
type PscEntry = [string, string, string, string, string | null, boolean];

/** Whether `short` is an abbreviation of `long`: same first letter, its letters in order ("eqpt" of "equipment"). */
function abbreviates(short: string, long: string): boolean {
	if (long[0] !== short[0] || long.length <= short.length) return false;
	let i = 0;
	for (const ch of long) if (ch === short[i]) i++;
	return i === short.length;
}
/**
 * PSC short names are abbreviated (EQPT for equipment, MAINT for maintenance) and groups have no full name.
 * The codes that have both teach the abbreviations: a short-name word missing from the full name that
 * abbreviates exactly one full-name word, consistently (at least twice, 60% of its uses). Only words
 * CPV does not know are expanded, so that "store" or "test" stay what they are.
 */
function pscGlossary(entries: PscEntry[]): Map<string, string> {
	const counts = new Map<string, Map<string, number>>();
	for (const [, name, full] of entries) {
		if (!name || !full) continue;
		const fullWords = wordsOf(full);
		const known = new Set(fullWords);
		for (const w of wordsOf(name)) {
			if (!/^[a-z]{2,}$/.test(w) || known.has(w)) continue;
			const longs = [...new Set(fullWords.filter((f) => abbreviates(w, f)))];
			if (longs.length !== 1) continue;
			const m = counts.get(w) ?? new Map<string, number>();
			m.set(longs[0] ?? "", (m.get(longs[0] ?? "") ?? 0) + 1);
			counts.set(w, m);
		}
	}
	const out = new Map<string, string>();
	for (const [w, m] of counts) {
		const total = [...m.values()].reduce((a, b) => a + b, 0);
		const [long, n] = [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ["", 0];
		if (n >= 2 && n >= 0.6 * total && tokens(w).every((t) => !space.idf.has(t))) out.set(w, long);
	}
	return out;
}

function psc(): Out {
	const entries = load("psc.json.gz").entries as PscEntry[];
	const byCode = new Map(entries.map((e) => [e[0], e]));
	const glossary = pscGlossary(entries);
	const expand = (name: string): string =>
		wordsOf(name)
			.map((w) => glossary.get(w) ?? w)
			.join(" ");
	// The full name is the better title, except where it lost the subject (PSC 7735, home radio and TV parts,
	// whose full name keeps only the words for "of the home kind").
	const titleOf = (e: PscEntry): string => (tokens(e[2]).length >= tokens(e[1]).length ? e[2] : `${expand(e[1])} ${e[2]}`);
	const groupKey = (e: PscEntry): string => e[4] ?? e[0].slice(0, 2);
	const members = new Map<string, string[]>();
	for (const e of entries) if (e[0].length === 4) members.set(groupKey(e), [...(members.get(groupKey(e)) ?? []), titleOf(e)]);
	const nodes: Node[] = entries
		.filter((e) => e[0].length === 4)
		// The "includes" list names the goods a product code covers; it is the best description PSC gives.
		.map((e) => ({ code: e[0], title: titleOf(e), extra: e[3] ? e[3].split(/;\s*/) : [], goods: /^\d/.test(e[0]) }));
	const hits = mapScheme({
		nodes,
		groupOf: (n) => {
			const k = groupKey(byCode.get(n.code) ?? [n.code, "", "", "", null, true]);
			const g = byCode.get(k);
			return { key: k, title: g ? titleOf(g) : "", members: members.get(k) ?? [] };
		},
	});
	const out: Out = {};
	for (const [c, h] of hits) if (h[0]) out[c] = flat(keep(h));
	return out;
}

// ---------- NAICS ----------
function naics(): Out {
	const entries = load("naics.json.gz").entries as [string, string][];
	const title = new Map(entries);
	// NAICS sectors: 11, 21 agriculture/mining and 31-33 manufacturing make goods; trade (42, 44-45) sells goods.
	const goodsSector = (c: string): boolean => /^(11|21|31|32|33|42|44|45)/.test(c);
	const members = new Map<string, string[]>();
	for (const [c, t] of entries) if (c.length === 6) members.set(c.slice(0, 3), [...(members.get(c.slice(0, 3)) ?? []), t]);
	const subsectorsOf = new Map<string, string[]>();
	for (const [c, t] of entries) if (c.length === 3) subsectorsOf.set(c.slice(0, 2), [...(subsectorsOf.get(c.slice(0, 2)) ?? []), t]);
	// Sectors 31-33, 44-45 and 48-49 are listed as ranges ("31-33").
	const sectorTitle = (c: string): string => {
		const two = Number(c.slice(0, 2));
		const range = entries.find(([k]) => /^\d\d-\d\d$/.test(k) && two >= Number(k.slice(0, 2)) && two <= Number(k.slice(3)));
		return title.get(c.slice(0, 2)) ?? range?.[1] ?? "";
	};
	const nodes: Node[] = entries.filter(([c]) => c.length === 6).map(([c, t]) => ({ code: c, title: t, extra: [], goods: goodsSector(c) }));
	const hits = mapScheme({
		nodes,
		groupOf: (n) => ({
			key: n.code.slice(0, 3),
			title: title.get(n.code.slice(0, 3)) ?? "",
			members: members.get(n.code.slice(0, 3)) ?? [],
		}),
		superOf: (n) => ({ key: n.code.slice(0, 2), title: sectorTitle(n.code), members: subsectorsOf.get(n.code.slice(0, 2)) ?? [] }),
	});
	const out: Out = {};
	for (const [c, h] of hits) if (h[0]) out[c] = flat(keep(h));
	return out;
}

const METHOD =
	"tfidf-cosine on English titles (Snowball stems, British spelling) + head-noun and ancestry agreement + fit with the CPV " +
	"class's vocabulary + the source group's (and segment's/sector's) fit with the CPV division and group; goods -> CPV supply " +
	"divisions, services -> works and services; one candidate per CPV class, a second kept within 10% of the first; scores halved";

if (import.meta.filename === process.argv[1]) {
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
		const ok = Object.values(m).filter((h) => Number(h[1]) >= MIN_SCORE).length;
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
	const goodsPsc = pscList.filter((e) => /^\d[0-9A-Z]{3}$/.test(e[0])).map((e) => e[0]);
	console.log(`  PSC goods codes ${coverage(Object.fromEntries(goodsPsc.flatMap((c) => (p[c] ? [[c, p[c]]] : []))), goodsPsc.length)}`);
	console.log(`  NAICS 6-digit ${coverage(n, count(/^\d{6}$/, load("naics.json.gz").entries as [string][]))}`);
}
