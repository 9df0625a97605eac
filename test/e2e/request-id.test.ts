import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue, QUEUES, startWorker } from "../../shared/queue.ts";
import { currentRequestId, withRequestId } from "../../shared/request-context.ts";
import { freePort, natsProcessEnv, startServiceProcess, waitFor, type ServiceProcess } from "../support/processes.ts";
import { dropTestDatabases } from "../support/stack.ts";

// Request ids: the gateway keeps a plain client-sent X-Request-Id or mints one, answers it on
// every response, and every log line written for the request carries it, in each process the
// request crosses (gateway and auth-keys here, over the real NATS server, logging JSON lines).

// Moleculer logs each request it sends and receives at debug: lines from both sides.
const env = natsProcessEnv({ LOG_LEVEL: "debug", LOG_PRETTY: "false" });

interface LogLine {
	msg?: string;
	requestId?: string;
	[k: string]: unknown;
}

/** A service process whose JSON log lines are kept as parsed objects. */
function loggedProcess(extra: Record<string, string>) {
	const lines: LogLine[] = [];
	let partial = "";
	const proc = startServiceProcess({ ...env, ...extra }, (chunk) => {
		const parts = (partial + chunk).split("\n");
		partial = parts.pop()!;
		for (const p of parts) {
			if (!p.startsWith("{")) continue;
			try {
				lines.push(JSON.parse(p));
			} catch {
				/* not a log line */
			}
		}
	});
	return { proc, lines };
}

let port: number;
let gateway: { proc: ServiceProcess; lines: LogLine[] };
let authKeys: { proc: ServiceProcess; lines: LogLine[] };
const url = (p: string) => `http://127.0.0.1:${port}${p}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
	port = await freePort();
	authKeys = loggedProcess({ SERVICES: "auth-keys", NODE_ID: "rid-auth-keys" });
	gateway = loggedProcess({ SERVICES: "gateway", NODE_ID: "rid-gateway", PORT: String(port) });
	await waitFor(
		"the gateway to reach auth-keys",
		async () => ((await fetch(url("/api/v1/scopes"))).status === 200 ? true : undefined),
		45_000,
	).catch((e) => {
		throw new Error(`${e.message}\n--- gateway:\n${gateway.proc.output()}\n--- auth-keys:\n${authKeys.proc.output()}`);
	});
}, 60_000);
afterAll(async () => {
	await gateway?.proc.stop();
	await authKeys?.proc.stop();
	await dropTestDatabases();
});

describe("X-Request-Id", () => {
	it("echoes a plain client id and mints one otherwise, on successes and errors alike", async () => {
		const given = `client-${randomBytes(6).toString("hex")}.1`;
		const ok = await fetch(url("/api/v1/scopes"), { headers: { "X-Request-Id": given } });
		expect(ok.status).toBe(200);
		expect(ok.headers.get("x-request-id")).toBe(given);

		const minted = await fetch(url("/api/v1/scopes"));
		expect(minted.headers.get("x-request-id")).toMatch(UUID);

		// Not plain (a space) or too long: replaced, not echoed.
		for (const bad of ["has space", "x".repeat(65)])
			expect((await fetch(url("/api/v1/scopes"), { headers: { "X-Request-Id": bad } })).headers.get("x-request-id")).toMatch(UUID);

		const missing = await fetch(url("/api/v1/no-such-route"), { headers: { "X-Request-Id": given } });
		expect(missing.status).toBe(404);
		expect(missing.headers.get("x-request-id")).toBe(given);
		expect(((await missing.json()) as { requestId: string }).requestId).toBe(given);

		const health = await fetch(url("/healthz"), { headers: { "X-Request-Id": given } });
		expect(health.headers.get("x-request-id")).toBe(given);
	});

	it("is on every log line either process writes for the request", async () => {
		const id = `trace-${randomBytes(6).toString("hex")}`;
		// A well-formed key nobody issued: the gateway asks auth-keys, which rejects it.
		const res = await fetch(url("/api/v1/me"), { headers: { "X-Request-Id": id, Authorization: `Bearer oms_live_${"A".repeat(43)}` } });
		expect(res.status).toBe(401);
		expect(res.headers.get("x-request-id")).toBe(id);

		const about = (lines: LogLine[]) => lines.filter((l) => typeof l.msg === "string" && l.msg.includes("auth-keys.authenticate"));
		// auth-keys: the request received and its rejection; the gateway: the call sent and its answer.
		await waitFor("auth-keys to log the request", async () => (about(authKeys.lines).length >= 2 ? true : undefined), 10_000);
		await waitFor("the gateway to log the request", async () => (about(gateway.lines).length >= 2 ? true : undefined), 10_000);
		for (const [name, p] of [
			["auth-keys", authKeys],
			["gateway", gateway],
		] as const) {
			const lines = about(p.lines);
			expect(
				lines.map((l) => l.requestId),
				`${name}: ${JSON.stringify(lines)}`,
			).toEqual(lines.map(() => id));
		}
		// The gateway's own line for the HTTP request carries it too.
		expect(gateway.lines.filter((l) => l.msg?.includes("/api/v1/me")).map((l) => l.requestId)).toContain(id);
	});

	it("goes with a job queued while handling the request to the worker that runs it", async () => {
		const seen: Array<string | undefined> = [];
		const worker = startWorker(QUEUES.opportunitiesUpkeep, async () => void seen.push(currentRequestId()));
		try {
			expect(await withRequestId("job-request-1", () => enqueue(QUEUES.opportunitiesUpkeep, "t", {}, "rid-job-1"))).toBe(true);
			expect(await enqueue(QUEUES.opportunitiesUpkeep, "t", {}, "rid-job-2")).toBe(true);
			await waitFor("both jobs to run", async () => (seen.length === 2 ? true : undefined), 10_000);
			expect(seen).toEqual(["job-request-1", undefined]);
		} finally {
			await worker.close();
		}
	});
});
