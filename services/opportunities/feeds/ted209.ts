// TED's legacy XML export (schema R2.0.9, TED_EXPORT documents, 2014 to 2023): TED now publishes
// eForms only, but its archives and many republished notices are in this form, so a file of them
// reads like any other feed instead of being refused.
//
// One notice per document, read from the form in its original language (CATEGORY="ORIGINAL"; the
// other forms are translations). Identity: R2.0.9 has no procedure identifier shared by a
// procedure's notices, so source_id is the notice's DOC_ID ("150049-2018"); rfp_id is the buyer's
// REFERENCE_NUMBER when there is one. Lots (OBJECT_DESCR) become items (title and description, the
// lot's first additional CPV or the main one). The procedure is the PT_* element under PROCEDURE
// (procedure.ts TED_PROCEDURES), else the document type (qualification systems), else the coded
// label (PR_PROC); FRAMEWORK or DPS under PROCEDURE sets one up. Contract nature: TYPE_CONTRACT,
// else the coded NC_CONTRACT_NATURE. Times carry no offset: TED gives them in the buyer's local
// time, taken from the buyer's country (Central European time unless listed below).
import type { NoticeDraft } from "./assemble.ts";
import { asAmount, asCurrency, Collector, durationWords, lotPeriods, placeOrNull, refused } from "./assemble.ts";
import { normalizeCategory, procurementCategory } from "./codes.ts";
import type { DateRules } from "./dates.ts";
import { joinDateAndTime, parseInstant, parseLocal } from "./dates.ts";
import type { AwardCriteria, Category, NoticeItem, NoticeLot, NoticeStatus, ParseResult, Procedure, Submission } from "./notice.ts";
import { LIMITS } from "./notice.ts";
import { kindOfCode, procedureOf, TED_DOCUMENT_TYPES, TED_PROCEDURES } from "./procedure.ts";
import { cleanEmail, cleanLine, cleanText, languageField, safeUrl } from "./text.ts";
import type { XmlElement } from "./xml.ts";
import { all, first, textAt } from "./xml.ts";

/** Is this the root of a TED R2.0.9 export document? */
export function isTed209Root(root: XmlElement): boolean {
	return root.name === "ted:TED_EXPORT";
}

const ZONES: Record<string, string> = {
	UK: "Europe/London",
	GB: "Europe/London",
	IE: "Europe/Dublin",
	PT: "Europe/Lisbon",
	IS: "Atlantic/Reykjavik",
	FI: "Europe/Helsinki",
	EE: "Europe/Tallinn",
	LV: "Europe/Riga",
	LT: "Europe/Vilnius",
	BG: "Europe/Sofia",
	RO: "Europe/Bucharest",
	EL: "Europe/Athens",
	GR: "Europe/Athens",
	CY: "Asia/Nicosia",
};

const AWARD_FORMS = new Set(["F03", "F06", "F13", "F15", "F25"]);

/** The paragraphs (P) of an element, one line each. */
function paragraphs(el: XmlElement | undefined): string | null {
	const ps = all(el, "ted:P")
		.map((p) => p.text)
		.filter((t) => t);
	return ps.length ? ps.join("\n") : (el?.text ?? null) || null;
}

function cpvOf(el: XmlElement | undefined, labels: Map<string, string>): Category | null {
	const code = first(el, "ted:CPV_CODE")?.attrs.CODE;
	return normalizeCategory("CPV", code, code ? labels.get(code) : undefined);
}

function itemOf(lot: XmlElement, main: Category | null, labels: Map<string, string>): NoticeItem {
	const parts = [paragraphs(first(lot, "ted:TITLE")), paragraphs(first(lot, "ted:SHORT_DESCR"))].filter((p) => p !== null);
	return {
		description: cleanLine(parts.join(": "), LIMITS.itemDescription) ?? "",
		quantity: null,
		unit: null,
		classification: cpvOf(first(lot, "ted:CPV_ADDITIONAL"), labels) ?? main,
		lot: lotIdOf(lot),
	};
}

const lotIdOf = (lot: XmlElement) => cleanLine(textAt(lot, "ted:LOT_NO") ?? lot.attrs.ITEM, 100);

