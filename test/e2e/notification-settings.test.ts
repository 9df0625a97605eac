import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, apiKey, companyWithSession, dropTestDatabases, startStack, type Company, type Stack } from "../support/stack.ts";

// GET and PATCH /settings/notifications exactly as the contract says.

let stack: Stack;
let acme: Company;
let globex: Company;
let rw: string;

beforeAll(async () => {
	stack = await startStack();
	acme = await companyWithSession(stack, "Acme Digest");
	globex = await companyWithSession(stack, "Globex Digest");
	rw = (await apiKey(stack, acme, ["settings:read", "settings:write"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

const get = async (key = rw) => (await api(stack, "GET", "/settings/notifications", { key })).body;
const patch = (body: unknown, key = rw) => api(stack, "PATCH", "/settings/notifications", { key, body });

describe("notification settings", () => {
	it("has sensible defaults that send to the account contact email", async () => {
		const s = await get();
		expect(s).toEqual({
			digest_days: [1, 2, 3, 4, 5],
			digest_hour: 7,
			digest_tz: "UTC",
			digest_min_score: 60,
			digest_max_items: 10,
			notification_emails: [],
			amendment_notification_policy: "positive_only",
			effective_recipients: [acme.email],
			last_digest_sent_at: null,
			next_digest_at: expect.stringMatching(/T07:00:00\.000Z$/),
		});
	});

	it("changes any subset, sorts weekdays and normalizes recipients", async () => {
		const res = await patch({
			digest_days: [5, 1, 3],
			digest_tz: "america/new_york",
			notification_emails: ["  Bids@Acme.Example ", "bids@acme.example", "ops@acme.example"],
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			digest_days: [1, 3, 5],
			digest_tz: "America/New_York",
			digest_hour: 7,
			notification_emails: ["bids@acme.example", "ops@acme.example"],
			effective_recipients: ["bids@acme.example", "ops@acme.example"],
		});
		const local = new Intl.DateTimeFormat("en-US", {
			timeZone: "America/New_York",
			hour: "numeric",
			hourCycle: "h23",
			weekday: "short",
		}).format(new Date(res.body.next_digest_at));
		expect(local).toMatch(/^(Mon|Wed|Fri),? 0?7$/);
		expect(await get()).toEqual(res.body);
		const min = await patch({ digest_min_score: 75 });
		expect(min.body).toMatchObject({
			digest_min_score: 75,
			digest_days: [1, 3, 5],
			notification_emails: ["bids@acme.example", "ops@acme.example"],
		});
	});

	it("pauses with an empty weekday list and falls back to the contact email with no recipients", async () => {
		const res = await patch({ digest_days: [], notification_emails: [] });
		expect(res.body).toMatchObject({ digest_days: [], next_digest_at: null, effective_recipients: [acme.email] });
	});

	it("rejects bad input with issues and stores nothing", async () => {
		const before = await get();
		const cases: Array<[unknown, string]> = [
			[{}, ""],
			[{ digest_tz: "Mars/Olympus" }, "body.digest_tz"],
			[{ digest_tz: "+01:00" }, "body.digest_tz"],
			[{ digest_tz: "x".repeat(65) }, "body.digest_tz"],
			[{ digest_hour: 24 }, "body.digest_hour"],
			[{ digest_hour: 7.5 }, "body.digest_hour"],
			[{ digest_days: [1, 1] }, "body.digest_days"],
			[{ digest_days: [0] }, "body.digest_days.0"],
			[{ digest_days: [1, 2, 3, 4, 5, 6, 7, 7] }, "body.digest_days"],
			[{ digest_min_score: 101 }, "body.digest_min_score"],
			[{ digest_max_items: 2 }, "body.digest_max_items"],
			[{ digest_max_items: 16 }, "body.digest_max_items"],
			[{ notification_emails: ["not-an-email"] }, "body.notification_emails.0"],
			[{ notification_emails: Array.from({ length: 11 }, (_, i) => `p${i}@x.example`) }, "body.notification_emails"],
			[{ notification_emails: Array.from({ length: 201 }, () => "same@x.example") }, "body.notification_emails"],
			[{ amendment_notification_policy: "some" }, "body.amendment_notification_policy"],
			[{ digest_hour: 8, colour: "blue" }, "body"],
		];
		for (const [body, path] of cases) {
			const res = await patch(body);
			expect(res.status, JSON.stringify(body)).toBe(400);
			expect(res.body.error).toBe("validation_failed");
			if (path) expect(res.body.issues.map((i: any) => i.path)).toContain(path);
		}
		expect((await patch({ notification_emails: [...Array.from({ length: 150 }, () => "same@x.example"), "b@x.example"] })).status).toBe(
			200,
		);
		expect((await get()).notification_emails).toEqual(["same@x.example", "b@x.example"]);
		await patch({ notification_emails: before.notification_emails });
		expect(await get()).toEqual(before);
	});

	it("keeps each company's settings apart and needs the settings scopes", async () => {
		const g = await api(stack, "GET", "/settings/notifications", { cookie: globex.cookie });
		expect(g.body.digest_days).toEqual([1, 2, 3, 4, 5]);
		expect(g.body.effective_recipients).toEqual([globex.email]);
		const readOnly = (await apiKey(stack, acme, ["settings:read"])).secret;
		expect((await patch({ digest_hour: 9 }, readOnly)).body.error).toBe("insufficient_scope");
		const none = (await apiKey(stack, acme, ["profile:read"])).secret;
		expect((await api(stack, "GET", "/settings/notifications", { key: none })).body.message).toContain("settings:read");
	});
});
