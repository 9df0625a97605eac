import { connect } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cluster } from "../../scripts/cluster.ts";
import { testCluster } from "../support/cluster.ts";
import { dropTestDatabases } from "../support/stack.ts";

// `npm run start:cluster` and `npm run test:cluster` run their processes over a nats-server of
// their own that requires a generated user and password (startCluster's ownNats), not over the
// machine's shared NATS, which takes anyone: the processes join with the credentials, a client
// without them is refused, the password never appears in their logs, and the server stops
// with the cluster.

let cluster: Cluster & { logs: string[] };

beforeAll(async () => {
	cluster = await testCluster({
		ownNats: true,
		layout: [
			{ name: "gateway", services: "gateway" },
			{ name: "auth-keys", services: "auth-keys" },
		],
		// info: the gateway's start-up line names the transporter.
		env: { LOG_LEVEL: "info" },
	});
	await cluster.ready();
}, 120_000);
afterAll(async () => {
	await cluster?.stop();
	await dropTestDatabases();
});

describe("a cluster over its own NATS", () => {
	it("joins its processes over a NATS that refuses clients without the credentials", async () => {
		expect(cluster.nats, "the cluster started no NATS of its own").toBeDefined();
		const nats = cluster.nats!;
		expect(cluster.transporter).toBe(`nats://${nats.user}:${nats.password}@${nats.address}`);
		await expect(connect({ servers: nats.address, reconnect: false })).rejects.toThrow(/authorization/i);
		// /scopes: the gateway asks auth-keys, another process, over that NATS.
		const res = await fetch(`${cluster.url}/api/v1/scopes`);
		expect(res.status).toBe(200);
	});

	it("never writes the password to the processes' logs", async () => {
		const logs = cluster.logs.join("\n");
		expect(logs).toMatch(/transporter: nats:\/\/oms:\*\*\*@127\.0\.0\.1/);
		expect(logs).not.toContain(cluster.nats!.password);
	});

	it("stops its NATS with it", async () => {
		const { address, user, password } = cluster.nats!;
		await cluster.stop();
		await expect(connect({ servers: address, user, pass: password, reconnect: false })).rejects.toThrow();
	}, 60_000);
});
