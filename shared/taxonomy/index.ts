// Typed lookups over the taxonomy data in data/taxonomies/ (CPV with its labels in the 24 EU
// languages, UNSPSC, NAICS, PSC, and the crosswalks to CPV). Each file is read and indexed the
// first time it is asked for, so that services that never touch a scheme never pay for it.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { normalizeCode, structuralAncestors, type Scheme } from "./codes.ts";

import { EU_LANGUAGES } from "../text/languages.ts";

export { Scheme, normalizeCode, structuralAncestors } from "./codes.ts";

/** The CPV's label languages: the EU's 24, in the order its label arrays are stored. */
export const CPV_LANGUAGES = EU_LANGUAGES;
export const Language = z.enum(CPV_LANGUAGES);
export type Language = z.infer<typeof Language>;

export const TaxonomyEntry = z.object({
	scheme: z.enum(["cpv", "unspsc", "naics", "psc"]),
	code: z.string(),
	/** English title (CPV: the English label). */
	title: z.string(),
	parent: z.string().optional(),
	/** Depth in the scheme's hierarchy, 1 for the top level. */
	level: z.number().int().positive(),
	/** PSC only: false for codes withdrawn from the current manual. */
	active: z.boolean().optional(),
});
export type TaxonomyEntry = z.infer<typeof TaxonomyEntry>;

export const CrosswalkHit = z.object({
	cpv: z.string(),
	score: z.number(),
	/** The source code the mapping was made for: the code asked, or the nearest ancestor that has one. */
	via: z.string(),
	/** True when a commodity had no match of its own and carries its class's mapping. */
	inherited: z.boolean(),
});
export type CrosswalkHit = z.infer<typeof CrosswalkHit>;

const defaultDir = resolve(import.meta.dirname, "../../data/taxonomies");
let dataDir = defaultDir;

/** Points the loader at another directory (tests of the build scripts); clears what was loaded. */
export function setTaxonomyDir(dir: string = defaultDir): void {
	dataDir = dir;
	cache.clear();
}

const cache = new Map<string, unknown>();
function lazy<T>(key: string, build: () => T): T {
	if (!cache.has(key)) cache.set(key, build());
	return cache.get(key) as T;
}
function readGz(name: string): unknown {
	return JSON.parse(gunzipSync(readFileSync(join(dataDir, name))).toString("utf8"));
}

/** Whether a scheme's data file is present (UNSPSC, NAICS and PSC titles are built locally; see data/taxonomies/README.md). */
export function available(scheme: Scheme): boolean {
	return existsSync(join(dataDir, `${scheme}.json.gz`));
}

type Node = { title: string; labels?: readonly string[]; active?: boolean };
type Index = Map<string, Node>;

const CpvFile = z.object({
	languages: z.array(z.string()),
	entries: z.array(z.tuple([z.string(), z.string().nullable(), z.array(z.string())])),
});
const PairFile = z.object({ entries: z.array(z.tuple([z.string(), z.string()])) });
const PscFile = z.object({
	entries: z.array(z.tuple([z.string(), z.string(), z.string(), z.string(), z.string().nullable(), z.boolean()])),
});

function index(scheme: Scheme): Index {
	return lazy(`index:${scheme}`, () => {
		const out: Index = new Map();
		if (scheme === "cpv") {
			const f = CpvFile.parse(readGz("cpv.json.gz"));
			const en = f.languages.indexOf("en");
			for (const [code, , labels] of f.entries) out.set(code, { title: labels[en] ?? "", labels });
		} else if (scheme === "psc") {
			for (const [code, name, full, , , active] of PscFile.parse(readGz("psc.json.gz")).entries)
				out.set(code, { title: full || name, active });
		} else {
			for (const [code, title] of PairFile.parse(readGz(`${scheme}.json.gz`)).entries) out.set(code, { title });
		}
		return out;
	});
}

