import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/processes.ts";
import { addPartner, addProduct, catalogCompany, indexQueue, type CatalogCompany } from "../support/catalog.ts";
import { api, dropTestDatabases, startStack, type Stack } from "../support/stack.ts";

// A person's single save is not queued behind a bulk import: imports, fanouts and reconciler
// re-sends go to the product-index queue's bulk lane, single saves to the lane served first.

let stack: Stack;
let acme: CatalogCompany;
const queue = indexQueue();

beforeAll(async () => {
	stack = await startStack();
	acme = await catalogCompany(stack, "Lanes Co");
});
afterAll(async () => {
	await queue.close();
	await stack?.stop();
	await dropTestDatabases();
});

const IMPORT_ROWS = 1_000;

describe("product indexing lanes", () => {
	it("indexes a single save while an import's backlog is still waiting", async () => {
		const partner = await addPartner(stack, acme, "Harwell");
		const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => ({
			partner: "Harwell",
			name: `Harwell thermal camera ${i}`,
			model: `HW-${1000 + i}`,
			commodity_codes: ["46171610"],
		}));
		const imported = await api(stack, "POST", "/products/import", { key: acme.key, body: rows });
		expect(imported.status, JSON.stringify(imported.body)).toBe(200);
		const single = await addProduct(stack, acme, partner.id, { name: "Harwell ptz camera", model: "HW-PTZ-9" });

		const indexed = await waitFor(
			"the single save to be indexed",
			async () => ((await queue.completedFor(single.id)) ? true : undefined),
			30_000,
		);
		const left = await queue.backlog();
		console.log(`indexing lanes: single save indexed with ${left} of the import's ${IMPORT_ROWS} jobs still waiting`);
		expect(indexed).toBe(true);
		// Not behind the import: most of it is still waiting (the store drains ~150 a second now).
		expect(left).toBeGreaterThan(IMPORT_ROWS * 0.4);
	});
});
