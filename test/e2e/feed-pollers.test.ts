import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { ROOT } from "../support/processes.ts";

// Scheduled pollers against a local HTTP server that speaks each source's real format:
// SAM.gov's search API, a paged OCDS feed, and TED's search API with eForms XML documents.

const SAMPLES = resolve(ROOT, "../shared/samples");
const samFixture = readFileSync(resolve(ROOT, "test/fixtures/feeds/sam-search-response.json"), "utf8");
const dev = JSON.parse(readFileSync(resolve(ROOT, "../shared/eval/dev/notices.ocds.json"), "utf8"));
const hits: Record<string, number> = {};
const samQueries: URLSearchParams[] = [];
let server: Server;
let base: string;
let h: typeof import("../support/stack.ts");
let q: typeof import("../../shared/queue.ts");
let stack: import("../support/stack.ts").Stack;
let key: string;

function ocdsPage(n: number) {
	const releases = dev.releases.filter((r: { ocid: string }) => Number(r.ocid.slice(-3)) <= 20);
	const half = Math.ceil(releases.length / 2);
	return {
		...dev,
		releases: n === 1 ? releases.slice(0, half) : releases.slice(half),
		...(n === 1 ? { links: { next: "/ocds?page=2" } } : {}),
	};
}

beforeAll(async () => {
	server = createServer((req, res) => {
		const url = new URL(req.url!, "http://x");
		hits[url.pathname] = (hits[url.pathname] ?? 0) + 1;
		const json = (body: unknown) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
		if (url.pathname === "/sam") {
			samQueries.push(url.searchParams);
			if (url.searchParams.get("api_key") !== "sam-test-key") return res.writeHead(403).end('{"error":"API_KEY_INVALID"}');
			return res.writeHead(200, { "Content-Type": "application/json" }).end(samFixture);
		}
		if (url.pathname === "/ocds") return json(ocdsPage(Number(url.searchParams.get("page") ?? 1)));
		if (url.pathname === "/flaky") return hits["/flaky"] === 1 ? res.writeHead(503).end("busy") : json(ocdsPage(2));
		if (url.pathname === "/down") return res.writeHead(500).end("down");
		if (url.pathname === "/ted/search" && req.method === "POST") {
			return json({
				notices: [
					{ "publication-number": "1-2024", links: { xml: { MUL: "/ted/xml/original" } } },
					{ "publication-number": "2-2024", links: { xml: { MUL: "/ted/xml/change" } } },
				],
				totalNoticeCount: 2,
			});
		}
		if (url.pathname === "/ted/xml/original")
			return res
				.writeHead(200, { "Content-Type": "application/xml" })
				.end(readFileSync(resolve(SAMPLES, "eforms_cn_24_open_original.xml")));
		if (url.pathname === "/ted/xml/change")
			return res
				.writeHead(200, { "Content-Type": "application/xml" })
				.end(readFileSync(resolve(SAMPLES, "eforms_change-cn_24_open_dates_amendment.xml")));
		res.writeHead(404).end();
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	process.env.FEEDS = JSON.stringify([
		{ name: "sam", kind: "sam", url: `${base}/sam`, api_key: "sam-test-key", every_minutes: 60 },
		{ name: "state-ocds", kind: "ocds", url: `${base}/ocds`, every_minutes: 30 },
		{ name: "ted", kind: "ted", url: `${base}/ted/search`, every_minutes: 60 },
		{ name: "flaky", kind: "ocds", url: `${base}/flaky`, every_minutes: 60 },
		{ name: "down", kind: "ocds", url: `${base}/down`, every_minutes: 60 },
	]);
	process.env.FEED_RETRY_MS = "100";
	resetConfig();
	h = await import("../support/stack.ts");
	q = await import("../../shared/queue.ts");
	stack = await h.startStack();
	const company = await h.companyWithSession(stack, "Pollers");
	key = (await h.apiKey(stack, company, ["dashboard:read"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await h?.dropTestDatabases();
	server?.close();
});

const runs = async () =>
	(await h.api(stack, "GET", "/dashboard", { key })).body.last_ingestion as Array<{
		source: string;
		last_outcome: string;
		last_success_at: string | null;
	}>;
async function pollNow(feed: string, attempts = 5) {
	await q.producer(q.QUEUES.opportunitiesUpkeep).add("poll-feed", { feed }, { attempts, backoff: { type: "exponential", delay: 100 } });
}
async function waitForRun(source: string, outcome = "succeeded") {
	for (let i = 0; i < 100; i++) {
		const r = (await runs()).find((x) => x.source === source);
		if (r?.last_outcome === outcome) return r;
		await new Promise((res) => setTimeout(res, 100));
	}
	throw new Error(`no ${outcome} run of ${source}`);
}
const notices = async (source: string) => {
	const svc = stack.broker.getLocalService("opportunities") as unknown as {
		m: { notices: { countDocuments(q: object): Promise<number> } };
	};
	return svc.m.notices.countDocuments({ source });
};

describe("feed pollers", () => {
	it("registers one schedule per configured feed", async () => {
		const ids = (await q.producer(q.QUEUES.opportunitiesUpkeep).getJobSchedulers()).map((s) => s.key);
		expect(ids).toEqual(
			expect.arrayContaining(["poll:sam", "poll:state-ocds", "poll:ted", "poll:flaky", "poll:down", "close-past-deadlines"]),
		);
	});

	it("polls SAM.gov with the API key and a posted-date window", async () => {
		await pollNow("sam");
		await waitForRun("sam");
		const last = samQueries.at(-1)!;
		expect(last.get("postedFrom")).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
		expect(last.get("limit")).toBe("1000");
		expect(await notices("sam.gov")).toBeGreaterThanOrEqual(6);
	});

	it("follows an OCDS feed's next links and ingests every page", async () => {
		await pollNow("state-ocds");
		await waitForRun("state-ocds");
		// Two pages per poll; the schedule's own first run may have polled too, at start.
		expect(hits["/ocds"]! % 2, `${hits["/ocds"]} page requests`).toBe(0);
		expect(hits["/ocds"]).toBeGreaterThanOrEqual(2);
		expect(await notices("ocds:evaldev")).toBe(20);
	});

	it("reads TED search results and their eForms documents, the change notice updating its original", async () => {
		await pollNow("ted");
		const run = await waitForRun("ted");
		expect(run.last_success_at).toMatch(/Z$/);
		expect(await notices("ted")).toBe(1);
	});

	it("retries a failing source with backoff and records a source that stays down as failed", async () => {
		await pollNow("flaky");
		await waitForRun("flaky");
		expect(hits["/flaky"]).toBeGreaterThanOrEqual(2); // the first answer was a 503
		await pollNow("down", 2);
		const down = await waitForRun("down", "failed");
		expect(down.last_success_at).toBeNull();
		expect(hits["/down"]).toBeGreaterThanOrEqual(2);
	});

	it("changes nothing when a source serves the same notices again", async () => {
		const before = await notices("ocds:evaldev");
		hits["/ocds"] = 0;
		await pollNow("state-ocds");
		for (let i = 0; i < 50 && hits["/ocds"]! < 2; i++) await new Promise((r) => setTimeout(r, 100));
		await new Promise((r) => setTimeout(r, 300));
		expect(await notices("ocds:evaldev")).toBe(before);
	});
});
