import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_ROUTES } from "../../services/gateway/routes.ts";
import { config, resetConfig } from "../../shared/config.ts";
import { operationByAction } from "../../shared/contract/index.ts";
import type { Operation } from "../../shared/contract/operation.ts";
import { ERROR_CODES } from "../../shared/errors.ts";
import { connectServiceDb } from "../../shared/mongo.ts";
import { busyActions, inParallel } from "../support/in-flight.ts";
import { waitFor } from "../support/processes.ts";
import { match, notice } from "../support/opportunities.ts";
import { api, companyWithSession, dropTestDatabases, ORIGIN, startStack, type Company, type Stack } from "../support/stack.ts";

// A hostile client's corpus against every route of the route table: wrong types, oversize
// strings and arrays, deep nesting, operator objects, __proto__ and constructor members,
// control characters, lone surrogates, huge numbers, empty and non-JSON bodies, odd encodings,
// bad ids and cursors, unknown query parameters. Every answer must be a 4xx in the contract's
// error body with its requestId and nothing of the server's insides (stack, path, driver
// text); nothing refused may be stored; no call may stay in flight; and the service must
// answer valid requests normally afterwards.

process.env.RATE_LIMIT_POINTS = "1000000";
process.env.RATE_LIMIT_ANON_POINTS = "1000000";
resetConfig();

let stack: Stack;
let company: Company;
let opportunityId: string;

beforeAll(async () => {
	stack = await startStack();
	company = await companyWithSession(stack, "Fuzz Target");
	opportunityId = await match(stack, company.tenantId, await notice(stack, { title: "Network switches" }), { score: 70 });
	// Something of every kind that a refused request might change.
	const partner = await api(stack, "POST", "/products/partners", { cookie: company.cookie, body: { name: "Fuzz OEM" } });
	await api(stack, "POST", "/products", { cookie: company.cookie, body: { oem_partner_id: partner.body.id, name: "Switch 9000" } });
	await api(stack, "POST", "/api-keys", { cookie: company.cookie, body: { name: "fuzz key", scopes: ["opportunities:read"] } });
	// Every company's default settings, which a background job otherwise writes at some moment.
	await stack.broker.call("notifications.ensureSettings", {});
	// The product's indexing re-scores the opportunity in the background: settled before the
	// state is read, so that only a probe could change it.
	const catalog = await connectServiceDb("catalog");
	try {
		await waitFor("the product's indexing", async () =>
			(await catalog.collection("products").countDocuments({ tenant_id: company.tenantId, "index.pending": true })) === 0
				? true
				: undefined,
		);
	} finally {
		await catalog.close();
	}
}, 60_000);
afterAll(async () => {
	await stack?.stop();
	await dropTestDatabases();
});

interface Probe {
	label: string;
	method: string;
	path: string;
	headers?: Record<string, string>;
	body?: string | Buffer;
	/** A value the field takes after all (free text such as `q=$gt`): any answer but a 5xx will do. */
	mayPass?: boolean;
}

// -- The corpus ------------------------------------------------------------------------------

const deep = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);
const HUGE_NUMBERS = ["1e400", "-1e400", `17976931348623157${"0".repeat(303)}1`, "18446744073709551616"];

/** Values that no text, number, boolean, enum or id field of the contract accepts. */
const BAD_VALUES: Record<string, string> = {
	"an operator object": JSON.stringify({ $gt: "" }),
	"a nested operator": JSON.stringify({ $where: "sleep(1000)", $ne: null }),
	"an oversize string": JSON.stringify("x".repeat(20_000)),
	"an oversize array": JSON.stringify(Array.from({ length: 10_000 }, () => "x")),
	"a NUL": JSON.stringify("a\u0000b"),
	"a control character": JSON.stringify("a\u001bb"),
	"a lone surrogate": '"a\\ud800b"',
	"deep nesting": deep(40),
	"a __proto__ object": '{"__proto__": {"admin": true}}',
};

/** A value of a type the field does not take (a string field gets a number, and so on). */
function wrongType(field: z.ZodType): string[] {
	const json = z.toJSONSchema(field, { io: "input", unrepresentable: "any" }) as { type?: string | string[] };
	const types = new Set([json.type ?? []].flat());
	const out: string[] = [];
	if (!types.has("number") && !types.has("integer")) out.push("12345");
	if (!types.has("string")) out.push('"text"');
	if (!types.has("boolean")) out.push("true");
	if (!types.has("object")) out.push('{"a": 1}');
	if (!types.has("array")) out.push("[1, 2]");
	return out;
}

