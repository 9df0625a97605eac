// Helpers shared by the taxonomy build scripts: the code lists arrive as npm tarballs and Excel
// workbooks, and we want the build to run with no spreadsheet library and no network, so a
// minimal xlsx reader (shared strings + first sheet) sits on top of fflate's unzip.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { unzipSync, strFromU8 } from "fflate";

export const repoRoot = resolve(import.meta.dirname, "../..");
export const dataDir = join(repoRoot, "data/taxonomies");

/** Where the source files are read from: `--sources DIR`, else ../shared/taxonomies/sources beside the repository. */
export function sourcesDir(argv: string[] = process.argv): string {
	const i = argv.indexOf("--sources");
	const given = i >= 0 ? argv[i + 1] : undefined;
	return resolve(given ?? join(repoRoot, "../shared/taxonomies/sources"));
}

export function sha256(path: string): string {
	return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Writes JSON gzip-compressed with a fixed mtime so that a rebuild from the same sources is byte-identical. */
export function writeGzJson(name: string, value: unknown): number {
	const path = join(dataDir, name);
	mkdirSync(dirname(path), { recursive: true });
	const gz = gzipSync(Buffer.from(JSON.stringify(value)), { level: 9 });
	gz.writeUInt32LE(0, 4); // gzip header mtime: keep output reproducible
	writeFileSync(path, gz);
	return gz.length;
}

const xmlEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
function unescapeXml(s: string): string {
	return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
		if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
		return xmlEntities[e] ?? m;
	});
}

function columnIndex(ref: string): number {
	let n = 0;
	for (const ch of ref.replace(/\d+$/, "")) n = n * 26 + (ch.charCodeAt(0) - 64);
	return n - 1;
}

/** Rows of one worksheet as arrays of cell strings (shared strings and inline strings resolved). */
export function readXlsx(path: string, sheet = 1): string[][] {
	const files = unzipSync(new Uint8Array(readFileSync(path)));
	const text = (name: string): string => {
		const f = files[name];
		return f ? strFromU8(f) : "";
	};
	const shared = [...text("xl/sharedStrings.xml").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
		unescapeXml([...(m[1] ?? "").matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1] ?? "").join("")),
	);
	const rows: string[][] = [];
	for (const row of text(`xl/worksheets/sheet${sheet}.xml`).matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
		const cells: string[] = [];
		for (const c of (row[1] ?? "").matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
			const attrs = c[1] ?? "";
			const ref = /r="([A-Z]+\d+)"/.exec(attrs)?.[1];
			const type = /t="(\w+)"/.exec(attrs)?.[1];
			const body = c[2] ?? "";
			const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
			let value = "";
			if (type === "s" && v !== undefined) value = shared[Number(v)] ?? "";
			else if (type === "inlineStr") value = unescapeXml([...body.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1] ?? "").join(""));
			else if (v !== undefined) value = unescapeXml(v);
			cells[ref ? columnIndex(ref) : cells.length] = value;
		}
		rows.push(Array.from(cells, (x) => (x ?? "").trim()));
	}
	return rows;
}

/** Collapses whitespace and stray spaces the source spreadsheets carry around titles. */
export function cleanTitle(s: string): string {
	return s.replace(/\s+/g, " ").trim();
}
