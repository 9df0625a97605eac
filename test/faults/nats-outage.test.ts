import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateNats, stackOn, testCluster, type PrivateServer } from "../support/cluster.ts";
import { reportFault } from "../support/faults.ts";
import { waitFor } from "../support/processes.ts";
import { apiKey, companyWithSession, dropTestDatabases, type Stack } from "../support/stack.ts";

// The gateway and the services behind it as separate processes over a NATS server of this test
// alone, stopped for 10 seconds. Meanwhile every request that needs another process must fail
// at once with 503 (not wait for the request timeout), and once NATS is back the same requests
// must succeed again without anyone restarting anything.

const OUTAGE_MS = 10_000;
let nats: PrivateServer;
let cluster: Awaited<ReturnType<typeof testCluster>>;
let stack: Stack;
let key: string;

beforeAll(async () => {
	nats = await privateNats();
	cluster = await testCluster({
		transporter: nats.url,
		layout: [
			{ name: "gateway", services: "gateway" },
			{ name: "api", services: "auth-keys,opportunities" },
		],
		env: { RATE_LIMIT_POINTS: "100000000" },
	});
	await cluster.ready();
	stack = await stackOn(cluster, ["auth-keys", "opportunities"]);
	key = (await apiKey(stack, await companyWithSession(stack, "Wire Co"), ["opportunities:read"])).secret;
}, 180_000);
afterAll(async () => {
	await nats?.start().catch(() => undefined);
	await stack?.stop();
	await cluster?.stop();
	await nats?.stop();
	await dropTestDatabases();
}, 60_000);

const list = async () => {
	const t0 = Date.now();
	const res = await fetch(`${cluster.url}/api/v1/opportunities?limit=5`, {
		headers: { Authorization: `Bearer ${key}` },
		signal: AbortSignal.timeout(15_000),
	});
	return {
		status: res.status,
		ms: Date.now() - t0,
		retryAfter: res.headers.get("retry-after"),
		body: (await res.json()) as { error?: string },
	};
};

describe("NATS stopped for 10 seconds", () => {
	it("fails requests fast with 503 and recovers on its own", async () => {
		expect((await list()).status).toBe(200);
		await nats.stop();
		const stoppedAt = Date.now();
		// The NATS client sees the closed socket at once; give the gateway a moment to hear of it.
		await new Promise((r) => setTimeout(r, 300));
		const during: Awaited<ReturnType<typeof list>>[] = [];
		while (Date.now() - stoppedAt < OUTAGE_MS - 500) {
			during.push(await list());
			await new Promise((r) => setTimeout(r, 250));
		}
		await nats.start();
		const restartedAt = Date.now();
		const recovered = await waitFor(
			"requests to succeed again",
			async () => ((await list()).status === 200 ? Date.now() : undefined),
			45_000,
		);

		const slowest = Math.max(...during.map((d) => d.ms));
		expect(during.length).toBeGreaterThan(10);
		expect(during.every((d) => d.status === 503 && d.body.error === "internal" && d.retryAfter)).toBe(true);
		expect(slowest).toBeLessThan(1000); // the request timeout is 10 s
		reportFault(
			`stop NATS for ${OUTAGE_MS / 1000} s: ${during.length}/${during.length} requests answered 503 internal with Retry-After, slowest ${slowest} ms; ` +
				`requests succeed again ${((recovered - restartedAt) / 1000).toFixed(1)} s after NATS came back (no restart)`,
		);
	}, 120_000);
});