/** The lots as declared (OBJECT_DESCR with a LOT_NO): number, title, description and estimated value. */
function lotsOf(lots: XmlElement[]): { lots?: NoticeLot[] } {
	const out = lots.slice(0, LIMITS.lots).flatMap((lot) => {
		const id = cleanLine(textAt(lot, "ted:LOT_NO"), 100);
		const value = first(lot, "ted:VAL_OBJECT");
		const amount = asAmount(value?.text);
		return id
			? [
					{
						id,
						title: cleanLine(paragraphs(first(lot, "ted:TITLE")), LIMITS.line),
						description: cleanText(paragraphs(first(lot, "ted:SHORT_DESCR")), LIMITS.itemDescription),
						value: amount === null ? null : { amount, currency: asCurrency(value?.attrs.CURRENCY) },
					},
				]
			: [];
	});
	return out.length ? { lots: out } : {};
}

const CRITERION_TYPES: Record<string, string> = { AC_QUALITY: "quality", AC_COST: "cost", AC_PRICE: "price" };

/** Each lot's award criteria (AC/AC_QUALITY, AC_COST, AC_PRICE with their AC_WEIGHTING); empty when none is stated. */
function awardCriteriaOfLots(lots: XmlElement[]): { award_criteria?: AwardCriteria } {
	const criteria = lots
		.flatMap((lot) =>
			(first(lot, "ted:AC")?.children ?? []).flatMap((c) => {
				const type = CRITERION_TYPES[c.local];
				if (!type) return [];
				return [
					{
						lot: lotIdOf(lot),
						type,
						name: cleanLine(textAt(c, "ted:AC_CRITERION"), LIMITS.line),
						description: null,
						weight: cleanLine(textAt(c, "ted:AC_WEIGHTING"), 100),
					},
				];
			}),
		)
		.slice(0, LIMITS.awardCriteria);
	return criteria.length ? { award_criteria: { method: null, text: null, criteria } } : {};
}

function procedureOfForm(form: XmlElement, coded: XmlElement | undefined): Procedure | null {
	const procedure = first(form, "ted:PROCEDURE");
	const pt = procedure?.children.find((c) => c.local.startsWith("PT_"))?.local ?? null;
	const docType = first(coded, "ted:CODIF_DATA/ted:TD_DOCUMENT_TYPE");
	const label = textAt(coded, "ted:CODIF_DATA/ted:PR_PROC");
	const framework = first(procedure, "ted:FRAMEWORK") || first(procedure, "ted:DPS") ? "agreement" : null;
	const byType = pt ? null : kindOfCode(TED_DOCUMENT_TYPES, docType?.attrs.CODE);
	if (byType) return procedureOf({ codeKind: byType, code: docType?.attrs.CODE, text: docType?.text, framework });
	// The coded label says "Not applicable" or "Not specified" when there is nothing to say.
	const text = label && !/^not (applicable|specified)$/i.test(label) ? label : null;
	return procedureOf({ codeKind: kindOfCode(TED_PROCEDURES, pt), code: pt, text, framework });
}

function estimateOf(objectContract: XmlElement | undefined): { value: number; currency: string | null } | null {
	const total = first(objectContract, "ted:VAL_ESTIMATED_TOTAL") ?? first(objectContract, "ted:VAL_TOTAL");
	const value = asAmount(total?.text);
	if (value !== null) return { value, currency: asCurrency(total?.attrs.CURRENCY) };
	const parts = all(objectContract, "ted:OBJECT_DESCR/ted:VAL_OBJECT").map((v) => ({
		value: asAmount(v.text),
		currency: asCurrency(v.attrs.CURRENCY),
	}));
	const known = parts.filter((p): p is { value: number; currency: string | null } => p.value !== null);
	if (known.length === 0 || new Set(known.map((p) => p.currency)).size !== 1) return null;
	return { value: known.reduce((sum, p) => sum + p.value, 0), currency: known[0]?.currency ?? null };
}

