import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedbackForLearning } from "../../services/opportunities/learning.ts";
import { opportunityModels, type OpportunityModels } from "../../services/opportunities/models.ts";
import { recordFeedback, setArchived } from "../../services/opportunities/pipeline.ts";
import { deadlineFields, discoveredFields, scoreFields } from "../../services/opportunities/records.ts";
import { config } from "../../shared/config.ts";
import { newRequest, newVersion } from "../../shared/outbox.ts";

// The opportunity's own writes with their fewest statements (issue 17): a verdict settles
// without reading the other verdicts, and archive answers from its update. What each shortcut
// must still do, against the real store: exactly one current verdict whatever was left behind
// (a request that stopped after its insert, a verdict older than `seq` itself, a newer verdict
// already current), and an archive time that is kept, per company.

let conn: mongoose.Connection;
let m: OpportunityModels;

beforeAll(async () => {
	conn = await mongoose.createConnection(config().MONGO_URL, { dbName: `${config().MONGO_DB_PREFIX}_verdicts` }).asPromise();
	m = opportunityModels(conn);
	await Promise.all(Object.values(m).map((model) => model.init()));
});
afterAll(async () => {
	await conn.dropDatabase();
	await conn.close();
});

async function opportunity(tenantId: string): Promise<string> {
	const now = new Date();
	const d = await m.opportunities.create({
		tenant_id: tenantId,
		notice_id: randomUUID(),
		rfp_id: "R-1",
		reference_number: "REF-1",
		title: "Network switches",
		issuing_body: "Ministry",
		source: "ocds:test",
		source_status: "open",
		search_text: "network switches",
		updated_at: now,
		score: 80,
		...scoreFields(80),
		...deadlineFields(null),
		...discoveredFields(now),
	});
	return d._id;
}

/** A verdict as a request that stopped right after its insert leaves it: open, not current. */
async function leftBehind(tenantId: string, opportunityId: string, verdict: string, seq: string | null) {
	const f = await m.feedback.create({
		tenant_id: tenantId,
		opportunity_id: opportunityId,
		notice_id: "n",
		verdict,
		created_at: new Date(),
		seq,
		learn: newRequest(),
	});
	return f._id;
}

const open = (tenantId: string, opportunityId: string) =>
	m.feedback.find({ tenant_id: tenantId, opportunity_id: opportunityId, superseded_at: null }).lean();

