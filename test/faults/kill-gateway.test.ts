import { get } from "node:http";
import autocannon from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackOn, testCluster } from "../support/cluster.ts";
import { reportFault } from "../support/faults.ts";
import { waitFor } from "../support/processes.ts";
import { apiKey, companyWithSession, dropTestDatabases, type Stack } from "../support/stack.ts";

// Two gateway processes under load; one is killed with SIGKILL. The other must keep answering
// every request, the cluster's one URL (the round-robin proxy) must serve new connections from
// the survivor, and the supervisor must bring the killed one back.

let cluster: Awaited<ReturnType<typeof testCluster>>;
let stack: Stack;
let key: string;

beforeAll(async () => {
	cluster = await testCluster({
		layout: [
			{ name: "gateway", services: "gateway", count: 2 },
			{ name: "api", services: "auth-keys,opportunities" },
		],
		env: { RATE_LIMIT_POINTS: "100000000" },
	});
	await cluster.ready();
	stack = await stackOn(cluster, ["auth-keys", "opportunities"]);
	key = (await apiKey(stack, await companyWithSession(stack, "Load Co"), ["opportunities:read"])).secret;
}, 180_000);
afterAll(async () => {
	await stack?.stop();
	await cluster?.stop();
	await dropTestDatabases();
}, 60_000);

const statusOnNewConnection = (url: string, headers: Record<string, string>) =>
	new Promise<number>((res, rej) => {
		get(url, { headers, agent: false }, (r) => {
			r.resume();
			res(r.statusCode ?? 0);
		}).on("error", rej);
	});

describe("a gateway killed under load", () => {
	it("leaves the other answering every request, and comes back", async () => {
		const [victim, survivor] = cluster.members.filter((m) => m.spec.name === "gateway");
		const load = (url: string) =>
			autocannon({
				url: `${url}/api/v1/opportunities?limit=5`,
				headers: { Authorization: `Bearer ${key}` },
				connections: 8,
				duration: 8,
				timeout: 5,
			});
		const firstPid = victim!.proc.child.pid;
		const kill = new Promise<void>((r) =>
			setTimeout(() => {
				cluster.kill(victim!.id, "SIGKILL");
				r();
			}, 2500),
		);
		const [onSurvivor, onProxy] = await Promise.all([load(`http://127.0.0.1:${survivor!.port}`), load(cluster.url), kill]);
		const failed = (r: autocannon.Result) => r.errors + r.timeouts + r.non2xx;
		expect(onSurvivor.requests.total).toBeGreaterThan(50);
		expect(failed(onSurvivor)).toBe(0);

		// New connections through the one URL go to the survivor while the victim is down.
		// (Each on a connection of its own: a pooled keep-alive one may have led to the victim.)
		const after = await Promise.all(
			Array.from({ length: 20 }, () =>
				statusOnNewConnection(`${cluster.url}/api/v1/opportunities?limit=5`, { Authorization: `Bearer ${key}` }),
			),
		);
		expect(after.every((s) => s === 200)).toBe(true);

		const back = await waitFor(
			"the supervisor to restart the killed gateway",
			async () => {
				if (victim!.proc.child.pid === firstPid) return undefined;
				return (await fetch(`http://127.0.0.1:${victim!.port}/healthz`)).ok ? Date.now() : undefined;
			},
			60_000,
		);
		expect(victim!.restarts).toBe(1);
		reportFault(
			`kill gateway under load: ${onSurvivor.requests.total} requests on the survivor (${survivor!.nodeID}), ` +
				`${failed(onSurvivor)} errors, p99 ${onSurvivor.latency.p99} ms; ` +
				`${onProxy.requests.total} through the proxy, ${failed(onProxy)} failed (in flight on the killed one), ` +
				`then 20/20 new ones OK; ${victim!.id} restarted as ${victim!.nodeID} and answering (${back ? "yes" : "no"})`,
		);
	}, 120_000);
});