/** An address element (ADDRESS_CONTRACTING_BODY, ADDRESS_PARTICIPATION) as one line. */
function addressLine(el: XmlElement | undefined): string | null {
	if (!el) return null;
	const town = [textAt(el, "ted:POSTAL_CODE"), textAt(el, "ted:TOWN")].filter((p) => p).join(" ");
	const parts = [
		textAt(el, "ted:OFFICIALNAME"),
		textAt(el, "ted:ADDRESS"),
		town,
		first(el, "ted:COUNTRY")?.attrs.VALUE,
		textAt(el, "ted:E_MAIL"),
	];
	return cleanLine(parts.filter((p) => p).join(", "), LIMITS.line);
}

/**
 * How to submit (section I.3 of the form): URL_PARTICIPATION is electronic submission there;
 * ADDRESS_PARTICIPATION (or ADDRESS_PARTICIPATION_IDEM: the contracting body's own address) is
 * written submission to that address. Undefined when the form names neither.
 */
function submissionOf(contractingBody: XmlElement | undefined): Submission | undefined {
	const url = safeUrl(textAt(contractingBody, "ted:URL_PARTICIPATION"));
	const address = first(contractingBody, "ted:ADDRESS_PARTICIPATION_IDEM")
		? addressLine(first(contractingBody, "ted:ADDRESS_CONTRACTING_BODY"))
		: addressLine(first(contractingBody, "ted:ADDRESS_PARTICIPATION"));
	const methods = [...(url ? ["electronicSubmission"] : []), ...(address ? ["written"] : [])];
	return methods.length ? { methods, url, text: address } : undefined;
}