/** NAICS sectors 31-33, 44-45 and 48-49 are written as ranges; "32" belongs to "31-33". */
function naicsSector(code: string): string {
	const range = { "31": "31-33", "32": "31-33", "33": "31-33", "44": "44-45", "45": "44-45", "48": "48-49", "49": "48-49" };
	return range[code as keyof typeof range] ?? code;
}

function canonical(scheme: Scheme, raw: string): string | undefined {
	const code = normalizeCode(scheme, raw);
	return scheme === "naics" && code?.length === 2 ? naicsSector(code) : code;
}

/** Existing ancestors of a code (whether or not the code itself exists), nearest first. */
function existingAncestors(scheme: Scheme, code: string): string[] {
	const idx = index(scheme);
	return structuralAncestors(scheme, code)
		.map((c) => (scheme === "naics" && c.length === 2 ? naicsSector(c) : c))
		.filter((c) => idx.has(c));
}

function entry(scheme: Scheme, code: string): TaxonomyEntry | undefined {
	const node = index(scheme).get(code);
	if (!node) return undefined;
	const ancestors = existingAncestors(scheme, code);
	return {
		scheme,
		code,
		title: node.title,
		parent: ancestors[0],
		level: ancestors.length + 1,
		...(node.active === undefined ? {} : { active: node.active }),
	};
}

/** The entry for exactly this code (any accepted spelling), or undefined. */
export function lookup(scheme: Scheme, raw: string): TaxonomyEntry | undefined {
	const code = canonical(scheme, raw);
	return code ? entry(scheme, code) : undefined;
}

/** The entry for this code, or for its nearest ancestor that the data knows (a commodity missing from the list resolves to its class). */
export function resolveCode(scheme: Scheme, raw: string): TaxonomyEntry | undefined {
	const code = canonical(scheme, raw);
	if (!code) return undefined;
	const hit = entry(scheme, code) ?? existingAncestors(scheme, code).map((c) => entry(scheme, c))[0];
	return hit;
}

/** The parent chain of a code, nearest first, as entries (the code itself excluded). */
export function ancestors(scheme: Scheme, raw: string): TaxonomyEntry[] {
	const code = canonical(scheme, raw);
	if (!code) return [];
	return existingAncestors(scheme, code).flatMap((c) => entry(scheme, c) ?? []);
}

/** Whether `code` equals `ancestor` or lies below it in the hierarchy. */
export function isWithin(scheme: Scheme, raw: string, ancestorRaw: string): boolean {
	const code = canonical(scheme, raw);
	const anc = canonical(scheme, ancestorRaw);
	if (!code || !anc) return false;
	return (
		code === anc ||
		structuralAncestors(scheme, code)
			.map((c) => (scheme === "naics" && c.length === 2 ? naicsSector(c) : c))
			.includes(anc)
	);
}

/** A CPV code's label in a language (English when the language is not one of the 24). */
export function cpvLabel(raw: string, lang: string = "en"): string | undefined {
	const code = canonical("cpv", raw);
	const node = code ? index("cpv").get(code) : undefined;
	if (!node?.labels) return undefined;
	const i = CPV_LANGUAGES.indexOf(lang.toLowerCase().slice(0, 2) as Language);
	return node.labels[i >= 0 ? i : CPV_LANGUAGES.indexOf("en")] || node.title;
}

/** All 24 labels of a CPV code, by language. */
export function cpvLabels(raw: string): Partial<Record<Language, string>> | undefined {
	const code = canonical("cpv", raw);
	const node = code ? index("cpv").get(code) : undefined;
	if (!node?.labels) return undefined;
	return Object.fromEntries(CPV_LANGUAGES.map((l, i) => [l, node.labels?.[i] ?? ""]).filter(([, v]) => v));
}

/** Every CPV code with its labels, for building a multilingual dictionary (one pass, no copy per call). */
export function* cpvEntries(): Generator<{ code: string; labels: Partial<Record<Language, string>> }> {
	for (const [code, node] of index("cpv")) {
		yield { code, labels: Object.fromEntries(CPV_LANGUAGES.map((l, i) => [l, node.labels?.[i] ?? ""])) };
	}
}