function bodyProbes(op: Operation, method: string, path: string): Probe[] {
	const json = (label: string, body: string, headers: Record<string, string> = {}): Probe => ({
		label,
		method,
		path,
		headers: { "Content-Type": "application/json", ...headers },
		body,
	});
	const probes: Probe[] = [
		json("non-JSON text", "{{not json"),
		json("JSON with trailing junk", '{"a": 1} trailing'),
		json("a bare string", '"just a string"'),
		json("a bare number", "12"),
		json("null", "null"),
		json("deep nesting", `{"a": ${deep(200)}}`),
		json("a __proto__ member", '{"__proto__": {"isAdmin": true}}'),
		json("a constructor member", '{"constructor": {"prototype": {"isAdmin": true}}}'),
		json("an unknown member", '{"__fuzz__": 1}'),
		json("UTF-16 bytes without a charset", ""),
		json("an unknown charset", '{"a": 1}', { "Content-Type": "application/json; charset=klingon" }),
		json("a false gzip encoding", '{"a": 1}', { "Content-Encoding": "gzip" }),
		json("an unknown encoding", '{"a": 1}', { "Content-Encoding": "snappy" }),
		{ label: "a text/plain body", method, path, headers: { "Content-Type": "text/plain" }, body: "name=x" },
		{ label: "a form body", method, path, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "name=x" },
	];
	probes[9]!.body = Buffer.from('{"name": "x"}', "utf16le");
	probes.push(json("UTF-32 claimed for UTF-8 bytes", '{"name": "x"}', { "Content-Type": "application/json; charset=utf-32" }));
	if (op.bodyRequired !== false) probes.push(json("an empty JSON body", ""));
	// Field by field, where the body is an object (an import's rows are reported row by row instead).
	const shape = op.body instanceof z.ZodObject ? (op.body.shape as Record<string, z.ZodType>) : {};
	for (const [name, field] of Object.entries(shape)) {
		for (const [what, value] of Object.entries(BAD_VALUES)) probes.push(json(`${name}: ${what}`, `{"${name}": ${value}}`));
		for (const value of wrongType(field)) probes.push(json(`${name}: wrong type ${value}`, `{"${name}": ${value}}`));
		for (const n of HUGE_NUMBERS) probes.push(json(`${name}: huge number ${n.slice(0, 12)}`, `{"${name}": ${n}}`));
	}
	if (op.operationId === "importProducts") {
		probes.push(json("an object instead of rows", '{"rows": []}'), json("no rows", "[]"), json("rows of scalars", "[1, 2, 3]"));
	}
	return probes;
}

function queryProbes(op: Operation, method: string, path: string): Probe[] {
	const probes: Probe[] = [
		{ label: "an unknown query parameter", method, path: `${path}?__fuzz__=1` },
		{ label: "a bracketed operator", method, path: `${path}?__fuzz__[$gt]=` },
	];
	for (const [name, field] of Object.entries((op.query?.shape ?? {}) as Record<string, z.ZodType>)) {
		const takes = (v: string) => {
			try {
				return field.safeParse(decodeURIComponent(v.split("&")[0]!)).success;
			} catch {
				return field.safeParse("\ufffd").success; // not UTF-8: the gateway reads U+FFFD
			}
		};
		const q = (v: string, label: string) =>
			probes.push({ label: `query ${name}: ${label}`, method, path: `${path}?${name}=${v}`, mayPass: takes(v) });
		q("%24gt", "an operator name");
		q(encodeURIComponent("x".repeat(5000)), "an oversize value");
		q("%00", "a NUL");
		q("%ED%A0%80", "an encoded lone surrogate");
		q("1e400", "a huge number");
		q("-1", "a negative number");
		q(`a&${name}=b&${name}=c`, "repeated");
		probes.push({ label: `query ${name}: bracketed operator`, method, path: `${path}?${name}[$ne]=1` });
		if (name === "cursor") {
			q("abc", "a malformed cursor");
			q(`${"A".repeat(30)}.${"B".repeat(22)}`, "a forged cursor");
		}
	}
	return probes;
}

const BAD_IDS = [
	"not-a-uuid",
	"%E0%A4%A",
	"%00",
	"..%2F..%2Fetc",
	"00000000-0000-0000-0000-00000000000g",
	"%7B%22%24gt%22%3A%22%22%7D",
	"x".repeat(300),
];

