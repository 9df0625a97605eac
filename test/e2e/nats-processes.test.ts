import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropTestDatabases } from "../support/stack.ts";
import { cli, freePort, natsProcessEnv, startServiceProcess, waitFor, type ServiceProcess } from "../support/processes.ts";

// The gateway and auth-keys as separate processes talking over the real NATS server.

const env = natsProcessEnv({ LOG_LEVEL: "warn" });
let port: number;
let gateway: ServiceProcess;
let authKeys: ServiceProcess;
const json = async (r: Response): Promise<any> => r.json();
const url = (p: string) => `http://127.0.0.1:${port}/api/v1${p}`;

beforeAll(async () => {
	port = await freePort();
	authKeys = startServiceProcess({ ...env, SERVICES: "auth-keys", NODE_ID: "auth-keys-1" });
	gateway = startServiceProcess({ ...env, SERVICES: "gateway", NODE_ID: "gateway-1", PORT: String(port) });
	await waitFor(
		"the gateway to reach auth-keys",
		async () => ((await fetch(url("/scopes"))).status === 200 ? true : undefined),
		45_000,
	).catch((e) => {
		throw new Error(`${e.message}\n--- gateway:\n${gateway.output()}\n--- auth-keys:\n${authKeys.output()}`);
	});
}, 60_000);
afterAll(async () => {
	await gateway?.stop();
	await authKeys?.stop();
	await dropTestDatabases();
});

describe("gateway and auth-keys over NATS", () => {
	let secret: string;

	it("signs in, creates a key and authenticates with it across processes", async () => {
		const created = await cli(["tenant:create", "--name", "Wire Co", "--owner", "ops@wire.example"], env);
		expect(created.code, created.stderr).toBe(0);
		const tenantId = created.stdout.trim();
		expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);
		const token = (await cli(["dev:token", "--email", "ops@wire.example"], env)).stdout.trim();
		expect(token.split(".")).toHaveLength(3);

		const session: Response = await fetch(url("/session"), { method: "POST", headers: { Authorization: `Bearer ${token}` } });
		expect(session.status).toBe(200);
		expect((await json(session)).tenant.id).toBe(tenantId);
		const cookie = session.headers.get("set-cookie")!.split(";")[0]!;

		const key = await fetch(url("/api-keys"), {
			method: "POST",
			headers: { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" },
			body: JSON.stringify({ name: "wire", scopes: ["profile:read"] }),
		});
		expect(key.status).toBe(201);
		secret = (await json(key)).secret;
		const me = await fetch(url("/me"), { headers: { Authorization: `Bearer ${secret}` } });
		expect(me.status).toBe(200);
		expect((await json(me)).tenant.id).toBe(tenantId);

		const bad = await fetch(url("/api-keys"), {
			method: "POST",
			headers: { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" },
			body: JSON.stringify({ name: "" }),
		});
		expect(bad.status).toBe(400);
		expect((await json(bad)).issues[0].path).toBe("body.name");
	});

	it("fails fast with 503 while auth-keys is gone and recovers when it returns", async () => {
		await authKeys.stop();
		const t0 = Date.now();
		const down = await fetch(url("/me"), { headers: { Authorization: `Bearer ${secret}` } });
		expect(down.status, JSON.stringify(await json(down.clone()))).toBe(503);
		expect((await json(down)).error).toBe("internal");
		expect(down.headers.get("retry-after")).toBeTruthy();
		expect(Date.now() - t0).toBeLessThan(5000);

		authKeys = startServiceProcess({ ...env, SERVICES: "auth-keys", NODE_ID: "auth-keys-2" });
		const status = await waitFor("auth-keys to come back", async () => {
			const r = await fetch(url("/me"), { headers: { Authorization: `Bearer ${secret}` } });
			return r.status === 200 ? r.status : undefined;
		});
		expect(status).toBe(200);
	});
});