const CrosswalkFile = z.object({
	minScore: z.number(),
	classes: z.record(z.string(), z.array(z.union([z.string(), z.number()]))).optional(),
	commodities: z.record(z.string(), z.array(z.union([z.string(), z.number()]))).optional(),
	codes: z.record(z.string(), z.array(z.union([z.string(), z.number()]))).optional(),
});
/** One mapped code: its CPV candidates, best first, and whether they are its class's (a commodity with no match of its own). */
type Mapping = { hits: [string, number][]; inherited: boolean };
type Crosswalk = { minScore: number; map: Map<string, Mapping> };

function crosswalk(scheme: Exclude<Scheme, "cpv">): Crosswalk {
	return lazy(`crosswalk:${scheme}`, () => {
		const f = CrosswalkFile.parse(readGz(`crosswalk-${scheme}-cpv.json.gz`));
		const map = new Map<string, Mapping>();
		for (const part of [f.classes, f.commodities, f.codes]) {
			for (const [code, v] of Object.entries(part ?? {})) {
				// [cpv, score, cpv, score, ..., "class"?]: scored candidates, then the inherited marker.
				const hits: [string, number][] = [];
				for (let i = 0; i + 1 < v.length && typeof v[i + 1] === "number"; i += 2) hits.push([String(v[i]), Number(v[i + 1])]);
				map.set(code, { hits, inherited: v.at(-1) === "class" });
			}
		}
		return { minScore: f.minScore, map };
	});
}

/**
 * CPV codes for a UNSPSC, PSC or NAICS code, best first: the candidates of the code itself, else of its
 * nearest mapped ancestor (a UNSPSC commodity missing from the list uses its class). A code has one
 * candidate, or two from different CPV classes when the second scored nearly as well. Candidates scored
 * below the crosswalk's threshold are left out unless `minScore` says otherwise.
 */
export function toCpv(scheme: Exclude<Scheme, "cpv">, raw: string, minScore?: number): CrosswalkHit[] {
	const code = canonical(scheme, raw);
	if (!code) return [];
	const cw = crosswalk(scheme);
	const floor = minScore ?? cw.minScore;
	for (const c of [code, ...structuralAncestors(scheme, code)]) {
		const m = cw.map.get(c);
		const hits = (m?.hits ?? []).filter(([, score]) => score >= floor);
		if (m && hits.length) return hits.map(([cpv, score]) => ({ cpv, score, via: c, inherited: m.inherited }));
	}
	return [];
}

/**
 * Every mapped code of a crosswalk with its best CPV candidate (scored at least the crosswalk's threshold): the
 * source scheme's hierarchy read in CPV, for whoever groups CPV kinds as that scheme files them (umbrella.ts).
 */
export function* crosswalkBest(scheme: Exclude<Scheme, "cpv">): Generator<{ code: string; cpv: string; inherited: boolean }> {
	const cw = crosswalk(scheme);
	for (const [code, m] of cw.map) {
		const best = m.hits[0];
		if (best && best[1] >= cw.minScore) yield { code, cpv: best[0], inherited: m.inherited };
	}
}

/** Source codes whose mapping lands on this CPV code or below it (the reverse of toCpv, for notices coded in CPV). */
export function fromCpv(scheme: Exclude<Scheme, "cpv">, raw: string, minScore?: number): string[] {
	const code = canonical("cpv", raw);
	if (!code) return [];
	const cw = crosswalk(scheme);
	const floor = minScore ?? cw.minScore;
	const reverse = lazy(`reverse:${scheme}`, () => {
		const r = new Map<string, [string, number][]>();
		for (const [src, m] of cw.map) for (const [cpv, score] of m.hits) r.set(cpv, [...(r.get(cpv) ?? []), [src, score]]);
		return r;
	});
	const out = new Set<string>();
	for (const [cpv, sources] of reverse) {
		if (cpv !== code && !structuralAncestors("cpv", cpv).includes(code)) continue;
		for (const [s, score] of sources) if (score >= floor) out.add(s);
	}
	return [...out].sort();
}