describe("a verdict settles in one pass", () => {
	it("becomes current; what an earlier request left open, and verdicts older than seq itself, are settled by learning", async () => {
		const t = randomUUID();
		const id = await opportunity(t);
		const first = await recordFeedback(m, t, "u", id, { verdict: "not_eligible" });
		const legacy = await leftBehind(t, id, "not_relevant", null);
		const stopped = await leftBehind(t, id, "wrong_product", newVersion());
		const { feedback, status } = await recordFeedback(m, t, "u", id, { verdict: "relevant" });
		expect(feedback.superseded_at).toBeNull();
		expect(status).toBe("interested");
		// The verdict it replaced is superseded at once.
		expect((await m.feedback.findById(first.feedback._id).lean())!.superseded_at).toBeInstanceOf(Date);
		expect(await m.opportunities.findById(id).lean()).toMatchObject({ feedback_id: feedback._id, status: "interested" });
		// Its learning job settles the rest before reading it.
		const read = await feedbackForLearning(m, { tenantId: t, feedbackId: feedback._id });
		expect(read.feedback.superseded_at).toBeNull();
		expect((await open(t, id)).map((f) => f._id)).toEqual([feedback._id]);
		const gone = await m.feedback.find({ _id: { $in: [legacy, stopped] } }).lean();
		expect(gone.every((f) => f.superseded_at instanceof Date)).toBe(true);
		expect(await m.opportunities.findById(id).lean()).toMatchObject({ feedback_id: feedback._id, status: "interested" });
	});

	it("answers superseded, with the newer verdict's status, when a newer verdict is already current", async () => {
		const t = randomUUID();
		const id = await opportunity(t);
		const olderSeq = newVersion();
		const newer = await leftBehind(t, id, "not_eligible", newVersion());
		const newerSeq = (await m.feedback.findById(newer).lean())!.seq!;
		await m.opportunities.updateOne({ _id: id }, { $set: { feedback_id: newer, feedback_seq: newerSeq, status: "dismissed" } });
		// This request's seq was taken before the newer one's: it loses the compare-and-set.
		const lateInsert = await leftBehind(t, id, "relevant", olderSeq);
		const { feedback, status } = await recordFeedback(m, t, "u", id, { verdict: "relevant" });
		// A verdict made now is newer than both: it wins and supersedes the one it replaced; the
		// late insert is settled by its own learning job.
		expect(feedback.superseded_at).toBeNull();
		expect(status).toBe("interested");
		expect((await m.feedback.findById(newer).lean())!.superseded_at).toBeInstanceOf(Date);
		expect((await feedbackForLearning(m, { tenantId: t, feedbackId: lateInsert })).feedback.superseded_at).not.toBeNull();
		expect((await open(t, id)).map((f) => f._id)).toEqual([feedback._id]);

		// And one whose seq is older than the current one's (here one from the far future) is answered as superseded.
		await m.opportunities.updateOne({ _id: id }, { $set: { feedback_seq: "ffffffffffff" } });
		const lost = await recordFeedback(m, t, "u", id, { verdict: "not_relevant" });
		expect(lost.feedback.superseded_at).toBeInstanceOf(Date);
		expect(lost.status).toBe("interested");
		expect((await m.feedback.findById(lost.feedback._id).lean())!.superseded_at).toBeInstanceOf(Date);
	});

	it("settles, when learning reads it, a newer verdict whose request stopped after its insert", async () => {
		const t = randomUUID();
		const id = await opportunity(t);
		const first = await recordFeedback(m, t, "u", id, { verdict: "relevant" });
		const stopped = await leftBehind(t, id, "not_relevant", newVersion());
		const read = await feedbackForLearning(m, { tenantId: t, feedbackId: stopped });
		expect(read.feedback.superseded_at).toBeNull();
		expect(await m.opportunities.findById(id).lean()).toMatchObject({ feedback_id: stopped, status: "dismissed" });
		expect((await open(t, id)).map((f) => f._id)).toEqual([stopped]);
		const older = await feedbackForLearning(m, { tenantId: t, feedbackId: first.feedback._id });
		expect(older.feedback.superseded_at).not.toBeNull();
	});

	it("is refused for another company's opportunity, which keeps its state", async () => {
		const t = randomUUID();
		const id = await opportunity(t);
		await expect(recordFeedback(m, randomUUID(), "u", id, { verdict: "relevant" })).rejects.toMatchObject({
			code: 404,
			message: "Opportunity not found",
		});
		await expect(setArchived(m, randomUUID(), id, true)).rejects.toMatchObject({ code: 404, message: "Opportunity not found" });
		expect(await m.opportunities.findById(id).lean()).toMatchObject({ status: "new", archived_at: null, feedback_id: null });
		expect(await m.feedback.countDocuments({ opportunity_id: id })).toBe(0);
	});
});

describe("archive answers from its own update", () => {
	it("keeps the first archive time, unarchives, and answers the summary each time", async () => {
		const t = randomUUID();
		const id = await opportunity(t);
		const a = await setArchived(m, t, id, true);
		expect(a).toMatchObject({ id, title: "Network switches", score: 80, status: "new" });
		expect(a.archived_at).not.toBeNull();
		const again = await setArchived(m, t, id, true);
		expect(again.archived_at).toBe(a.archived_at);
		const back = await setArchived(m, t, id, false);
		expect(back.archived_at).toBeNull();
		expect((await setArchived(m, t, id, false)).archived_at).toBeNull();
	});
});
