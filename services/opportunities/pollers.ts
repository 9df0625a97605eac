import { z } from "zod";
import { parseFeed, MAX_FEED_BYTES } from "./feeds/detect.ts";
import type { NormalizedNotice } from "./feeds/notice.ts";
import { config } from "../../shared/config.ts";

// Scheduled pollers: each configured source is fetched on its own schedule (FEEDS, a JSON
// array) and its notices handed to ingestion. Fetching is bounded in time, size and pages;
// a failure throws so the job is retried with backoff and the run is recorded as failed.
//
// FEEDS='[{"name":"sam","kind":"sam","url":"https://api.sam.gov/opportunities/v2/search","api_key":"...","every_minutes":60},
//         {"name":"uk-contracts-finder","kind":"ocds","url":"https://.../Published/Notices/OCDS/Search?stages=tender"},
//         {"name":"ted","kind":"ted","url":"https://api.ted.europa.eu/v3/notices/search","query":"notice-type=cn-standard"}]'

export const FeedConfig = z.object({
	name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/),
	kind: z.enum(["sam", "ocds", "ted"]),
	url: z.url(),
	api_key: z.string().max(200).optional(),
	/** TED expert-search query (default: notices published in the last days). */
	query: z.string().max(2000).optional(),
	every_minutes: z
		.number()
		.int()
		.min(1)
		.max(24 * 60)
		.default(60),
	/** How far back each run looks (SAM postedFrom; TED publication date). */
	lookback_days: z.number().int().min(1).max(30).default(2),
	max_pages: z.number().int().min(1).max(100).default(20),
});
export type FeedConfig = z.infer<typeof FeedConfig>;

export function feedsFromEnv(raw = config().FEEDS): FeedConfig[] {
	if (!raw.trim()) return [];
	return z.array(FeedConfig).parse(JSON.parse(raw));
}

const TIMEOUT_MS = 30_000;

async function fetchBounded(url: string, init: RequestInit = {}): Promise<string> {
	const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "follow" });
	if (!res.ok) throw new Error(`${new URL(url).host} answered ${res.status}`);
	const length = Number(res.headers.get("content-length") ?? 0);
	if (length > MAX_FEED_BYTES) throw new Error(`${new URL(url).host} sent ${length} bytes, over the ${MAX_FEED_BYTES} limit`);
	const text = await res.text();
	if (text.length > MAX_FEED_BYTES) throw new Error(`${new URL(url).host} sent more than ${MAX_FEED_BYTES} bytes`);
	return text;
}

export interface PollResult {
	notices: NormalizedNotice[];
	rejected: number;
	pages: number;
}

const usDate = (d: Date) =>
	`${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCDate()).padStart(2, "0")}/${d.getUTCFullYear()}`;

/** SAM.gov Get Opportunities v2: posted in the look-back window, paged by offset. */
async function pollSam(f: FeedConfig, now: Date): Promise<PollResult> {
	const out: PollResult = { notices: [], rejected: 0, pages: 0 };
	const limit = 1000;
	for (let offset = 0; out.pages < f.max_pages; offset += limit) {
		const u = new URL(f.url);
		u.searchParams.set("api_key", f.api_key ?? "");
		u.searchParams.set("postedFrom", usDate(new Date(now.getTime() - f.lookback_days * 86400_000)));
		u.searchParams.set("postedTo", usDate(now));
		u.searchParams.set("limit", String(limit));
		u.searchParams.set("offset", String(offset));
		const text = await fetchBounded(u.toString());
		const page = parseFeed(text, { filename: "sam.json" });
		if (page.format !== "sam") throw new Error(`SAM.gov answered something else: ${page.rejected[0]?.reason ?? page.format}`);
		out.pages++;
		out.notices.push(...page.notices);
		out.rejected += page.rejected.length;
		const total = Number((JSON.parse(text) as { totalRecords?: number }).totalRecords ?? 0);
		if (offset + limit >= total) break;
	}
	return out;
}

/** An OCDS release or record package, following `links.next` page by page. */
async function pollOcds(f: FeedConfig): Promise<PollResult> {
	const out: PollResult = { notices: [], rejected: 0, pages: 0 };
	let next: string | undefined = f.url;
	while (next && out.pages < f.max_pages) {
		const text = await fetchBounded(next);
		const page = parseFeed(text, { filename: "feed.json" });
		if (page.format !== "ocds") throw new Error(`the OCDS feed answered something else: ${page.rejected[0]?.reason ?? page.format}`);
		out.pages++;
		out.notices.push(...page.notices);
		out.rejected += page.rejected.length;
		const link = (JSON.parse(text) as { links?: { next?: unknown } }).links?.next;
		next = typeof link === "string" && link !== next ? new URL(link, next).toString() : undefined;
	}
	return out;
}

/** TED search API: notices matching the query, then each one's eForms XML. */
async function pollTed(f: FeedConfig, now: Date): Promise<PollResult> {
	const out: PollResult = { notices: [], rejected: 0, pages: 0 };
	const since = new Date(now.getTime() - f.lookback_days * 86400_000).toISOString().slice(0, 10).replaceAll("-", "");
	const query = f.query ?? `publication-date>=${since}`;
	for (let page = 1; page <= f.max_pages; page++) {
		const text = await fetchBounded(f.url, {
			method: "POST",
			headers: { "Content-Type": "application/json", Accept: "application/json" },
			body: JSON.stringify({
				query,
				fields: ["publication-number", "links"],
				page,
				limit: 100,
				scope: "ACTIVE",
				paginationMode: "PAGE_NUMBER",
			}),
		});
		out.pages++;
		const body = JSON.parse(text) as { notices?: Array<{ links?: { xml?: Record<string, string> } }>; totalNoticeCount?: number };
		const notices = body.notices ?? [];
		for (const n of notices) {
			const xmlUrl = n.links?.xml ? (n.links.xml.MUL ?? Object.values(n.links.xml)[0]) : undefined;
			if (!xmlUrl) {
				out.rejected++;
				continue;
			}
			const parsed = parseFeed(await fetchBounded(new URL(xmlUrl, f.url).toString()), { filename: "notice.xml" });
			out.notices.push(...parsed.notices);
			out.rejected += parsed.rejected.length;
		}
		if (notices.length < 100 || page * 100 >= (body.totalNoticeCount ?? 0)) break;
	}
	return out;
}

export function poll(f: FeedConfig, now = new Date()): Promise<PollResult> {
	switch (f.kind) {
		case "sam":
			return pollSam(f, now);
		case "ocds":
			return pollOcds(f);
		case "ted":
			return pollTed(f, now);
	}
}
