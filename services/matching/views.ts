import type { ProductIndexView } from "../../shared/contract/internal/catalog-actions.ts";
import type { NoticeForMatching } from "../../shared/contract/internal/opportunities-actions.ts";
import type { Signals } from "../../shared/contract/opportunities.ts";
import type { NoticeView, ProductView } from "./method/types.ts";
import type { SignalsInput } from "./signals/input.ts";

// What other services hand matching, in the shapes the method and the extractor read.

export function productView(v: ProductIndexView): ProductView {
	return {
		tenantId: v.tenantId,
		productId: v.productId,
		partnerId: v.partner.id,
		oemName: v.partner.name,
		partnerAuthorized: v.partner.authorized,
		name: v.name,
		model: v.model,
		description: v.description,
		commodityCodes: v.commodityCodes,
		specs: v.specs,
		repStatus: v.repStatus,
		status: v.status,
	};
}

export function signalsInput(n: NoticeForMatching): SignalsInput {
	return {
		title: n.title,
		description: n.description,
		items: n.items.map((i) => ({ description: i.description, quantity: i.quantity ?? null, unit: i.unit ?? null })),
		issuing_body: n.issuing_body,
		set_aside_text: [n.set_aside?.text, n.eligibility].filter(Boolean).join("\n") || null,
		set_aside_code: n.set_aside?.code ?? null,
		categories: n.categories.map((c) => ({ scheme: c.scheme, code: c.code })),
		procedure: n.procedure ?? null,
		procurement_category: n.procurement_category ?? null,
	};
}

export function noticeView(n: NoticeForMatching, signals: Signals, eligibilityRule: string | null = null): NoticeView {
	return {
		noticeId: n.id,
		title: n.title,
		description: n.description,
		items: n.items.map((i) => ({
			description: i.description,
			quantity: i.quantity ?? null,
			unit: i.unit ?? null,
			classification: i.classification ?? null,
		})),
		categories: n.categories.map((c) => ({ scheme: c.scheme, code: c.code })),
		issuingBody: n.issuing_body,
		procurementNature: signals.procurement_nature,
		openCall: signals.bid_eligibility === "restricted" && eligibilityRule === "procedure_restricted",
		planningOnly: planningStage(n.details.notice_type),
		// What the feed declares; the method still reads the text when it clearly says otherwise.
		language: typeof n.details.language === "string" ? n.details.language : null,
	};
}

/** OCDS's planning stage, and eForms' prior information notices that call for no competition (pin-only, pin-buyer, pin-rtl). */
export function planningStage(noticeType: unknown): boolean {
	return typeof noticeType === "string" && /^(?:planning|pin-(?:only|buyer|rtl|tran))$/i.test(noticeType.trim());
}
