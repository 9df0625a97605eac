import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextDigestAt } from "../../services/notifications/schedule.ts";
import { config, resetConfig } from "../../shared/config.ts";
import { waitFor } from "../support/processes.ts";
import { bsonString, StoreFaultProxy } from "../support/store-faults.ts";

// A notification settings change never leaves next_digest_at computed from settings that another
// change had already replaced (issue 15). Many PATCHes of digest_hour and digest_tz run at once
// over HTTP, with the scheduler reaching the slot at the same time. The first change's write of
// its next slot is held back by the store proxy until the others have answered (a slow write, as
// a busy store gives), so it lands last: it must not be the one that stays.

let proxy: StoreFaultProxy;
let h: typeof import("../support/stack.ts");
let stack: import("../support/stack.ts").Stack;
let company: import("../support/stack.ts").Company;
let key: string;

beforeAll(async () => {
	proxy = await StoreFaultProxy.start(config().MONGO_URL);
	process.env.MONGO_URL = proxy.url;
	resetConfig();
	h = await import("../support/stack.ts");
	stack = await h.startStack();
	company = await h.companyWithSession(stack, "Once Settings");
	key = (await h.apiKey(stack, company, ["settings:read", "settings:write"])).secret;
});
afterAll(async () => {
	await stack?.stop();
	await h?.dropTestDatabases();
	await proxy?.stop();
});

const get = async () => (await h.api(stack, "GET", "/settings/notifications", { key })).body;
const patch = (body: object) => h.api(stack, "PATCH", "/settings/notifications", { key, body });
const ZONES = ["UTC", "Asia/Tokyo", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Auckland", "Europe/Berlin", "America/Los_Angeles"];

describe("concurrent notification settings changes and digest ticks", () => {
	it("leave the next digest slot a slot of the settings as stored", async () => {
		expect((await patch({ digest_days: [1, 2, 3, 4, 5, 6, 7] })).status).toBe(200);
		// The company's settings writes that set its next slot (a change's, or the scheduler's): a
		// date in next_digest_at (a change's first write names it only as null, for an insert).
		const nextSlotWrite = [bsonString("update", "settings"), bsonString("_id", company.tenantId), Buffer.from("\x09next_digest_at\0")];
		for (let round = 0; round < 5; round++) {
			const slot = (await get()).next_digest_at as string;
			const held = proxy.hold(nextSlotWrite, 1);
			const first = patch({ digest_hour: (round * 5 + 3) % 24 });
			await waitFor("the first change's slot write", async () => (held.hits > 0 ? true : undefined), 5000);
			const changes = Array.from({ length: 9 }, (_, i) =>
				i % 2 ? { digest_hour: (round * 7 + i * 5) % 24 } : { digest_tz: ZONES[(round + i) % ZONES.length] },
			);
			await Promise.all([
				...changes.map(async (body) => expect((await patch(body)).status).toBe(200)),
				// The scheduler reaching the slot moves next_digest_at at the same time.
				stack.broker.call("notifications.queueDueDigests", { now: slot, tenantId: company.tenantId }),
			]);
			held.release();
			const answer = await first;
			expect(answer.status, JSON.stringify(answer.body)).toBe(200);

			const s = await get();
			const schedule = { digest_days: s.digest_days, digest_hour: s.digest_hour, digest_tz: s.digest_tz };
			const slotOfSettings = nextDigestAt(schedule, new Date(Date.parse(s.next_digest_at) - 1))?.toISOString();
			expect(slotOfSettings, `round ${round}: ${JSON.stringify(s)}`).toBe(s.next_digest_at);
		}
	});
});
