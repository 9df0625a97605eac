import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../shared/config.ts";
import { QUEUES } from "../../shared/queue.ts";
import { match } from "../support/opportunities.ts";
import { cli, ROOT } from "../support/processes.ts";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Company, type Stack } from "../support/stack.ts";

// `npm run -s cli -- ingest` on the real sample feeds and the dev set, against the real stack.

const SAMPLES = resolve(ROOT, "../shared/samples");
const DEV_NOTICES = resolve(ROOT, "../shared/eval/dev/notices.ocds.json");
const env = { MONGO_DB_PREFIX: process.env.MONGO_DB_PREFIX!, REDIS_PREFIX: process.env.REDIS_PREFIX! };

let stack: Stack;
let company: Company;
let key: string;
let dir: string;

const ingest = async (...paths: string[]) => {
	const r = await cli(["ingest", ...paths], env);
	expect(r.code, r.stderr).toBe(0);
	return JSON.parse(r.stdout);
};
type Collection = { findOne(q: object): { lean(): Promise<any> }; updateOne(q: object, u: object): Promise<unknown> };
const models = () =>
	(stack.broker.getLocalService("opportunities") as unknown as { m: { notices: Collection; opportunities: Collection } }).m;
const stored = (source: string, sourceId: string) => models().notices.findOne({ source, source_id: sourceId }).lean();