function routeProbes(route: string): Probe[] {
	const op = operationByAction.get(API_ROUTES[route]!)!;
	const [method = "GET", template = "/"] = route.split(" ");
	const path = template.replace(
		":id",
		op.action === "opportunities.get" || template.startsWith("/opportunities") ? opportunityId : "00000000-0000-4000-8000-000000000000",
	);
	const probes = queryProbes(op, method, path);
	if (template.includes(":id"))
		for (const id of BAD_IDS) probes.push({ label: `id ${id.slice(0, 20)}`, method, path: template.replace(":id", id) });
	if (op.body) probes.push(...bodyProbes(op, method, path));
	return probes.map((p) => ({ ...p, label: `${route}: ${p.label}` }));
}

// -- Sending and judging -----------------------------------------------------------------------

const LEAKS =
	/\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|Mongo|mongoose|ferret|postgres|E11000|SQLSTATE|BSON|TypeError|ReferenceError|Cannot read prop|undefined is not/i;

async function send(p: Probe): Promise<{ status: number; body: any; raw: string; requestId: string | null }> {
	const headers: Record<string, string> = { Cookie: company.cookie, Origin: ORIGIN(), ...(p.headers ?? {}) };
	if (API_ROUTES[`${p.method} /session`] && p.path === "/session" && p.method === "POST") headers.Authorization = "Bearer not.a.jwt";
	const res = await fetch(`${stack.url}/api/v1${p.path}`, { method: p.method, headers, body: p.body });
	const raw = await res.text();
	let body: any = null;
	try {
		body = JSON.parse(raw);
	} catch {
		/* judged below */
	}
	return { status: res.status, body, raw, requestId: res.headers.get("x-request-id") };
}

/** Documents per collection in every database of this test process. */
async function storedCounts(): Promise<Record<string, number>> {
	const conn = await mongoose.createConnection(config().MONGO_URL).asPromise();
	try {
		const counts: Record<string, number> = {};
		const { databases } = await conn.db!.admin().listDatabases();
		for (const d of databases.filter((d) => d.name.startsWith(`${config().MONGO_DB_PREFIX}_`))) {
			const db = conn.useDb(d.name).db!;
			for (const c of await db.listCollections().toArray()) counts[`${d.name}.${c.name}`] = await db.collection(c.name).countDocuments();
		}
		return counts;
	} finally {
		await conn.close();
	}
}

/** What the company's own API reads show, without fields every request updates. */
async function visibleState(): Promise<string> {
	const reads = Object.keys(API_ROUTES).filter((r) => r.startsWith("GET ") && !r.includes(":id") && r !== "GET /openapi.json");
	const out: Record<string, unknown> = {};
	for (const r of reads) out[r] = (await api(stack, "GET", r.slice(4), { cookie: company.cookie })).body;
	return JSON.stringify(out, (k, v) => (["last_used_at", "generated_at", "expires_at"].includes(k) ? undefined : v));
}

describe("a hostile client's corpus against every route", () => {
	it("gets a clean 4xx for every probe, stores nothing, and leaves every route answering", async () => {
		const stateBefore = await visibleState();
		const countsBefore = await storedCounts();
		const probes = Object.keys(API_ROUTES).flatMap(routeProbes);
		expect(probes.length).toBeGreaterThan(800);
		const failures: string[] = [];
		await inParallel(probes.length, 8, async (i) => {
			const p = probes[i]!;
			const r = await send(p);
			const problem =
				p.mayPass && r.status < 300
					? null
					: r.status < 400 || r.status >= 500
						? `status ${r.status}`
						: !r.body || !ERROR_CODES.includes(r.body.error)
							? "not the contract's error body"
							: typeof r.body.message !== "string" || r.body.requestId !== r.requestId || !r.requestId
								? "no message or requestId"
								: LEAKS.test(r.raw)
									? "server internals in the answer"
									: null;
			if (problem) failures.push(`${p.label} -> ${problem}: ${r.raw.slice(0, 200)}`);
		});
		expect(failures.slice(0, 30), `${failures.length} of ${probes.length} probes`).toEqual([]);
		expect(busyActions(stack.broker)).toEqual({});
		expect(await storedCounts()).toEqual(countsBefore);
		expect(await visibleState()).toBe(stateBefore);

		// And the service answers valid requests normally.
		const t0 = Date.now();
		const [me, list, created] = await Promise.all([
			api(stack, "GET", "/me", { cookie: company.cookie }),
			api(stack, "GET", "/opportunities", { cookie: company.cookie }),
			api(stack, "POST", "/products/partners", { cookie: company.cookie, body: { name: "After the storm" } }),
		]);
		expect([me.status, list.status, created.status]).toEqual([200, 200, 201]);
		expect(Date.now() - t0).toBeLessThan(3000);
	}, 300_000);
});
