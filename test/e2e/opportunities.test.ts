import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { encodeCursor } from "../../shared/cursor.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { QUEUES } from "../../shared/queue.ts";
import { match, notice, version } from "../support/opportunities.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Company, type Stack } from "../support/stack.ts";

// The company's opportunities over HTTP: list (filters, sort, cursors), detail, archive,
// feedback and dashboard, with tenant isolation and scopes.

let stack: Stack;
let acme: Company;
let globex: Company;
let read: string;
let write: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
	stack = await startStack();
	acme = await companyWithSession(stack, "Acme Lab Supply");
	globex = await companyWithSession(stack, "Globex");
	read = (await apiKey(stack, acme, ["opportunities:read"])).secret;
	write = (await apiKey(stack, acme, ["opportunities:read", "opportunities:write", "dashboard:read"])).secret;
	const day = 86400_000;
	const specs: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
		[
			"high",
			{
				title: "Centrifuge 5430 R (brand name or equal)",
				deadline: new Date(Date.now() + 3 * day).toISOString(),
				estimated_value: 45000,
				currency: "USD",
			},
			{ score: 91 },
		],
		[
			"mid",
			{ title: "Lab freezers", issuing_body: "Veterans Affairs (VA)", deadline: new Date(Date.now() + 20 * day).toISOString() },
			{ score: 64 },
		],
		["low", { title: "Pipettes", source: "sam", deadline: null }, { score: 35 }],
		["unscored", { title: "Autoclave maintenance", deadline: new Date(Date.now() + 40 * day).toISOString() }, { score: null }],
		["tie", { title: "Centrifuge rotor", deadline: new Date(Date.now() + 5 * day).toISOString() }, { score: 64 }],
	];
	for (const [name, n, mres] of specs) ids[name] = await match(stack, acme.tenantId, await notice(stack, n), mres);
	ids.globex = await match(stack, globex.tenantId, await notice(stack, { title: "Globex only" }), { score: 99 });
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const list = async (query = "", key = read) => {
	const res = await api(stack, "GET", `/opportunities${query}`, { key });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body as { items: any[]; nextCursor: string | null };
};
const titles = (items: any[]) => items.map((i) => i.title);

