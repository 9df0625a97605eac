import { spawn, type ChildProcess } from "node:child_process";
import type { BrokerOptions } from "moleculer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../shared/config.ts";
import { opsPort } from "../../shared/ops-server.ts";
import { enqueue, QUEUES } from "../../shared/queue.ts";
import { freePort, waitFor } from "../support/processes.ts";
import { dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// Every process's ops server (/healthz, /readyz, /metrics) against backing services this test
// owns: a private Redis and a private NATS it can kill and bring back without touching the
// shared ones other tests use.

/** A server binary on a port of its own, started and killed at will, always on that port. */
function privateServer(bin: string, args: (port: number) => string[], readyLine: RegExp) {
	let child: ChildProcess | undefined;
	let port = 0;
	return {
		get port() {
			return port;
		},
		async start() {
			port ||= await freePort();
			const c = spawn(bin, args(port), { stdio: ["ignore", "pipe", "pipe"] });
			child = c;
			let out = "";
			await new Promise<void>((resolve, reject) => {
				const seen = (d: Buffer) => {
					out += d;
					if (readyLine.test(out)) resolve();
				};
				c.stdout!.on("data", seen);
				c.stderr!.on("data", seen);
				c.once("exit", (code) => reject(new Error(`${bin} exited (${code}): ${out}`)));
			});
		},
		async kill() {
			const c = child;
			if (!c || c.exitCode !== null || c.signalCode !== null) return;
			await new Promise((r) => {
				c.once("exit", r);
				c.kill("SIGKILL");
			});
		},
	};
}

const redis = privateServer(
	"/usr/bin/redis-server",
	(p) => ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
	/Ready to accept connections/,
);
const nats = privateServer("/usr/sbin/nats-server", (p) => ["-a", "127.0.0.1", "-p", String(p)], /Server is ready/);

let stack: Stack;
let ops: string;
const get = async (url: string) => {
	const res = await fetch(url);
	const text = await res.text();
	return { status: res.status, text, json: () => JSON.parse(text) };
};
/** One sample's value from a Prometheus text scrape. */
const sample = (text: string, series: string) => {
	const line = text.split("\n").find((l) => l.startsWith(`${series} `));
	return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
	await redis.start();
	process.env.REDIS_URL = `redis://127.0.0.1:${redis.port}`;
	// No workers: the jobs this test queues stay waiting, so their count is known.
	process.env.WORKERS = "off";
	resetConfig();
	stack = await startStack("all");
	ops = `http://127.0.0.1:${opsPort(stack.broker)}`;
}, 60_000);
afterAll(async () => {
	await stack?.stop();
	await redis.kill();
	await nats.kill();
	await dropTestDatabases();
});

