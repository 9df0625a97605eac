import { config } from "../../shared/config.ts";
import { Outbox, requestWork } from "../../shared/outbox.ts";
import { every, type Periodic } from "../../shared/periodic.ts";
import { BULK_PRIORITY } from "../../shared/queue.ts";
import { JOBS, type IndexProductJob } from "../../shared/contract/internal/queue-jobs.ts";
import type { CatalogModels, PartnerDoc, ProductDoc } from "./models.ts";

// "Saving durably requests indexing" (DESIGN.md, Durability). Every product write that matters
// to matching carries a fresh `index` request in the same single-document write; the job that
// follows names the product and that version. A partner whose authorization flips changes
// what indexing must see for all its products: its own write records a `fanout` request,
// which gives each product a fresh request and is then cleared. The reconciler re-sends and
// finishes whatever a crash or a Redis outage left behind.

export type ProductOutbox = Outbox<ProductDoc, typeof IndexProductJob>;

/** What the catalog's modules work with. */
export interface Catalog {
	m: CatalogModels;
	outbox: ProductOutbox;
}

export function productOutbox(m: CatalogModels): ProductOutbox {
	return new Outbox({ model: m.products, job: JOBS.indexProduct, data: (p: ProductDoc) => ({ tenantId: p.tenant_id, productId: p._id }) });
}

/** How old a request must be before the reconciler (every OUTBOX_RECONCILE_MS) sends it again. */
export const RECONCILE_GRACE_MS = 10_000;

const SEND_CONCURRENCY = 50;

/**
 * Sends many requests (an import, a partner fanout) a few at a time, in the bulk lane, stopping
 * at the first refusal: with Redis away the rest would only wait for timeouts.
 */
export async function sendAll(outbox: ProductOutbox, docs: Array<Pick<ProductDoc, "_id" | "tenant_id" | "index">>): Promise<number> {
	let sent = 0;
	for (let i = 0; i < docs.length; i += SEND_CONCURRENCY) {
		const ok = await Promise.all(docs.slice(i, i + SEND_CONCURRENCY).map((d) => outbox.send(d as ProductDoc, { priority: BULK_PRIORITY })));
		sent += ok.filter(Boolean).length;
		if (ok.includes(false)) break;
	}
	return sent;
}

/**
 * Gives every product of the partner a fresh indexing request and sends them, then clears the
 * partner's fanout request (unless a newer flip replaced it). Products that already hold a
 * newer request keep it: it was made after the partner changed, so it sees the change too.
 */
export async function fanOut(cat: Catalog, partner: Pick<PartnerDoc, "_id" | "tenant_id" | "fanout">): Promise<void> {
	const token = partner.fanout?.requested;
	if (!token || !partner.fanout?.pending) return;
	const set = requestWork();
	const version = set["index.requested"] as string;
	const mine = { tenant_id: partner.tenant_id, oem_partner_id: partner._id };
	await cat.m.products.updateMany({ ...mine, "index.requested": { $lt: version } }, { $set: set });
	const docs = await cat.m.products.find({ ...mine, "index.requested": version }, { tenant_id: 1, index: 1 }).lean();
	await sendAll(cat.outbox, docs);
	await cat.m.partners.updateOne(
		{ _id: partner._id, "fanout.requested": token },
		{ $set: { "fanout.pending": false, "fanout.done": token } },
	);
}

/** Finishes interrupted partner fanouts, then re-sends product requests still pending after `graceMs`. */
export async function reconcile(cat: Catalog, graceMs = RECONCILE_GRACE_MS): Promise<{ fanouts: number; sent: number }> {
	const stale = new Date(Date.now() - graceMs);
	const partners = await cat.m.partners
		.find({ "fanout.pending": true, "fanout.requested_at": { $lt: stale } })
		.limit(100)
		.lean();
	for (const p of partners) await fanOut(cat, p);
	return { fanouts: partners.length, sent: await cat.outbox.reconcile(graceMs) };
}

export function startReconciler(cat: Catalog, onError: (e: unknown) => void): Periodic {
	return every(config().OUTBOX_RECONCILE_MS, () => reconcile(cat), onError);
}