describe("GET /opportunities", () => {
	it("lists the company's opportunities best first, unscored last, with every summary field", async () => {
		const { items, nextCursor } = await list();
		expect(items.map((i) => i.id)).toEqual([ids.high, ...[ids.mid, ids.tie].sort(), ids.low, ids.unscored]);
		expect(nextCursor).toBeNull();
		expect(items[0]).toEqual({
			id: ids.high,
			rfp_id: expect.stringMatching(/^RFP-/),
			title: "Centrifuge 5430 R (brand name or equal)",
			issuing_body: "Ministry of Health",
			source: "ocds:test",
			status: "new",
			discovered_at: expect.stringMatching(/Z$/),
			source_status: "open",
			deadline: expect.stringMatching(/Z$/),
			estimated_value: 45000,
			currency: "USD",
			score: 91,
			score_source: "matcher",
			archived_at: null,
			product_match_name: "Centrifuge 5430",
		});
		expect(items.map((i) => i.id)).not.toContain(ids.globex);
	});

	it("sorts by deadline and discovery in both directions, missing deadlines last", async () => {
		expect((await list("?sort=deadline")).items.map((i) => i.id)).toEqual([ids.high, ids.tie, ids.mid, ids.unscored, ids.low]);
		expect((await list("?sort=-deadline")).items.map((i) => i.id)).toEqual([ids.unscored, ids.mid, ids.tie, ids.high, ids.low]);
		expect((await list("?sort=score")).items.at(-1).id).toBe(ids.unscored);
		const newest = (await list("?sort=-discovered_at")).items.map((i) => i.id);
		expect(newest).toEqual([...(await list("?sort=discovered_at")).items.map((i) => i.id)].reverse());
	});

	it("pages with an opaque cursor without duplicates or gaps, even with inserts between pages", async () => {
		const seen: string[] = [];
		let cursor: string | null = null;
		let pages = 0;
		do {
			const page: { items: any[]; nextCursor: string | null } = await list(
				`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
			);
			seen.push(...page.items.map((i) => i.id));
			cursor = page.nextCursor;
			if (pages++ === 0)
				ids.late = await match(stack, acme.tenantId, await notice(stack, { title: "Late arrival", deadline: null }), { score: 50 });
		} while (cursor);
		expect(new Set(seen).size).toBe(seen.length);
		for (const k of ["high", "mid", "tie", "low", "unscored"]) expect(seen).toContain(ids[k]);
		expect(seen).toContain(ids.late); // sorts after the first page, so it is reached
	});

	it("refuses tampered, foreign-sort and malformed cursors", async () => {
		const first = await list("?limit=1");
		const forged = encodeCursor({ k: 1, id: "x", s: "-score" }).replace(/\.[^.]+$/, ".AAAAAAAAAAAAAAAAAAAAAA");
		for (const c of [forged, `${first.nextCursor}x`, "abc"]) {
			const res = await api(stack, "GET", `/opportunities?cursor=${encodeURIComponent(c)}`, { key: read });
			expect(res.status).toBe(400);
			expect(res.body.issues[0].path).toBe("cursor");
		}
		const other = await api(stack, "GET", `/opportunities?sort=deadline&cursor=${encodeURIComponent(first.nextCursor!)}`, { key: read });
		expect(other.status).toBe(400);
		expect(other.body.message).toMatch(/another listing/);
		// Another company's cursor is no position in this company's list.
		const foreign = await api(stack, "GET", `/opportunities?cursor=${encodeURIComponent(first.nextCursor!)}`, { cookie: globex.cookie });
		expect(foreign.status, JSON.stringify(foreign.body)).toBe(400);
		expect(foreign.body).toMatchObject({ error: "validation_failed", issues: [{ path: "cursor" }] });
	});

	it("filters by status, text, source, deadline and score", async () => {
		expect(titles((await list("?q=CENTRIFUGE")).items).sort()).toEqual(["Centrifuge 5430 R (brand name or equal)", "Centrifuge rotor"]);
		expect(titles((await list("?q=(va)")).items)).toEqual(["Lab freezers"]);
		expect(titles((await list("?q=.*")).items)).toEqual([]);
		expect(titles((await list("?source=sam")).items)).toEqual(["Pipettes"]);
		expect((await list("?min_score=64")).items.map((i) => i.score)).toEqual([91, 64, 64]);
		const soon = new Date(Date.now() + 10 * 86400_000).toISOString();
		expect(titles((await list(`?deadline_before=${soon}&sort=deadline`)).items)).toEqual([
			"Centrifuge 5430 R (brand name or equal)",
			"Centrifuge rotor",
		]);
		expect((await list(`?deadline_after=${soon}`)).items.every((i) => Date.parse(i.deadline) > Date.parse(soon))).toBe(true);
		expect((await list("?status=interested")).items).toEqual([]);
		expect((await list("?status=new,notified")).items.length).toBeGreaterThanOrEqual(5);
	});
});

describe("text search", () => {
	it("also finds words of a notice's item lines", async () => {
		const id = await match(
			stack,
			acme.tenantId,
			await notice(stack, {
				title: "Laboratory supplies",
				details: { items: [{ description: "Rotor kit XR-77 for benchtop centrifuge" }] },
			}),
			{ score: 55 },
		);
		expect((await list("?q=xr-77")).items.map((i) => i.id)).toEqual([id]);
	});
});

describe("GET /opportunities/{id}", () => {
	it("answers the detail of the contract", async () => {
		const res = await api(stack, "GET", `/opportunities/${ids.high}`, { key: read });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			id: ids.high,
			status: "new",
			eligible: true,
			product_match: { name: "Centrifuge 5430" },
			categories: [],
			reference_number: expect.stringMatching(/^REF-/),
			signals: null,
			rationale: [{ feature: "exact_model_mention", points: 40, detail: "5430" }],
		});
	});

	it("answers not_found for another company's opportunity and validation_failed for a non-UUID", async () => {
		expect((await api(stack, "GET", `/opportunities/${ids.globex}`, { key: read })).body.error).toBe("not_found");
		expect((await api(stack, "GET", `/opportunities/${crypto.randomUUID()}`, { key: read })).status).toBe(404);
		expect((await api(stack, "GET", "/opportunities/abc", { key: read })).status).toBe(400);
	});
});

describe("archive", () => {
	it("archives idempotently, hides from the default list and survives re-matching and amendments", async () => {
		expect((await api(stack, "POST", `/opportunities/${ids.mid}/archive`, { key: read })).body.error).toBe("insufficient_scope");
		const first = await api(stack, "POST", `/opportunities/${ids.mid}/archive`, { key: write });
		expect(first.status).toBe(200);
		expect(first.body.archived_at).toMatch(/Z$/);
		const again = await api(stack, "POST", `/opportunities/${ids.mid}/archive`, { key: write });
		expect(again.body.archived_at).toBe(first.body.archived_at);
		expect((await list()).items.map((i) => i.id)).not.toContain(ids.mid);
		expect((await list("?archived=true")).items.map((i) => i.id)).toEqual([ids.mid]);

		const detail = (await api(stack, "GET", `/opportunities/${ids.mid}`, { key: read })).body;
		const noticeId = (
			await stack.broker.call<any, object>("opportunities.recordMatch", {
				tenantId: acme.tenantId,
				noticeId: await noticeOf(ids.mid!),
				matchVersion: version(),
				score: 88,
			})
		).id;
		expect(noticeId).toBe(ids.mid);
		const after = (await api(stack, "GET", `/opportunities/${ids.mid}`, { key: read })).body;
		expect(after.archived_at).toBe(first.body.archived_at);
		expect(after.score).toBe(88);
		expect(after.discovered_at).toBe(detail.discovered_at);

		const un = await api(stack, "DELETE", `/opportunities/${ids.mid}/archive`, { key: write });
		expect(un.status).toBe(200);
		expect(un.body.archived_at).toBeNull();
		expect((await api(stack, "DELETE", `/opportunities/${ids.mid}/archive`, { key: write })).body.archived_at).toBeNull();
		expect((await api(stack, "POST", `/opportunities/${ids.globex}/archive`, { key: write })).status).toBe(404);
	});

	it("ignores an older match result arriving after a newer one", async () => {
		const older = version();
		const newer = version();
		const noticeId = await noticeOf(ids.low!);
		await stack.broker.call("opportunities.recordMatch", { tenantId: acme.tenantId, noticeId, matchVersion: newer, score: 40 });
		await stack.broker.call("opportunities.recordMatch", { tenantId: acme.tenantId, noticeId, matchVersion: older, score: 10 });
		expect((await api(stack, "GET", `/opportunities/${ids.low}`, { key: read })).body.score).toBe(40);
	});

	it("drops a match whose support disappeared out of the default list but keeps its record", async () => {
		const noticeId = await notice(stack, { title: "Transient" });
		const id = await match(stack, acme.tenantId, noticeId, { score: 77 });
		await stack.broker.call("opportunities.recordMatch", {
			tenantId: acme.tenantId,
			noticeId,
			matchVersion: version(),
			score: null,
			supported: false,
		});
		expect((await list()).items.map((i) => i.id)).not.toContain(id);
		expect((await api(stack, "GET", `/opportunities/${id}`, { key: read })).status).toBe(200);
	});
});

describe("notice amendments", () => {
	it("update every company's copy and keep the company's own state", async () => {
		const noticeId = await notice(stack, { source_id: "amend-1", title: "Microscopes" });
		const id = await match(stack, acme.tenantId, noticeId, { score: 80 });
		await api(stack, "POST", `/opportunities/${id}/archive`, { key: write });
		const moved = new Date(Date.now() + 60 * 86400_000).toISOString().replace(/\.\d+Z$/, ".000Z");
		const again = await notice(stack, { source_id: "amend-1", title: "Microscopes (amended)", deadline: moved });
		expect(again).toBe(noticeId);
		const d = (await api(stack, "GET", `/opportunities/${id}`, { key: read })).body;
		expect(d.title).toBe("Microscopes (amended)");
		expect(d.deadline).toBe(moved);
		expect(d.archived_at).toMatch(/Z$/);
	});
});

describe("POST /opportunities/{id}/feedback", () => {
	it("moves the status, keeps history, supersedes the earlier verdict and durably requests learning", async () => {
		const first = await api(stack, "POST", `/opportunities/${ids.tie}/feedback`, { key: write, body: { verdict: "relevant" } });
		expect(first.status).toBe(201);
		expect(first.body).toMatchObject({
			opportunity_id: ids.tie,
			verdict: "relevant",
			reason: null,
			superseded_at: null,
			opportunity_status: "interested",
		});
		const second = await api(stack, "POST", `/opportunities/${ids.tie}/feedback`, {
			key: write,
			body: { verdict: "not_relevant", reason: "a services contract" },
		});
		expect(second.body).toMatchObject({ verdict: "not_relevant", reason: "a services contract", opportunity_status: "dismissed" });
		expect((await api(stack, "GET", `/opportunities/${ids.tie}`, { key: read })).body.status).toBe("dismissed");
		expect((await list("?status=dismissed")).items.map((i) => i.id)).toEqual([ids.tie]);

		const connection = new Redis(config().REDIS_URL, { maxRetriesPerRequest: null });
		const queue = new Queue(QUEUES.feedbackLearn, { connection, prefix: `${config().REDIS_PREFIX}:bull` });
		const jobs = await queue.getJobs(["waiting", "delayed", "active", "completed"]);
		const mine = jobs.filter((j) => j.data.tenantId === acme.tenantId);
		expect(mine.map((j) => j.data.feedbackId).sort()).toEqual([first.body.id, second.body.id].sort());
		await queue.close();
		connection.disconnect();
	});

	it("validates the verdict, scopes and tenant", async () => {
		expect((await api(stack, "POST", `/opportunities/${ids.high}/feedback`, { key: write, body: { verdict: "meh" } })).status).toBe(400);
		expect(
			(await api(stack, "POST", `/opportunities/${ids.high}/feedback`, { key: write, body: { verdict: "relevant", extra: 1 } })).status,
		).toBe(400);
		expect((await api(stack, "POST", `/opportunities/${ids.high}/feedback`, { key: read, body: { verdict: "relevant" } })).body.error).toBe(
			"insufficient_scope",
		);
		expect((await api(stack, "POST", `/opportunities/${ids.globex}/feedback`, { key: write, body: { verdict: "relevant" } })).status).toBe(
			404,
		);
		expect((await api(stack, "GET", `/opportunities/${ids.high}`, { key: read })).body.status).toBe("new");
	});
});

describe("GET /dashboard", () => {
	it("counts by status and score band, and upcoming deadlines", async () => {
		expect((await api(stack, "GET", "/dashboard", { key: read })).body.error).toBe("insufficient_scope");
		const res = await api(stack, "GET", "/dashboard", { key: write });
		expect(res.status).toBe(200);
		const { items } = await list("?limit=100");
		const archived = (await list("?archived=true&limit=100")).items.length;
		const d = res.body;
		expect(Object.values<number>(d.counts_by_status).reduce((a, b) => a + b, 0)).toBe(items.length);
		expect(Object.values<number>(d.counts_by_score_band).reduce((a, b) => a + b, 0)).toBe(items.length);
		expect(d.counts_by_status.dismissed).toBe(items.filter((i) => i.status === "dismissed").length);
		expect(d.counts_by_score_band.high).toBe(items.filter((i) => (i.score ?? -1) >= 80).length);
		expect(d.counts_by_score_band.unscored).toBe(items.filter((i) => i.score === null).length);
		expect(d.archived).toBe(archived);
		expect(d.upcoming_deadlines.next_7_days).toBe(
			items.filter((i) => i.deadline && Date.parse(i.deadline) - Date.now() < 7 * 86400_000 && i.status !== "dismissed").length,
		);
		expect(d.upcoming_deadlines.next_30_days).toBeGreaterThanOrEqual(d.upcoming_deadlines.next_7_days);
	});
});

/** The notice behind an opportunity, read from the opportunities service's own database (wherever the service runs). */
async function noticeOf(opportunityId: string): Promise<string> {
	const conn = await connectServiceDb("opportunities");
	try {
		return (await conn.collection<{ _id: string; notice_id: string }>("opportunities").findOne({ _id: opportunityId }))!.notice_id;
	} finally {
		await conn.close();
	}
}

describe("passing deadlines", () => {
	it("are swept on a schedule: the notice closes and untouched opportunities expire", async () => {
		const { producer, QUEUES: Q } = await import("../../shared/queue.ts");
		const schedulers = await producer(Q.opportunitiesUpkeep).getJobSchedulers();
		expect(schedulers.map((s) => s.key)).toContain("close-past-deadlines");

		const noticeId = await notice(stack, { title: "Closed yesterday", deadline: new Date(Date.now() - 86400_000).toISOString() });
		const untouched = await match(stack, acme.tenantId, noticeId, { score: 70 });
		const interested = await match(stack, globex.tenantId, noticeId, { score: 70 });
		const gkey = (await apiKey(stack, globex, ["opportunities:read", "opportunities:write"])).secret;
		await api(stack, "POST", `/opportunities/${interested}/feedback`, { key: gkey, body: { verdict: "relevant" } });

		await producer(Q.opportunitiesUpkeep).add("close-past-deadlines", {});
		let detail: any;
		for (let i = 0; i < 50; i++) {
			detail = (await api(stack, "GET", `/opportunities/${untouched}`, { key: read })).body;
			if (detail.status === "expired") break;
			await new Promise((r) => setTimeout(r, 100));
		}
		expect(detail).toMatchObject({ status: "expired", source_status: "closed" });
		const g = (await api(stack, "GET", `/opportunities/${interested}`, { key: gkey })).body;
		expect(g).toMatchObject({ status: "interested", source_status: "closed" });
	});
});
