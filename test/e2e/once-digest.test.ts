import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, resetConfig } from "../../shared/config.ts";
import { waitFor } from "../support/processes.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { bsonString, StoreFaultProxy } from "../support/store-faults.ts";

// A digest the SMTP server accepted is never sent again, even when the store refuses to record
// that it was sent (issue 15). The services reach the store through a proxy that refuses the
// `state: "sent"` write of a delivery while the test says so; a real SMTP server receives the
// mail. The retries of the job (and a duplicate of it) run concurrently, as BullMQ's retry and a
// second scheduler's job would.

let smtp: SmtpSink;
let inbox: ParsedMail[] = [];
let proxy: StoreFaultProxy;
let h: typeof import("../support/stack.ts");
let o: typeof import("../support/opportunities.ts");
let stack: import("../support/stack.ts").Stack;
let company: import("../support/stack.ts").Company;
let key: string;

/** The one write that records a delivery as sent. */
const MARK_SENT = [bsonString("update", "deliveries"), bsonString("state", "sent")];

beforeAll(async () => {
	smtp = await startSmtpSink();
	inbox = smtp.inbox;
	proxy = await StoreFaultProxy.start(config().MONGO_URL);
	process.env.MONGO_URL = proxy.url;
	process.env.SMTP_URL = smtp.url;
	resetConfig();
	h = await import("../support/stack.ts");
	o = await import("../support/opportunities.ts");
	stack = await h.startStack();
	company = await h.companyWithSession(stack, "Once Digest");
	key = (await h.apiKey(stack, company, ["settings:read", "settings:write", "opportunities:read"])).secret;
	const body = { digest_days: [1, 2, 3, 4, 5, 6, 7], notification_emails: ["bids@example.com"] };
	const s = await h.api(stack, "PATCH", "/settings/notifications", { key, body });
	expect(s.status, JSON.stringify(s.body)).toBe(200);
});
afterAll(async () => {
	await stack?.stop();
	await h?.dropTestDatabases();
	await proxy?.stop();
	await smtp?.close();
});

const run = (slot: Date) =>
	stack.broker.call<{ outcome: string }, object>("notifications.runDigest", { tenantId: company.tenantId, slot: slot.toISOString() }).then(
		(r) => r.outcome,
		(e: Error) => `error: ${e.message}`,
	);
const mailsFor = (slot: Date) => inbox.filter((m) => m.messageId === `<digest.${company.tenantId}.${slot.getTime()}@oms>`);
const delivery = async (slot: Date) => {
	const svc = stack.broker.getLocalService("notifications") as unknown as {
		m: { deliveries: { findById(id: string): { lean(): Promise<any> } } };
	};
	return svc.m.deliveries.findById(`${company.tenantId}|${slot.getTime()}`).lean();
};
const status = async (id: string) => (await h.api(stack, "GET", `/opportunities/${id}`, { key })).body.status;
/** Time for a duplicate send to reach the SMTP server if one were made. */
const settle = () => new Promise((r) => setTimeout(r, 500));

describe("a digest the SMTP server accepted", () => {
	it("is recorded as sent without sending again when the store refuses the record for a moment", async () => {
		const id = await o.match(stack, company.tenantId, await o.notice(stack, { title: "Once: centrifuges" }), { score: 90 });
		const slot = new Date(Date.now() + 40 * 86400_000);
		const fault = proxy.refuse(MARK_SENT, 2);

		const first = await run(slot);
		// The job's retries and a duplicate job, at once.
		const retries = await Promise.all([run(slot), run(slot), run(slot)]);
		await settle();

		expect(fault.hits).toBe(2);
		expect(mailsFor(slot), JSON.stringify([first, ...retries])).toHaveLength(1);
		expect(first).toBe("sent");
		expect((await delivery(slot)).state).toBe("sent");
		await waitFor("the opportunity marked notified", async () => ((await status(id)) === "notified" ? true : undefined), 10_000);
	});

	it("is never sent again while the record cannot be written, and is recorded once it can", async () => {
		const id = await o.match(stack, company.tenantId, await o.notice(stack, { title: "Once: freezers" }), { score: 90 });
		const slot = new Date(Date.now() + 41 * 86400_000);
		const fault = proxy.refuse(MARK_SENT, Number.MAX_SAFE_INTEGER);

		const first = await run(slot);
		const whileDown = await Promise.all([run(slot), run(slot), run(slot)]);
		await settle();
		expect(first).toMatch(/^error: /);
		expect(fault.hits).toBeGreaterThan(1); // the record was retried, not given up at once
		expect(mailsFor(slot), JSON.stringify([first, ...whileDown])).toHaveLength(1);
		expect((await delivery(slot)).state).toBe("sending"); // its lease keeps every other attempt off
		expect(await status(id)).toBe("new");

		proxy.heal();
		const after = await Promise.all([run(slot), run(slot), run(slot)]);
		await settle();
		expect(mailsFor(slot), JSON.stringify(after)).toHaveLength(1);
		expect(after).toContain("sent");
		expect((await delivery(slot)).state).toBe("sent");
		expect(await status(id)).toBe("notified");
	});
});
