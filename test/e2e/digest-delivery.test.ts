import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { waitFor } from "../support/processes.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";

// The digest over real SMTP: an SMTP server runs in this process and what it receives is
// parsed. Time is controlled by passing `now` to the scheduler step: nothing sleeps for hours.

let smtp: SmtpSink;
let inbox: ParsedMail[] = [];
let failNext = 0;
let h: typeof import("../support/stack.ts");
let o: typeof import("../support/opportunities.ts");
let stack: import("../support/stack.ts").Stack;
let company: import("../support/stack.ts").Company;
let key: string;

beforeAll(async () => {
	smtp = await startSmtpSink(() => failNext > 0 && failNext-- > 0);
	inbox = smtp.inbox;
	process.env.SMTP_URL = smtp.url;
	process.env.PORTAL_URL = "https://portal.example";
	resetConfig();
	h = await import("../support/stack.ts");
	o = await import("../support/opportunities.ts");
	stack = await h.startStack();
	company = await h.companyWithSession(stack, "Digest Readers");
	key = (await h.apiKey(stack, company, ["settings:read", "settings:write", "opportunities:read", "opportunities:write"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await h?.dropTestDatabases();
	await smtp?.close();
});

const settings = async (body?: object) => (await h.api(stack, body ? "PATCH" : "GET", "/settings/notifications", { key, body })).body;
const waitForMail = async (count: number) => {
	for (let i = 0; i < 100 && inbox.length < count; i++) await new Promise((r) => setTimeout(r, 100));
	return inbox.length;
};
const opp = async (id: string) => (await h.api(stack, "GET", `/opportunities/${id}`, { key })).body;
const run = (slot: string) =>
	stack.broker.call<{ outcome: string }, object>("notifications.runDigest", { tenantId: company.tenantId, slot });

describe("the scheduled digest", () => {
	const ids: Record<string, string> = {};

	it("sends the best new opportunities at the company's slot, in its time zone, with reasons and links", async () => {
		const s = await settings({
			digest_days: [1, 2, 3, 4, 5, 6, 7],
			digest_hour: 8,
			digest_tz: "America/Chicago",
			digest_min_score: 60,
			digest_max_items: 3,
			notification_emails: ["Bids@Example.com", "ops@example.com"],
		});
		const deadline = "2027-03-10T23:00:00.000Z";
		for (const [name, score, title] of [
			["a", 95, "Centrifuges <script>alert(1)</script>"],
			["b", 90, "Freezers"],
			["c", 80, "Pipettes"],
			["d", 70, "Balances"],
			["low", 50, "Gloves"],
			["arch", 99, "Archived one"],
		] as const) {
			ids[name] = await o.match(stack, company.tenantId, await o.notice(stack, { title, deadline }), {
				score,
				rationale: [{ feature: "exact_model_mention", points: 40, detail: `model named in ${name}` }],
			});
		}
		await h.api(stack, "POST", `/opportunities/${ids.arch}/archive`, { key });

		expect(await stack.broker.call("notifications.queueDueDigests", { now: s.next_digest_at })).toBe(1);
		expect(await waitForMail(1)).toBe(1);
		const mail = inbox[0]!;
		expect((Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a!.value.map((v) => v.address))).toEqual([
			"bids@example.com",
			"ops@example.com",
		]);
		expect(mail.subject).toBe("Your opportunity digest: 3 new opportunities");
		const text = mail.text!;
		expect(text.indexOf("Centrifuges")).toBeLessThan(text.indexOf("Freezers"));
		expect(text.indexOf("Freezers")).toBeLessThan(text.indexOf("Pipettes"));
		for (const absent of ["Balances", "Gloves", "Archived one"]) expect(text).not.toContain(absent);
		expect(text).toContain("Mar 10, 2027, 17:00 CST"); // 23:00 UTC in Chicago
		expect(text).toContain("Why: model named in a");
		expect(text).toContain(`https://portal.example/opportunities/${ids.a}`);
		expect(mail.html).toContain("Centrifuges &lt;script&gt;");
		expect(mail.html).not.toContain("<script>");
		expect(mail.messageId).toMatch(/^<digest\./);

		// The opportunities are marked right after the send, so the mail can arrive a moment earlier.
		for (const k of ["a", "b", "c"])
			await waitFor(`${k} notified`, async () => ((await opp(ids[k]!)).status === "notified" ? true : undefined), 10_000);
		expect((await opp(ids.d!)).status).toBe("new");
		const after = await settings();
		expect(after.last_digest_sent_at).toMatch(/Z$/);
		expect(Date.parse(after.next_digest_at)).toBeGreaterThan(Date.parse(s.next_digest_at));
	});

	it("never sends a slot twice: repeated ticks, replayed jobs and concurrent runs", async () => {
		const s = await settings();
		const slot = s.next_digest_at as string;
		expect(await stack.broker.call("notifications.queueDueDigests", { now: slot })).toBe(1);
		expect(await stack.broker.call("notifications.queueDueDigests", { now: slot })).toBe(0);
		await waitForMail(2);
		const outcomes = await Promise.all([run(slot), run(slot), run(slot)]);
		expect(outcomes.map((x) => x.outcome).every((x) => x === "already_sent")).toBe(true);
		await new Promise((r) => setTimeout(r, 300));
		expect(inbox).toHaveLength(2);
		expect(inbox[1]!.subject).toBe("Your opportunity digest: 1 new opportunity");
		expect(inbox[1]!.text).toContain("Balances");
	});

	it("sends nothing when there is nothing new", async () => {
		const slot = new Date(Date.now() + 30 * 86400_000).toISOString();
		expect((await run(slot)).outcome).toBe("empty");
		await new Promise((r) => setTimeout(r, 200));
		expect(inbox).toHaveLength(2);
	});

	it("retries a failed SMTP send and then sends it once", async () => {
		const id = await o.match(stack, company.tenantId, await o.notice(stack, { title: "Microscopes" }), { score: 88 });
		failNext = 1;
		const slot = new Date(Date.now() + 31 * 86400_000).toISOString();
		await expect(run(slot)).rejects.toThrow();
		expect((await opp(id)).status).toBe("new");
		expect((await run(slot)).outcome).toBe("sent");
		expect(inbox).toHaveLength(3);
		expect(inbox[2]!.text).toContain("Microscopes");
		expect((await opp(id)).status).toBe("notified");
	});

	it("reports amendments of notified opportunities per the policy", async () => {
		const noticeId = await o.notice(stack, { source_id: "amend-digest", title: "Autoclaves" });
		const id = await o.match(stack, company.tenantId, noticeId, { score: 85 });
		expect((await run(new Date(Date.now() + 32 * 86400_000).toISOString())).outcome).toBe("sent");
		expect((await opp(id)).status).toBe("notified");

		await settings({ amendment_notification_policy: "none" });
		await o.notice(stack, { source_id: "amend-digest", title: "Autoclaves (deadline extended)" });
		expect((await run(new Date(Date.now() + 33 * 86400_000).toISOString())).outcome).toBe("empty");

		await settings({ amendment_notification_policy: "positive_only" });
		expect((await run(new Date(Date.now() + 34 * 86400_000).toISOString())).outcome).toBe("sent");
		const mail = inbox.at(-1)!;
		expect(mail.subject).toBe("Your opportunity digest: 1 updated");
		expect(mail.text).toContain("Updated since we told you");
		expect(mail.text).toContain("Autoclaves (deadline extended)");
		expect((await run(new Date(Date.now() + 35 * 86400_000).toISOString())).outcome).toBe("empty");
	});

	it("does not re-send a slot whose send was interrupted, and says so", async () => {
		await o.match(stack, company.tenantId, await o.notice(stack, { title: "Spectrometers" }), { score: 90 });
		const slot = new Date(Date.now() + 36 * 86400_000);
		const svc = stack.broker.getLocalService("notifications") as unknown as { m: { deliveries: any } };
		await svc.m.deliveries.create({
			_id: `${company.tenantId}|${slot.getTime()}`,
			tenant_id: company.tenantId,
			slot,
			state: "sending",
			sending_until: new Date(Date.now() - 1000),
			recipients: ["bids@example.com"],
			items: [{ id: "x" }],
			created_at: new Date(),
		});
		const before = inbox.length;
		expect((await run(slot.toISOString())).outcome).toBe("uncertain");
		expect(inbox).toHaveLength(before);
	});
});

describe("companies that never changed their settings", () => {
	it("get default settings, and so digest slots, from the periodic sweep", async () => {
		const fresh = await h.companyWithSession(stack, "Never Configured");
		expect(await stack.broker.call("notifications.ensureSettings", {})).toBeGreaterThanOrEqual(1);
		expect(await stack.broker.call("notifications.ensureSettings", {})).toBe(0);
		const res = await h.api(stack, "GET", "/settings/notifications", { cookie: fresh.cookie });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		const s = res.body;
		expect(s.next_digest_at).toMatch(/T07:00:00\.000Z$/);
		await o.match(stack, fresh.tenantId, await o.notice(stack, { title: "Default digest item" }), { score: 90 });
		const before = inbox.length;
		expect(await stack.broker.call("notifications.queueDueDigests", { now: s.next_digest_at })).toBeGreaterThanOrEqual(1);
		expect(await waitForMail(before + 1)).toBe(before + 1);
		expect(inbox.at(-1)!.text).toContain("Default digest item");
		const to = inbox.at(-1)!.to;
		expect((Array.isArray(to) ? to : [to]).flatMap((a) => a?.value.map((v) => v.address) ?? [])).toEqual([fresh.email]);
	});
});