function draftOf(root: XmlElement): NoticeDraft | string {
	const docId = cleanLine(root.attrs.DOC_ID, LIMITS.id);
	if (!docId) return "DOC_ID missing";
	const forms = all(root, "ted:FORM_SECTION").flatMap((s) => s.children);
	const form = forms.find((f) => f.attrs.CATEGORY === "ORIGINAL") ?? forms[0];
	if (!form) return "FORM_SECTION has no form";
	const coded = first(root, "ted:CODED_DATA_SECTION");
	const objectContract = first(form, "ted:OBJECT_CONTRACT");
	const title = cleanLine(paragraphs(first(objectContract, "ted:TITLE")), LIMITS.title);
	if (!title) return "OBJECT_CONTRACT/TITLE missing";
	const body = first(form, "ted:CONTRACTING_BODY/ted:ADDRESS_CONTRACTING_BODY");
	const country = body ? (first(body, "ted:COUNTRY")?.attrs.VALUE ?? null) : null;
	const labels = new Map(all(coded, "ted:NOTICE_DATA/ted:ORIGINAL_CPV").map((c) => [c.attrs.CODE ?? "", c.text] as const));
	const main = cpvOf(first(objectContract, "ted:CPV_MAIN"), labels);
	const lots = all(objectContract, "ted:OBJECT_DESCR");
	const datePub = textAt(coded, "ted:REF_OJS/ted:DATE_PUB")?.replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3");
	const published = parseInstant(datePub, { naiveZone: "UTC", dateOnly: "start" });
	const procedure = first(form, "ted:PROCEDURE");
	const deadlineRules: DateRules = { naiveZone: ZONES[country ?? ""] ?? "Europe/Brussels", dateOnly: "end" };
	const deadlineText = joinDateAndTime(textAt(procedure, "ted:DATE_RECEIPT_TENDERS"), textAt(procedure, "ted:TIME_RECEIPT_TENDERS"));
	const deadline = parseInstant(deadlineText, deadlineRules);
	const estimate = estimateOf(objectContract);
	const reference = cleanLine(textAt(objectContract, "ted:REFERENCE_NUMBER"), LIMITS.id);
	const formCode = cleanLine(form.attrs.FORM ?? form.local.replace(/_\d{4}$/, ""), 100);
	const sheltered = first(form, "ted:LEFTI/ted:RESTRICTED_SHELTERED_WORKSHOP") || first(form, "ted:LEFTI/ted:RESTRICTED_SHELTERED_PROGRAM");
	const site = lots.map((l) => paragraphs(first(l, "ted:MAIN_SITE"))).find((t) => t !== null) ?? null;
	const nuts = lots.map((l) => first(l, "nuts:NUTS")?.attrs.CODE).find((c) => c) ?? null;
	const language = textAt(coded, "ted:NOTICE_DATA/ted:LG_ORIG");
	const uris = all(coded, "ted:NOTICE_DATA/ted:URI_LIST/ted:URI_DOC");
	const status: NoticeStatus = formCode && AWARD_FORMS.has(formCode) ? "awarded" : "open";
	const submission = submissionOf(first(form, "ted:CONTRACTING_BODY"));

	return {
		source: "ted",
		source_id: docId,
		rfp_id: reference ?? docId,
		reference_number: reference,
		title,
		issuing_body: cleanLine(textAt(body, "ted:OFFICIALNAME"), LIMITS.title) ?? "",
		description: cleanText(paragraphs(first(objectContract, "ted:SHORT_DESCR")), LIMITS.description) ?? "",
		...languageField(language),
		description_url: null,
		notice_type: formCode,
		procurement_category: procurementCategory(
			first(objectContract, "ted:TYPE_CONTRACT")?.attrs.CTYPE?.toLowerCase() ?? textAt(coded, "ted:CODIF_DATA/ted:NC_CONTRACT_NATURE"),
		),
		procedure: procedureOfForm(form, coded),
		items: lots.map((l) => itemOf(l, main, labels)),
		...lotsOf(lots),
		...awardCriteriaOfLots(lots),
		// Each lot's DURATION (TYPE DAY, MONTH or YEAR), DATE_START and DATE_END.
		...lotPeriods(
			lots.map((l) => ({
				id: lotIdOf(l),
				duration: durationWords(textAt(l, "ted:DURATION"), first(l, "ted:DURATION")?.attrs.TYPE),
				start: parseInstant(textAt(l, "ted:DATE_START"), { naiveZone: "UTC", dateOnly: "start" }),
				end: parseInstant(textAt(l, "ted:DATE_END"), { naiveZone: "UTC", dateOnly: "end" }),
			})),
		),
		categories: [main, ...all(objectContract, "ted:OBJECT_DESCR/ted:CPV_ADDITIONAL").map((c) => cpvOf(c, labels))],
		deadline,
		deadline_local: parseLocal(deadlineText, deadlineRules),
		published_at: published,
		...(submission ? { submission } : {}),
		estimated_value: estimate?.value ?? null,
		currency: estimate?.currency ?? null,
		set_aside: sheltered
			? { code: null, text: "Reserved for sheltered workshops and economic operators aiming at the integration of disabled persons" }
			: null,
		eligibility: cleanText(paragraphs(first(form, "ted:LEFTI/ted:SUITABILITY")), LIMITS.eligibility),
		place_of_performance: placeOrNull({
			country: cleanLine(country, 100),
			region: cleanLine(nuts, 100),
			city: null,
			postal_code: null,
			text: cleanLine(site, 1_000),
		}),
		contacts: body
			? [
					{
						name: cleanLine(textAt(body, "ted:CONTACT_POINT"), 200),
						email: cleanEmail(textAt(body, "ted:E_MAIL")),
						phone: cleanLine(textAt(body, "ted:PHONE"), 60),
					},
				]
			: [],
		documents: ["ted:CONTRACTING_BODY/ted:URL_DOCUMENT", "ted:CONTRACTING_BODY/ted:URL_PARTICIPATION"].flatMap((path) => {
			const url = safeUrl(textAt(form, path));
			return url ? [{ title: null, url }] : [];
		}),
		status,
		version: {
			label: docId,
			released_at: published,
			sort_key: `${published ?? "0000-00-00T00:00:00Z"}|${docId}`,
			supersedes: null,
			note: null,
		},
		source_url: safeUrl((uris.find((u) => u.attrs.LG === language) ?? uris[0])?.text),
	};
}

/** One parsed TED R2.0.9 document to its notice (or a rejection). */
export function parseTed209Document(root: XmlElement): ParseResult {
	if (!isTed209Root(root)) return refused(`XML root ${root.local} is not a TED R2.0.9 export`);
	const out = new Collector();
	out.record({ ref: root.attrs.DOC_ID?.slice(0, LIMITS.id) }, () => draftOf(root));
	return out.result();
}
