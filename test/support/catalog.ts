import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { expect } from "vitest";
import { config } from "../../shared/config.ts";
import { QUEUES } from "../../shared/queue.ts";
import { api, apiKey, companyWithSession, type ApiResponse, type Company, type Stack } from "./stack.ts";

// Catalog tests: a company with a key that can read and write its catalog, and short ways to
// add partners and products, page through lists and read the indexing queue.

export interface CatalogCompany extends Company {
	key: string;
}

export async function catalogCompany(stack: Stack, name: string): Promise<CatalogCompany> {
	const company = await companyWithSession(stack, name);
	return { ...company, key: (await apiKey(stack, company, ["profile:read", "profile:write"])).secret };
}

export function expectError(res: ApiResponse, status: number, code: string, issuePath?: string): void {
	expect(res.status, JSON.stringify(res.body)).toBe(status);
	expect(res.body).toMatchObject({ error: code, message: expect.any(String), requestId: expect.any(String) });
	expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
	if (issuePath !== undefined) {
		expect(
			res.body.issues.map((i: { path: string }) => i.path),
			JSON.stringify(res.body),
		).toContain(issuePath);
		expect(res.body.issue_count).toBe(res.body.issues.length);
	}
}

export function expectCreated(res: ApiResponse): any {
	expect(res.status, JSON.stringify(res.body)).toBe(201);
	return res.body;
}

export const addPartner = async (stack: Stack, c: CatalogCompany, name: string, extra: object = {}) =>
	expectCreated(await api(stack, "POST", "/products/partners", { key: c.key, body: { name, ...extra } }));

export const addProduct = async (stack: Stack, c: CatalogCompany, partnerId: string, body: object) =>
	expectCreated(await api(stack, "POST", "/products", { key: c.key, body: { oem_partner_id: partnerId, ...body } }));

export async function getOk(stack: Stack, c: CatalogCompany, path: string): Promise<any> {
	const res = await api(stack, "GET", path, { key: c.key });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body;
}

/** Every product of a listing (from `cursor` on, when given), following nextCursor page by page. */
export async function listAll(stack: Stack, c: CatalogCompany, query = "", from: string | null = null): Promise<any[]> {
	const items: any[] = [];
	let cursor = from;
	do {
		const sep = query ? "&" : "";
		const page = await getOk(stack, c, `/products?${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ""}`);
		items.push(...page.items);
		cursor = page.nextCursor;
	} while (cursor);
	return items;
}

/** The product-index queue of this test process (its own Redis prefix), read as the consumer would. */
export function indexQueue(): {
	jobs(): Promise<Array<{ id: string; name: string; data: any }>>;
	/** Jobs not yet taken by a worker. */
	backlog(): Promise<number>;
	/** Whether a job for this product has completed. */
	completedFor(productId: string): Promise<boolean>;
	close(): Promise<void>;
} {
	const c = config();
	const connection = new Redis(c.REDIS_URL, { maxRetriesPerRequest: null });
	const queue = new Queue(QUEUES.productIndex, { connection, prefix: `${c.REDIS_PREFIX}:bull` });
	return {
		async jobs() {
			const jobs = await queue.getJobs(["waiting", "delayed", "active", "completed", "failed", "prioritized"]);
			return jobs.map((j) => ({ id: j.id!, name: j.name, data: j.data }));
		},
		async backlog() {
			const counts = await queue.getJobCounts("waiting", "prioritized", "delayed");
			return Object.values(counts).reduce((a, b) => a + b, 0);
		},
		async completedFor(productId) {
			return (await queue.getJobs(["completed"])).some((j) => j.data?.productId === productId);
		},
		async close() {
			await queue.close();
			connection.disconnect();
		},
	};
}

export const indexView = (stack: Stack, productId: string) => stack.broker.call<any, object>("catalog.indexView", { productId });