beforeAll(async () => {
	stack = await startStack();
	company = await companyWithSession(stack, "Feed Readers");
	key = (await apiKey(stack, company, ["opportunities:read", "opportunities:write", "dashboard:read"])).secret;
	dir = await mkdtemp(join(tmpdir(), "oms-ingest-"));
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

describe("ingest", () => {
	it("applies the eForms change notice to its original and keeps the history", async () => {
		await mkdir(join(dir, "ted"));
		await copyFile(join(SAMPLES, "eforms_cn_24_open_original.xml"), join(dir, "ted", "1-original.xml"));
		await copyFile(join(SAMPLES, "eforms_change-cn_24_open_dates_amendment.xml"), join(dir, "ted", "2-change.xml"));
		const s = await ingest(join(dir, "ted"));
		expect(s).toMatchObject({ files: 2, notices: 2, created: 1, updated: 1, rejected: [] });
		const n = await stored("ted", "31f258b6-5eb2-4875-8997-affa3cdce27c");
		expect(n.deadline.toISOString()).toBe("2020-06-12T11:00:00.000Z");
		expect(n.details.versions.map((v: any) => v.action)).toEqual(["created", "updated"]);
		expect(n.details.versions[1].fields).toEqual(["deadline"]);
		// The language the notice declares (cbc:NoticeLanguageCode ENG) is kept for ask to read its text in.
		expect(n.details.language).toBe("en");
	});

	it("ingests the OCDS sample and the dev set with amendments and cancellations, then changes nothing on a re-run", async () => {
		const first = await ingest(join(SAMPLES, "ocds_uk-contracts-finder_release_tender_CP1093-14.json"), DEV_NOTICES);
		expect(first).toMatchObject({ files: 2, notices: 131, created: 121, updated: 10, stale: 0, rejected: [] });
		const cancelled = await stored("ocds:evaldev", "ocds-evaldev-038");
		expect(cancelled.source_status).toBe("cancelled");
		const amended = await stored("ocds:evaldev", "ocds-evaldev-002");
		expect(amended.details.versions.at(-1).fields).toContain("deadline");

		const again = await ingest(join(SAMPLES, "ocds_uk-contracts-finder_release_tender_CP1093-14.json"), DEV_NOTICES, join(dir, "ted"));
		expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 133, stale: 0 });
	}, 90_000); // two CLI processes each ingest the whole dev set while matching works through it

	it("durably requests matching for every new or changed notice, once per version", async () => {
		const connection = new Redis(config().REDIS_URL, { maxRetriesPerRequest: null });
		const queue = new Queue(QUEUES.noticeMatch, { connection, prefix: `${config().REDIS_PREFIX}:bull` });
		const jobs = await queue.getJobs(["waiting", "delayed", "active", "completed"]);
		expect(jobs.length).toBe(1 + 1 + 121 + 10);
		expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
		expect(Object.keys(jobs[0]!.data).sort()).toEqual(["noticeId", "version"]);
		await queue.close();
		connection.disconnect();
	});

	it("reports and skips malformed files and records without damaging what is stored", async () => {
		await mkdir(join(dir, "bad"));
		await writeFile(join(dir, "bad", "broken.json"), '{"releases": [');
		await writeFile(join(dir, "bad", "garbage.xml"), "<notAnotice/>");
		await writeFile(
			join(dir, "bad", "mixed.json"),
			JSON.stringify({ releases: [{ ocid: "ocds-evaldev-002", id: "x", date: "not a date", tag: ["tender"] }] }),
		);
		const before = await stored("ocds:evaldev", "ocds-evaldev-002");
		const s = await ingest(join(dir, "bad"));
		expect(s.rejected.length).toBeGreaterThanOrEqual(2);
		for (const r of s.rejected) expect(r.reason).toMatch(/\w/);
		const after = await stored("ocds:evaldev", "ocds-evaldev-002");
		expect(after.content_hash).toBe(before.content_hash);
		expect(after.title).toBe(before.title);
	});

	it("recognises the same solicitation from another feed and lets its cancellation close it", async () => {
		const ocds = await stored("ocds:evaldev", "ocds-evaldev-002");
		const sam = {
			totalRecords: 1,
			opportunitiesData: [
				{
					noticeId: "c0ffee00c0ffee00c0ffee00c0ffee00",
					title: "CANCELLED - Cisco Catalyst 9300 switches",
					solicitationNumber: ` ${ocds.reference_number} `,
					fullParentPathName: "VETERANS AFFAIRS, DEPARTMENT OF.VETERANS AFFAIRS, DEPARTMENT OF.NETWORK CONTRACTING OFFICE 4",
					postedDate: "2027-01-20",
					type: "Combined Synopsis/Solicitation",
					baseType: "Combined Synopsis/Solicitation",
					active: "No",
					responseDeadLine: "2027-02-24T16:00:00-05:00",
					naicsCode: "423430",
					description: "https://api.sam.gov/prod/opportunities/v1/noticedesc?noticeid=c0ffee00c0ffee00c0ffee00c0ffee00",
					uiLink: "https://sam.gov/opp/c0ffee00c0ffee00c0ffee00c0ffee00/view",
				},
			],
		};
		await writeFile(join(dir, "sam.json"), JSON.stringify(sam));
		const s = await ingest(join(dir, "sam.json"));
		expect(s.created).toBe(0);
		expect(s.duplicate + s.updated).toBe(1);
		const after = await stored("ocds:evaldev", "ocds-evaldev-002");
		expect(after.aliases).toContain(`sam.gov|${ocds.reference_number}`);
	});

	it("reads a notice stored by an older normalizer again without telling anyone it was amended", async () => {
		const n = await stored("ocds:evaldev", "ocds-evaldev-011");
		const id = await match(stack, company.tenantId, n._id, { score: 70 });
		// As an older reading would have stored it: other content, no normalizer stamp.
		await models().notices.updateOne(
			{ _id: n._id },
			{
				$set: { title: "An older reading", "normalized.title": "An older reading", content_hash: "old", "normalized.content_hash": "old" },
				$unset: { "normalized.normalizer": "" },
			},
		);
		const s = await ingest(DEV_NOTICES);
		expect(s).toMatchObject({ created: 0, updated: 0, stale: 0, renormalized: 1 });
		const after = await stored("ocds:evaldev", "ocds-evaldev-011");
		expect(after).toMatchObject({ title: n.title, content_hash: n.content_hash });
		expect(after.details.versions).toEqual(n.details.versions);
		const opp = await models().opportunities.findOne({ _id: id }).lean();
		expect(opp).toMatchObject({ title: n.title, amended_at: null });
		expect((await ingest(DEV_NOTICES)).renormalized).toBe(0);
	}, 60_000);

	it("updates a company's opportunity on an amendment, keeps its archive, and shows runs on the dashboard", async () => {
		const n = await stored("ocds:evaldev", "ocds-evaldev-010");
		const id = await match(stack, company.tenantId, n._id, { score: 75 });
		await api(stack, "POST", `/opportunities/${id}/archive`, { key });
		const dash = await api(stack, "GET", "/dashboard", { key });
		expect(dash.body.last_ingestion.map((r: any) => r.source)).toEqual(
			expect.arrayContaining(["ted", "ocds:evaldev", "ocds:uk-contracts-finder"]),
		);
		for (const r of dash.body.last_ingestion)
			expect(r).toMatchObject({ last_outcome: "succeeded", last_run_at: expect.stringMatching(/Z$/) });
		const detail = (await api(stack, "GET", `/opportunities/${id}`, { key })).body;
		expect(detail.title).toBe(n.title);
		expect(detail.archived_at).toMatch(/Z$/);
	});
});
