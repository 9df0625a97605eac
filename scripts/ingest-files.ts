import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseFeed } from "../services/opportunities/feeds/detect.ts";
import { callInternal, type Caller } from "../shared/actions.ts";
import { progress } from "./progress.ts";

// `ingest <file or folder>`: every feed file is parsed here (format detected) and its notices
// sent to the opportunities service in batches. A malformed file or record is reported and
// skipped; re-ingesting the same files changes nothing.

const FEED_FILE = /\.(json|xml)$/i;

async function filesUnder(path: string): Promise<string[]> {
	if (!(await stat(path)).isDirectory()) return [path];
	const out: string[] = [];
	for (const e of await readdir(path, { withFileTypes: true })) {
		const p = join(path, e.name);
		if (e.isDirectory()) out.push(...(await filesUnder(p)));
		else if (FEED_FILE.test(e.name)) out.push(p);
	}
	return out.sort();
}

export async function ingestFiles(paths: string[], caller: Caller) {
	const files = (await Promise.all(paths.map(filesUnder))).flat();
	const counts = { created: 0, updated: 0, unchanged: 0, stale: 0, duplicate: 0, renormalized: 0 };
	const rejected: Array<{ file: string; record?: string; reason: string }> = [];
	const staleRecords: Array<{ file: string; record: string; reason?: string }> = [];
	const sources = new Set<string>();
	const parsed = [];
	for (const file of files) {
		const feed = parseFeed(await readFile(file), { filename: file });
		if (feed.format === "unknown") rejected.push({ file, reason: feed.rejected[0]?.reason ?? "not a recognised feed format" });
		else
			for (const r of feed.rejected)
				rejected.push({ file, record: r.ref ?? (r.index !== undefined ? `#${r.index}` : undefined), reason: r.reason });
		parsed.push({ file, format: feed.format, notices: feed.notices });
	}
	const total = parsed.reduce((n, f) => n + f.notices.length, 0);
	const tick = progress(total);
	let done = 0;
	for (const { file, notices } of parsed) {
		for (let i = 0; i < notices.length; i += 50) {
			const batch = notices.slice(i, i + 50);
			const { outcomes } = await callInternal(caller, "opportunities.ingestNotices", { notices: batch });
			for (const o of outcomes) {
				counts[o.action]++;
				sources.add(o.source);
				if (o.action === "stale") staleRecords.push({ file, record: `${o.source} ${o.source_id}`, reason: o.reason });
			}
			tick((done += batch.length));
		}
	}
	for (const source of sources)
		await callInternal(caller, "opportunities.recordIngestionRun", { source, outcome: "succeeded", summary: counts });
	return { files: files.length, notices: total, ...counts, rejected, stale_records: staleRecords };
}
