import type { Connection } from "mongoose";
import type { ActionSchema, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { internalAction, operationAction, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import type {
	CreatePartnerBody,
	CreateProductBody,
	ProductListQuery,
	UpdatePartnerBody,
	UpdateProductBody,
	UpdateProfileBody,
} from "../../shared/contract/catalog.ts";
import * as ops from "../../shared/contract/catalog-operations.ts";
import { RawImportParams } from "../../shared/contract/internal/catalog-actions.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import type { Periodic } from "../../shared/periodic.ts";
import { importLines, importRows, summarize } from "./import.ts";
import { indexView, indexViews, pendingIndexViews } from "./index-view.ts";
import { productOutbox, reconcile, startReconciler, type Catalog } from "./indexing.ts";
import { catalogModels } from "./models.ts";
import { createPartner, listPartners, updatePartner } from "./partners.ts";
import { createProduct, getProduct, listProducts, updateProduct } from "./products.ts";
import { getProfile, updateProfile } from "./profile.ts";

// Catalog: manufacturer partners, products, bulk import and the company profile, and the
// durable indexing requests matching consumes.

interface State extends Record<string, any>, Catalog {
	conn: Connection;
	reconciler?: Periodic;
}

type Id = { id: string };

export const CatalogService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "catalog",

	actions: {
		// --- The contract's operations
		listPartners: operationAction(ops.listPartners, async function (this: State, ctx: OpContext) {
			return { partners: await listPartners(this.m, requireAuth(ctx).tenantId) };
		}),
		createPartner: operationAction(ops.createPartner, function (this: State, ctx: OpContext<{ body: CreatePartnerBody }>) {
			return createPartner(this, requireAuth(ctx).tenantId, ctx.params.body);
		}),
		updatePartner: operationAction(ops.updatePartner, function (this: State, ctx: OpContext<Id & { body: UpdatePartnerBody }>) {
			return updatePartner(this, requireAuth(ctx).tenantId, ctx.params.id, ctx.params.body);
		}),
		importProducts: Object.assign(
			operationAction(ops.importProducts, async function (this: State, ctx: OpContext<{ body: unknown }>) {
				const tenantId = requireAuth(ctx).tenantId;
				return summarize(await importRows(this, tenantId, importLines(ctx.params.body)));
			}),
			// The body is classified by the action, not the validator: CSV text, a JSON array of rows,
			// or a body that is neither, which is invalid_import rather than validation_failed.
			{ input: () => RawImportParams },
		),
		listProducts: operationAction(ops.listProducts, function (this: State, ctx: OpContext<ProductListQuery>) {
			return listProducts(this.m, requireAuth(ctx).tenantId, ctx.params);
		}),
		getProduct: operationAction(ops.getProduct, function (this: State, ctx: OpContext<Id>) {
			return getProduct(this.m, requireAuth(ctx).tenantId, ctx.params.id);
		}),
		createProduct: operationAction(ops.createProduct, function (this: State, ctx: OpContext<{ body: CreateProductBody }>) {
			return createProduct(this, requireAuth(ctx).tenantId, ctx.params.body);
		}),
		updateProduct: operationAction(ops.updateProduct, function (this: State, ctx: OpContext<Id & { body: UpdateProductBody }>) {
			return updateProduct(this, requireAuth(ctx).tenantId, ctx.params.id, ctx.params.body);
		}),
		getProfile: operationAction(ops.getProfile, function (this: State, ctx: OpContext) {
			return getProfile(this.m, requireAuth(ctx).tenantId);
		}),
		updateProfile: operationAction(ops.updateProfile, function (this: State, ctx: OpContext<{ body: UpdateProfileBody }>) {
			return updateProfile(this.m, requireAuth(ctx).tenantId, ctx.params.body);
		}),

		// --- Internal: the CLI's import, in chunks (never routed)
		parseImport: internalAction("catalog.parseImport", function (this: State, ctx) {
			return { rows: importLines(ctx.params.body) };
		}),
		importRows: internalAction("catalog.importRows", async function (this: State, ctx) {
			return summarize(await importRows(this, ctx.params.tenantId, ctx.params.rows));
		}),

		// --- Internal: for the indexing consumer (matching) and operations
		profileFor: internalAction("catalog.profileFor", function (this: State, ctx) {
			return getProfile(this.m, ctx.params.tenantId);
		}),
		indexView: internalAction("catalog.indexView", function (this: State, ctx) {
			return indexView(this.m, ctx.params.productId, ctx.params.tenantId);
		}),
		indexViews: internalAction("catalog.indexViews", async function (this: State, ctx) {
			return { items: await indexViews(this.m, ctx.params.productIds, ctx.params.tenantId) };
		}),
		pendingIndexViews: internalAction("catalog.pendingIndexViews", async function (this: State, ctx) {
			return { items: await pendingIndexViews(this.m, ctx.params.tenantId, ctx.params.limit) };
		}),
		markIndexed: internalAction("catalog.markIndexed", async function (this: State, ctx) {
			return { done: await this.outbox.markDone(ctx.params.productId, ctx.params.version) };
		}),
		markManyIndexed: internalAction(
			"catalog.markManyIndexed",
			async function (this: State, ctx) {
				return { done: await this.outbox.markManyDone(ctx.params.items.map((i) => ({ id: i.productId, version: i.version }))) };
			},
			// Background work closing a whole batch: under a bulk import it can outlast the default
			// 10 s, and a timeout would make the matching worker redo the batch.
			// (moleculer 0.15 reads `timeout` from the action definition; its typings omit it.)
			{ timeout: 60_000 } as unknown as Partial<ActionSchema>,
		),
		reconcileIndexing: internalAction("catalog.reconcileIndexing", function (this: State, ctx) {
			return reconcile(this, ctx.params.graceMs);
		}),
	},

	async started(this: State) {
		this.conn = await connectServiceDb("catalog");
		this.m = catalogModels(this.conn);
		await syncIndexes(this.conn);
		this.outbox = productOutbox(this.m);
		if (config().WORKERS === "off") return;
		this.reconciler = startReconciler(this, (e) => this.logger.warn({ err: e }, "catalog indexing reconcile failed"));
	},

	async stopped(this: State) {
		await this.reconciler?.stop();
		await this.conn?.close();
	},
};

export default CatalogService;
