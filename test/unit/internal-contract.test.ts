import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_ROUTES } from "../../services/gateway/routes.ts";
import { SERVICE_SCHEMAS } from "../../services/registry.ts";
import { SERVICE_NAMES } from "../../shared/contract/internal/common.ts";
import { INTERNAL_ACTIONS } from "../../shared/contract/internal/index.ts";
import { JOBS, QUEUE_TABLE } from "../../shared/contract/internal/queue-jobs.ts";
import { QUEUES } from "../../shared/queue.ts";

// The internal half of the contract (shared/contract/internal): every queue is in the queue
// table with a payload schema for each kind of job, and every action a service registers is
// either routed (an HTTP operation) or declared there, with the very schema it validates with.

type ActionDef = { input?: () => unknown; visibility?: string };

/** Every action the services register, by full name. */
const registered = new Map<string, ActionDef>(
	Object.values(SERVICE_SCHEMAS).flatMap((s) =>
		Object.entries((s.actions ?? {}) as Record<string, ActionDef>).map(([a, def]) => [`${s.name}.${a}`, def] as const),
	),
);

/** The actions the gateway's routes reach: the API's route table and the gateway's own /healthz and /readyz. */
const gatewayRoutes = (SERVICE_SCHEMAS.gateway!.settings as { routes: Array<{ aliases?: Record<string, string> }> }).routes;
const routed = new Set([...Object.values(API_ROUTES), ...gatewayRoutes.flatMap((r) => Object.values(r.aliases ?? {}))]);

/** moleculer-web's own entry point: it receives HTTP requests, not a payload a schema could describe. */
const HTTP_ENTRY = "gateway.rest";

describe("the queue table", () => {
	it("has one entry per queue of QUEUES, under the same key and name, and nothing else", () => {
		expect(Object.keys(QUEUE_TABLE).sort()).toEqual(Object.keys(QUEUES).sort());
		for (const [key, name] of Object.entries(QUEUES)) expect(QUEUE_TABLE[key as keyof typeof QUEUES].name, key).toBe(name);
	});

	it("gives every queue a consumer and every kind of job a payload schema, producers and what it does", () => {
		for (const q of Object.values(QUEUE_TABLE)) {
			expect(SERVICE_SCHEMAS, q.name).toHaveProperty([q.consumer]);
			expect(q.jobs.length, q.name).toBeGreaterThan(0);
			expect(new Set(q.jobs.map((j) => j.name)).size, `${q.name}: job names`).toBe(q.jobs.length);
			for (const j of q.jobs) {
				expect(j.queue, `${q.name} ${j.name}`).toBe(q.name);
				expect(j.payload, `${q.name} ${j.name}`).toBeInstanceOf(z.ZodType);
				expect(j.producers.length, `${q.name} ${j.name}`).toBeGreaterThan(0);
				for (const p of j.producers) expect(SERVICE_SCHEMAS, `${q.name} ${j.name}`).toHaveProperty([p]);
				expect(j.does.length, `${q.name} ${j.name}`).toBeGreaterThan(20);
			}
		}
	});

	it("lists every kind of job of JOBS on exactly one queue", () => {
		const listed = Object.values(QUEUE_TABLE).flatMap((q) => q.jobs);
		for (const [key, kind] of Object.entries(JOBS))
			expect(
				listed.filter((j) => j === kind),
				key,
			).toHaveLength(1);
		expect(listed).toHaveLength(Object.keys(JOBS).length);
	});

	it("parses the payloads the producers build, and refuses one that names no document", () => {
		const id = "0b8f7a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";
		expect(JOBS.indexProduct.payload.parse({ tenantId: id, productId: id, version: "v1" })).toEqual({
			tenantId: id,
			productId: id,
			version: "v1",
		});
		expect(JOBS.sendDigest.payload.parse({ tenantId: id, slot: "2026-01-31T07:00:00.000Z" })).toEqual({
			tenantId: id,
			slot: "2026-01-31T07:00:00.000Z",
		});
		expect(JOBS.matchNotice.payload.safeParse({ version: "v1" }).success).toBe(false);
		expect(JOBS.learnFeedback.payload.safeParse({ tenantId: id, feedbackId: "not-a-uuid" }).success).toBe(false);
	});
});

describe("internal actions", () => {
	it("the service names of the contract are the services of the registry", () => {
		expect([...SERVICE_NAMES].sort()).toEqual(Object.keys(SERVICE_SCHEMAS).sort());
	});

	it("every action a service registers is routed or declared in shared/contract/internal", () => {
		const undeclared = [...registered.keys()].filter((a) => !routed.has(a) && a !== HTTP_ENTRY && !(a in INTERNAL_ACTIONS));
		expect(undeclared).toEqual([]);
	});

	it("every declared action is registered by its service, not routed, and validates with the declared params schema", () => {
		for (const [name, decl] of Object.entries(INTERNAL_ACTIONS)) {
			const def = registered.get(name);
			expect(def, `${name} is not registered by any service`).toBeDefined();
			expect(routed.has(name), `${name} is routed`).toBe(false);
			expect(def!.input?.(), `${name} validates with another schema`).toBe(decl.params);
			expect(def!.visibility, name).toBe("public");
		}
	});

	it("declared params refuse what the actions refused before (unknown fields, malformed ids)", () => {
		const id = "0b8f7a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b";
		expect(INTERNAL_ACTIONS["catalog.markIndexed"].params.safeParse({ productId: id, version: "v1", extra: 1 }).success).toBe(false);
		expect(INTERNAL_ACTIONS["opportunities.noticeForMatching"].params.safeParse({ id: "x" }).success).toBe(false);
		expect(INTERNAL_ACTIONS["auth-keys.tenantIds"].params.parse({})).toEqual({ after: "", limit: 1000 });
		expect(INTERNAL_ACTIONS["auth-keys.createTenant"].params.parse({ name: "Acme", ownerEmail: "  Owner@Acme.Example " })).toEqual({
			name: "Acme",
			ownerEmail: "owner@acme.example",
		});
	});
});
