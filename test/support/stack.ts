import type { ServiceBroker } from "moleculer";
import { dropRedisKeys } from "../../shared/redis-keys.ts";
import { createBroker } from "../../shared/broker.ts";
import { config } from "../../shared/config.ts";
import { dropDatabases } from "../../shared/mongo.ts";
import { mintDevIdToken } from "../../shared/dev-issuer.ts";
import { selectServices } from "../../services/registry.ts";
import { clusterForThisFile, joinCluster, joinedCluster } from "./cluster.ts";

// A real stack for tests: the selected services in this process (or over NATS), the
// gateway on a free port, backed by the real MongoDB-compatible server and Redis.

export interface Stack {
	broker: ServiceBroker;
	url: string;
	stop(): Promise<void>;
}

export async function startStack(services = "all", overrides: Parameters<typeof createBroker>[1] = {}): Promise<Stack> {
	// Under `npm run test:cluster` the services are the running cluster's (it runs every one, so
	// a subset is there too); broker options of the file's own keep its services here.
	const cluster = Object.keys(overrides).length === 0 ? clusterForThisFile() : null;
	if (cluster) return joinCluster(cluster);
	const broker = createBroker(selectServices(services), { logger: false, ...overrides });
	await broker.start();
	const gateway = broker.getLocalService("gateway") as unknown as { server?: { address(): { port: number } } } | undefined;
	const port = gateway?.server?.address().port ?? 0;
	return {
		broker,
		url: `http://127.0.0.1:${port}`,
		async stop() {
			await broker.stop();
		},
	};
}

/** Drops every database this test process created (its prefix is unique to it). */
export async function dropTestDatabases(): Promise<void> {
	if (joinedCluster()) return; // the cluster's, dropped by its runner when every file is done
	await Promise.all([dropDatabases(config().MONGO_DB_PREFIX), dropRedisKeys(`${config().REDIS_PREFIX}:`)]);
}

export const ORIGIN = () => new URL(config().PUBLIC_URL).origin;

export interface Company {
	tenantId: string;
	email: string;
	cookie: string;
}

/** A company with a signed-in owner (browser session cookie). */
export async function companyWithSession(
	stack: Stack,
	name: string,
	email = `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now()}@example.com`,
): Promise<Company> {
	const { tenantId } = await stack.broker.call<{ tenantId: string }, object>("auth-keys.createTenant", { name, ownerEmail: email });
	const cookie = await signIn(stack, email, tenantId);
	return { tenantId, email, cookie };
}

export async function signIn(stack: Stack, email: string, tenantId?: string): Promise<string> {
	const res = await fetch(`${stack.url}/api/v1/session`, {
		method: "POST",
		headers: { Authorization: `Bearer ${await mintDevIdToken({ email })}`, ...(tenantId ? { "X-Service-Tenant": tenantId } : {}) },
	});
	if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
	const setCookie = res.headers.get("set-cookie") ?? "";
	return setCookie.split(";")[0]!;
}

/** An API key of the company with these scopes; returns its secret and id. */
export async function apiKey(
	stack: Stack,
	company: Company,
	scopes: string[],
	extra: Record<string, unknown> = {},
): Promise<{ secret: string; id: string }> {
	const res = await api(stack, "POST", "/api-keys", { cookie: company.cookie, body: { name: "test key", scopes, ...extra } });
	if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
	return { secret: res.body.secret, id: res.body.key.id };
}

export interface ApiResponse {
	status: number;
	headers: Headers;
	body: any;
}

export interface CallOptions {
	key?: string;
	cookie?: string;
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
	origin?: string | null;
}

/** One HTTP call to /api/v1 as a client would make it. */
export async function api(stack: Stack, method: string, path: string, o: CallOptions = {}): Promise<ApiResponse> {
	const headers: Record<string, string> = { ...(o.headers ?? {}) };
	if (o.key) headers.Authorization = `Bearer ${o.key}`;
	if (o.cookie) {
		headers.Cookie = o.cookie;
		if (o.origin !== null && method !== "GET") headers.Origin = o.origin ?? ORIGIN();
	}
	let body: string | undefined = o.rawBody;
	if (o.body !== undefined) {
		body = JSON.stringify(o.body);
		headers["Content-Type"] ??= "application/json";
	}
	const res = await fetch(`${stack.url}/api/v1${path}`, { method, headers, body });
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : null;
	} catch {
		/* not JSON: keep the text */
	}
	return { status: res.status, headers: res.headers, body: parsed };
}
