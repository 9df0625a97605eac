import { readFileSync } from "node:fs";
import { join } from "node:path";
import { categoryCode, unspscBased } from "../../../../shared/taxonomy/categories.ts";
import type { NoticeView, ProductView } from "../types.ts";

// Reads the labeled dev set (catalogs, OCDS notices, graded relevance) into the method's views.
// Only for offline evaluation: the service receives the same views from the catalog and
// ingestion services. OCDS follow-ups are applied in date order: the latest release of an ocid
// carries its current title, description and items; a tenderCancellation cancels the notice.

export interface DevTenant {
	tenantId: string;
	products: ProductView[];
	profile: { certifications: string[]; setAsides: string[]; naicsCodes: string[] };
}

export interface DevNotice {
	view: NoticeView;
	cancelled: boolean;
	releases: number;
}

export interface DevQrel {
	tenantId: string;
	noticeId: string;
	grade: number;
	cancelled: boolean;
}

export interface DevSet {
	tenants: DevTenant[];
	notices: DevNotice[];
	qrels: DevQrel[];
}

interface CatalogJson {
	tenant: string;
	profile?: { certifications?: string[]; set_asides?: string[]; naics_codes?: string[] };
	partners: { name: string }[];
	products: {
		partner: string;
		name: string;
		model?: string | null;
		description?: string | null;
		commodity_codes?: string[];
		specs?: Record<string, unknown>;
		rep_status?: string;
		status?: string;
	}[];
}

interface OcdsClassification {
	scheme?: string;
	id?: string | number;
	description?: string;
}

/** As the service's feeds read a classification: a scheme it knows, or a national catalogue built on UNSPSC. */
const readCategory = (c: OcdsClassification | undefined) =>
	c ? (categoryCode(c.scheme, c.id) ?? unspscBased(c.scheme, c.id, c.description)) : null;

interface OcdsRelease {
	ocid: string;
	language?: string;
	date: string;
	tag?: string[];
	buyer?: { name?: string };
	tender?: {
		title?: string;
		description?: string;
		status?: string;
		eligibilityCriteria?: string;
		mainProcurementCategory?: string;
		classification?: OcdsClassification;
		items?: {
			description?: string;
			quantity?: number;
			unit?: { name?: string };
			classification?: OcdsClassification;
			additionalClassifications?: OcdsClassification[];
		}[];
	};
}

function specsOf(specs: Record<string, unknown> | undefined): { key: string; value: string }[] {
	if (!specs) return [];
	return Object.entries(specs)
		.filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
		.slice(0, 20)
		.map(([key, v]) => ({ key, value: String(v) }));
}

export function loadCatalogs(dir: string): DevTenant[] {
	const raw = JSON.parse(readFileSync(join(dir, "catalogs.json"), "utf8")) as CatalogJson[];
	return raw.map((t) => ({
		tenantId: t.tenant,
		profile: {
			certifications: t.profile?.certifications ?? [],
			setAsides: t.profile?.set_asides ?? [],
			naicsCodes: t.profile?.naics_codes ?? [],
		},
		products: t.products.map(
			(p, i): ProductView => ({
				tenantId: t.tenant,
				productId: `${t.tenant}#${String(i).padStart(3, "0")}`,
				partnerId: p.partner,
				oemName: p.partner,
				// The dev set's catalogs list only current partners: every one is authorized.
				partnerAuthorized: true,
				name: p.name,
				model: p.model ?? null,
				description: p.description ?? null,
				commodityCodes: p.commodity_codes ?? [],
				specs: specsOf(p.specs),
				repStatus: p.rep_status === "catalog" ? "catalog" : "carried",
				status: p.status === "discontinued" ? "discontinued" : "active",
			}),
		),
	}));
}

export function loadNotices(dir: string): DevNotice[] {
	const pkg = JSON.parse(readFileSync(join(dir, "notices.ocds.json"), "utf8")) as { releases: OcdsRelease[] };
	const byOcid = new Map<string, OcdsRelease[]>();
	for (const r of pkg.releases) byOcid.set(r.ocid, [...(byOcid.get(r.ocid) ?? []), r]);
	const out: DevNotice[] = [];
	for (const [ocid, releases] of [...byOcid.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
		releases.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
		let title = "";
		let description = "";
		let eligibility = "";
		let items: NoticeView["items"] = [];
		let categories: NoticeView["categories"] = [];
		let issuingBody = "";
		let language: string | null = null;
		let nature: NoticeView["procurementNature"];
		let cancelled = false;
		let planning = false;
		for (const r of releases) {
			planning = (r.tag ?? []).length > 0 && (r.tag ?? []).every((t) => t.startsWith("planning"));
			const t = r.tender;
			if (r.tag?.includes("tenderCancellation") || t?.status === "cancelled") cancelled = true;
			if (!t) continue;
			if (t.title) title = t.title;
			if (t.description) description = t.description;
			if (t.eligibilityCriteria) eligibility = t.eligibilityCriteria;
			// What the service's signals extractor reads first: the feed's own category.
			const category = { goods: "goods", services: "services", works: "construction" }[t.mainProcurementCategory ?? ""];
			if (category) nature = category as NoticeView["procurementNature"];
			if (r.buyer?.name) issuingBody = r.buyer.name;
			if (r.language) language = r.language;
			if (t.items) {
				items = t.items.map((it) => ({
					description: it.description ?? "",
					quantity: it.quantity ?? null,
					unit: it.unit?.name ?? null,
					classification: readCategory(it.classification),
				}));
			}
			if (t.items || t.classification) {
				const seen = new Set<string>();
				categories = [];
				// As the service's OCDS feed reads them: the tender's own classification first, then the items'.
				for (const c of [
					t.classification,
					...(t.items ?? []).flatMap((it) => [it.classification, ...(it.additionalClassifications ?? [])]),
				]) {
					const read = readCategory(c);
					if (!read) continue;
					const key = `${read.scheme}:${read.code}`;
					if (seen.has(key)) continue;
					seen.add(key);
					categories.push(read);
				}
			}
		}
		out.push({
			view: {
				noticeId: ocid,
				title,
				description: eligibility ? `${description}\n\nEligibility: ${eligibility}` : description,
				items,
				categories,
				issuingBody,
				language,
				...(nature ? { procurementNature: nature } : {}),
				// As the OCDS feed reads the stage: the latest release speaks of planning only.
				planningOnly: planning,
			},
			cancelled,
			releases: releases.length,
		});
	}
	return out;
}

export function loadQrels(dir: string): DevQrel[] {
	const raw = JSON.parse(readFileSync(join(dir, "qrels.json"), "utf8")) as {
		tenant: string;
		ocid: string;
		grade: number;
		cancelled?: boolean;
	}[];
	return raw.map((r) => ({ tenantId: r.tenant, noticeId: r.ocid, grade: r.grade, cancelled: r.cancelled === true }));
}

export function loadDevSet(dir: string): DevSet {
	return { tenants: loadCatalogs(dir), notices: loadNotices(dir), qrels: loadQrels(dir) };
}