describe("ops server", () => {
	it("answers /healthz and /readyz with the checks of what the process uses", async () => {
		expect(opsPort(stack.broker)).toBeGreaterThan(0);
		const health = await get(`${ops}/healthz`);
		expect(health.status).toBe(200);
		expect(health.json()).toMatchObject({ status: "ok", nodeID: stack.broker.nodeID });

		// (Retried a little: on a loaded machine one database ping may miss the check's deadline.)
		const { checks } = await waitFor(
			"readyz",
			async () => {
				const r = await get(`${ops}/readyz`);
				return r.status === 200 ? r.json() : undefined;
			},
			10_000,
		);
		// Every service database, the queues' Redis and the gateway's; no transporter in one process.
		for (const name of [
			"redis",
			"redis:rate-limits",
			"mongo:auth",
			"mongo:catalog",
			"mongo:matching",
			"mongo:opportunities",
			"mongo:notifications",
		])
			expect(checks[name], name).toMatchObject({ status: "up" });
		expect(checks.nats).toBeUndefined();
		expect((await get(`${stack.url}/readyz`)).status).toBe(200);
		expect((await get(`${ops}/nothing`)).status).toBe(404);
	});

	it("serves Moleculer's metrics and the depth of every queue the process uses", async () => {
		const n = 7;
		for (let i = 0; i < n; i++) expect(await enqueue(QUEUES.productIndex, "index-product", { i }, `ops-test-${i}`)).toBe(true);
		await new Promise((r) => setTimeout(r, 1100));
		await fetch(`${stack.url}/api/v1/scopes`);

		const res = await fetch(`${ops}/metrics`);
		expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
		const text = await res.text();
		expect(text).toContain("# TYPE moleculer_request_total counter");
		expect(text).toMatch(/^moleculer_request_total\{.*action="auth-keys\.listScopes".*\} [1-9]/m);
		expect(text).toContain("# HELP oms_queue_jobs ");
		expect(text).toContain("# TYPE oms_queue_jobs gauge");
		expect(sample(text, `oms_queue_jobs{queue="${QUEUES.productIndex}",state="waiting"}`)).toBe(n);
		expect(sample(text, `oms_queue_jobs{queue="${QUEUES.productIndex}",state="active"}`)).toBe(0);
		// Every queue this process produces to is there, e.g. the notices opportunities sends to matching.
		expect(sample(text, `oms_queue_jobs{queue="${QUEUES.noticeMatch}",state="waiting"}`)).toBe(0);
		expect(sample(text, `oms_queue_up{queue="${QUEUES.productIndex}"}`)).toBe(1);
		expect(sample(text, "oms_matching_lag_seconds")).toBeGreaterThanOrEqual(1);
		expect(sample(text, "oms_matching_lag_seconds")).toBeLessThan(60);
		expect(sample(text, `oms_outbox_pending{outbox="products.index"}`)).toBe(0);
	});

	it("turns /readyz to 503 naming redis while Redis is down, and back when it returns", async () => {
		await redis.kill();
		const down = await waitFor(
			"readyz to fail",
			async () => {
				const r = await get(`${ops}/readyz`);
				return r.status === 503 ? r.json() : undefined;
			},
			5000,
		);
		expect(down.status).toBe("unavailable");
		expect(down.checks.redis.status).toBe("down");
		expect(down.checks["redis:rate-limits"].status).toBe("down");
		expect(down.checks["mongo:catalog"].status).toBe("up");

		// The API port's is public: not ready, without saying why (test/e2e/gateway-edge-readyz.test.ts).
		const gateway = await get(`${stack.url}/readyz`);
		expect(gateway.status).toBe(503);
		expect(gateway.json()).toMatchObject({ error: "internal", message: expect.any(String), requestId: expect.any(String) });
		expect(gateway.text).not.toContain("redis");
		const metrics = (await get(`${ops}/metrics`)).text;
		expect(sample(metrics, `oms_queue_up{queue="${QUEUES.productIndex}"}`)).toBe(0);

		await redis.start();
		const up = await waitFor("readyz to recover", async () => ((await get(`${ops}/readyz`)).status === 200 ? true : undefined), 10_000);
		expect(up).toBe(true);
		expect((await get(`${stack.url}/readyz`)).status).toBe(200);
	});

	it("checks the transporter: 503 naming nats while NATS is down", async () => {
		await nats.start();
		const natsStack = await startStack("ask", {
			transporter: `nats://127.0.0.1:${nats.port}` as BrokerOptions["transporter"],
			nodeID: "ops-nats-test",
		});
		try {
			const natsOps = `http://127.0.0.1:${opsPort(natsStack.broker)}`;
			expect((await get(`${natsOps}/readyz`)).json().checks.nats).toMatchObject({ status: "up" });
			await nats.kill();
			const down = await waitFor(
				"readyz to fail",
				async () => {
					const r = await get(`${natsOps}/readyz`);
					return r.status === 503 ? r.json() : undefined;
				},
				5000,
			);
			expect(down.checks.nats.status).toBe("down");
			await nats.start();
			await waitFor("readyz to recover", async () => ((await get(`${natsOps}/readyz`)).status === 200 ? true : undefined), 10_000);
		} finally {
			await natsStack.stop();
		}
	});
});
