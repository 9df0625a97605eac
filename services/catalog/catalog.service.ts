import type { Connection } from "mongoose";
import type { ActionSchema, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { z } from "zod";
import { operationAction, validatedAction, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import type { CreatePartnerBody, CreateProductBody, ProductListQuery, UpdatePartnerBody, UpdateProductBody, UpdateProfileBody } from "../../shared/contract/catalog.ts";
import * as ops from "../../shared/contract/catalog-operations.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import type { Periodic } from "../../shared/periodic.ts";
import { importLines, ImportLineSchema, importRows, summarize, type ImportLine } from "./import.ts";
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

// The import body is classified by the action, not the validator: CSV text, a JSON array
// of rows, or a body that is neither, which is invalid_import rather than validation_failed.
const ImportInput = z.object({ body: z.unknown() }).strict();
const ProductRef = z.object({ productId: z.uuid(), tenantId: z.uuid().optional() }).strict();

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
			{ input: () => ImportInput },
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
		parseImport: validatedAction(ImportInput, function (this: State, ctx: OpContext<{ body: unknown }>) {
			return { rows: importLines(ctx.params.body) };
		}),
		importRows: validatedAction(
			z.object({ tenantId: z.uuid(), rows: z.array(ImportLineSchema).min(1).max(500) }).strict(),
			async function (this: State, ctx: OpContext<{ tenantId: string; rows: ImportLine[] }>) {
				return summarize(await importRows(this, ctx.params.tenantId, ctx.params.rows));
			},
		),

		// --- Internal: for the indexing consumer (matching) and operations
		profileFor: validatedAction(z.object({ tenantId: z.uuid() }).strict(), function (this: State, ctx: OpContext<{ tenantId: string }>) {
			return getProfile(this.m, ctx.params.tenantId);
		}),
		indexView: validatedAction(ProductRef, function (this: State, ctx: OpContext<z.infer<typeof ProductRef>>) {
			return indexView(this.m, ctx.params.productId, ctx.params.tenantId);
		}),
		indexViews: validatedAction(
			z.object({ productIds: z.array(z.uuid()).min(1).max(500), tenantId: z.uuid().optional() }).strict(),
			async function (this: State, ctx: OpContext<{ productIds: string[]; tenantId?: string }>) {
				return { items: await indexViews(this.m, ctx.params.productIds, ctx.params.tenantId) };
			},
		),
		pendingIndexViews: validatedAction(
			z.object({ tenantId: z.uuid(), limit: z.number().int().min(1).max(500).default(100) }).strict(),
			async function (this: State, ctx: OpContext<{ tenantId: string; limit: number }>) {
				return { items: await pendingIndexViews(this.m, ctx.params.tenantId, ctx.params.limit) };
			},
		),
		markIndexed: validatedAction(
			z.object({ productId: z.uuid(), version: z.string().min(1).max(64) }).strict(),
			async function (this: State, ctx: OpContext<{ productId: string; version: string }>) {
				return { done: await this.outbox.markDone(ctx.params.productId, ctx.params.version) };
			},
		),
		markManyIndexed: validatedAction(
			z.object({ items: z.array(z.object({ productId: z.uuid(), version: z.string().min(1).max(64) }).strict()).min(1).max(500) }).strict(),
			async function (this: State, ctx: OpContext<{ items: Array<{ productId: string; version: string }> }>) {
				return { done: await this.outbox.markManyDone(ctx.params.items.map((i) => ({ id: i.productId, version: i.version }))) };
			},
			// Background work closing a whole batch: under a bulk import it can outlast the default
			// 10 s, and a timeout would make the matching worker redo the batch.
			// (moleculer 0.15 reads `timeout` from the action definition; its typings omit it.)
			{ timeout: 60_000 } as unknown as Partial<ActionSchema>,
		),
		reconcileIndexing: validatedAction(z.object({ graceMs: z.number().int().min(0).default(10_000) }).strict(), function (this: State, ctx: OpContext<{ graceMs: number }>) {
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
