import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateNats, type PrivateServer } from "../support/cluster.ts";
import { cli, freePort, natsProcessEnv, startServiceProcess, waitFor, type ServiceProcess } from "../support/processes.ts";
import { dropTestDatabases } from "../support/stack.ts";

// An import travels from the gateway to the catalog as one NATS message. Over a NATS server
// with the default payload limit (1 MB; deploy/nats/nats.conf raises it), a larger body is
// refused up front as 413 file_too_large, not lost as an internal error; a smaller one imports.

let nats: PrivateServer;
let port: number;
const procs: ServiceProcess[] = [];
let key: string;
const url = (p: string) => `http://127.0.0.1:${port}/api/v1${p}`;
const csv = (rows: number) =>
	`partner,name,model\n${Array.from({ length: rows }, (_, i) => `Bus OEM,Cable ${i},BUS-${String(i).padStart(6, "0")}`).join("\n")}\n`;
const importCsv = (body: string) =>
	fetch(url("/products/import"), { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "text/csv" }, body });

beforeAll(async () => {
	nats = await privateNats();
	port = await freePort();
	const env = natsProcessEnv({ TRANSPORTER: nats.url, LOG_LEVEL: "warn" });
	for (const s of ["auth-keys", "catalog", "matching"]) procs.push(startServiceProcess({ ...env, SERVICES: s, NODE_ID: `${s}-1` }));
	procs.push(startServiceProcess({ ...env, SERVICES: "gateway", NODE_ID: "gateway-1", PORT: String(port) }));
	await waitFor(
		"the gateway over the private NATS",
		async () => ((await fetch(url("/scopes")).catch(() => null))?.status === 200 ? true : undefined),
		45_000,
	);
	const tenantId = (await cli(["tenant:create", "--name", "Bus Co", "--owner", "ops@bus.example"], env)).stdout.trim();
	const token = (await cli(["dev:token", "--email", "ops@bus.example"], env)).stdout.trim();
	const session = await fetch(url("/session"), {
		method: "POST",
		headers: { Authorization: `Bearer ${token}`, "X-Service-Tenant": tenantId },
	});
	const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
	const created = await fetch(url("/api-keys"), {
		method: "POST",
		headers: { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" },
		body: JSON.stringify({ name: "bus", scopes: ["profile:read", "profile:write"] }),
	});
	key = ((await created.json()) as { secret: string }).secret;
	const partner = await fetch(url("/products/partners"), {
		method: "POST",
		headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
		body: JSON.stringify({ name: "Bus OEM" }),
	});
	expect(partner.status).toBe(201);
}, 90_000);
afterAll(async () => {
	await Promise.all(procs.map((p) => p.stop()));
	await nats?.stop();
	await dropTestDatabases();
});

describe("an import over NATS", () => {
	it("answers 413 file_too_large, storing nothing, for a body the bus cannot carry", async () => {
		const body = csv(40_000); // about 1.3 MB: under the route's 8 MB, over the bus's 1 MB
		expect(body.length).toBeGreaterThan(1_100_000);
		const res = await importCsv(body);
		const answer = (await res.json()) as { error: string; message: string };
		expect(res.status, JSON.stringify(answer)).toBe(413);
		expect(answer).toMatchObject({ error: "file_too_large", message: expect.stringContaining("max_payload") });
		const list = (await (await fetch(url("/products?limit=1"), { headers: { Authorization: `Bearer ${key}` } })).json()) as {
			items: unknown[];
		};
		expect(list.items).toEqual([]);
	});

	it("imports a body the bus can carry", async () => {
		const res = await importCsv(csv(4_000)); // about 120 KB, over two processes
		expect(res.status).toBe(200);
		expect(await res.json()).toMatchObject({ total: 4000, created: 4000 });
	}, 60_000);
});
