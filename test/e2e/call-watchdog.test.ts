import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBroker } from "../../shared/broker.ts";
import { resetConfig } from "../../shared/config.ts";
import { opsPort } from "../../shared/ops-server.ts";
import { stuckCalls } from "../../shared/call-watchdog.ts";
import type { ServiceBroker } from "moleculer";

// Readiness must notice a call that never settles: it holds a concurrency slot, and enough of
// them stop the action for everyone while liveness still says the process runs.

process.env.CALL_STUCK_MS = "300";
resetConfig();

let broker: ServiceBroker;
let release: () => void = () => undefined;

beforeAll(async () => {
	broker = createBroker([
		{
			name: "probe",
			actions: {
				hang: () => new Promise<string>((resolve) => (release = () => resolve("done"))),
				quick: () => "ok",
			},
		},
	]);
	await broker.start();
});
afterAll(async () => {
	release();
	await broker?.stop();
});

const readyz = async () => {
	const res = await fetch(`http://127.0.0.1:${opsPort(broker)}/readyz`);
	return { status: res.status, text: await res.text() };
};

describe("call watchdog", () => {
	it("turns readiness to 503 naming the action while a call is stuck, and back once it settles", async () => {
		expect((await readyz()).status).toBe(200);
		const pending = broker.call("probe.hang");
		await broker.call("probe.quick");
		await new Promise((r) => setTimeout(r, 500));
		const stuck = await readyz();
		expect(stuck.status).toBe(503);
		expect(stuck.text).toContain("probe.hang (1 call");
		expect(stuck.text).not.toContain("probe.quick");
		release();
		expect(await pending).toBe("done");
		expect((await readyz()).status).toBe(200);
	});

	it("counts only calls older than the limit, by action", () => {
		const now = 100_000;
		const calls = [
			{ action: "a.x", since: now - 5000 },
			{ action: "a.x", since: now - 9000 },
			{ action: "b.y", since: now - 100 },
		];
		expect(stuckCalls(calls, 1000, now)).toEqual(["a.x (2 calls, oldest 9 s)"]);
		expect(stuckCalls(calls, 10_000, now)).toEqual([]);
	});
});
