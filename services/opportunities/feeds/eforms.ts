import type { NoticeDraft } from "./assemble.ts";
import { asAmount, asCurrency, Collector, durationWords, lotPeriods, placeOrNull, refused } from "./assemble.ts";
import { normalizeCategory, procurementCategory } from "./codes.ts";
import type { DateRules } from "./dates.ts";
import { joinDateAndTime, parseInstant, parseLocal } from "./dates.ts";
import type {
	AwardCriteria,
	Category,
	Contact,
	NoticeDocument,
	NoticeItem,
	NoticeLot,
	NoticeStatus,
	ParseResult,
	Place,
	Procedure,
	Submission,
} from "./notice.ts";
import { LIMITS } from "./notice.ts";
import { EFORMS_FRAMEWORK_CODES, EFORMS_NOTICE_TYPES, EFORMS_PROCEDURES, kindOfCode, procedureOf } from "./procedure.ts";
import { cleanEmail, cleanLine, cleanText, languageField, safeUrl, truncate } from "./text.ts";
import type { XmlElement } from "./xml.ts";
import { all, first, parseXml, textAt } from "./xml.ts";

// TED eForms (UBL) notices: ContractNotice, PriorInformationNotice, ContractAwardNotice, and
// change notices (the same roots carrying efac:Changes).
//
// Identity and versions: the procedure is cbc:ContractFolderID (source_id); every notice about it
// has its own notice id (cbc:ID schemeName="notice-id") and cbc:VersionID. A change notice gets a
// new notice id and starts again at VersionID 01 (the samples show exactly that), so VersionID
// alone cannot order a procedure's notices: they order by issue date-time, then VersionID, then
// notice id. The version label is "<notice id>-<VersionID>", the form efbc:ChangedNoticeIdentifier
// uses to name the notice a change replaces (kept as version.supersedes).
//
// Lots are flattened into items (one per lot: its name and description, main CPV, quantity and
// unit); every CPV of the procedure and its lots is a category. The procedure (procedure.ts) comes
// from the procedure code, the notice type and the lots' framework codes; the contract nature from
// the procedure's ProcurementTypeCode, else its lots'. The deadline is the earliest lot's submission deadline: the first
// moment a bidder can miss.

const RULES: DateRules = { naiveZone: "UTC", dateOnly: "start" };
const DEADLINE_RULES: DateRules = { naiveZone: "UTC", dateOnly: "end" };

const ROOTS = new Set(["ContractNotice", "PriorInformationNotice", "ContractAwardNotice"]);

/** Is this the root of an eForms notice (the root name in its own UBL namespace)? */
export function isEformsRoot(root: XmlElement): boolean {
	return ROOTS.has(root.local) && root.namespace === `urn:oasis:names:specification:ubl:schema:xsd:${root.local}-2`;
}

/** Text in English when the element comes in several languages, else the first. */
function preferEnglish(list: XmlElement[]): string | null {
	const english = list.find((e) => e.attrs.languageID === "ENG" && e.text);
	return english?.text ?? list.find((e) => e.text)?.text ?? null;
}

function textIn(el: XmlElement | undefined, path: string): string | null {
	return preferEnglish(all(el, path));
}

interface Organization {
	name: string | null;
	contact: Contact;
	place: Place;
}

function organizations(extension: XmlElement | undefined): Map<string, Organization> {
	const map = new Map<string, Organization>();
	for (const company of all(extension, "efac:Organizations/efac:Organization/efac:Company")) {
		const id = textAt(company, "cac:PartyIdentification/cbc:ID");
		if (!id) continue;
		const address = first(company, "cac:PostalAddress");
		map.set(id, {
			name: cleanLine(textIn(company, "cac:PartyName/cbc:Name"), LIMITS.title),
			contact: {
				name: cleanLine(textAt(company, "cac:Contact/cbc:Name"), 200),
				email: cleanEmail(textAt(company, "cac:Contact/cbc:ElectronicMail")),
				phone: cleanLine(textAt(company, "cac:Contact/cbc:Telephone"), 60),
			},
			place: placeOf(address, null),
		});
	}
	return map;
}

function placeOf(address: XmlElement | undefined, description: string | null): Place {
	return {
		country: cleanLine(textAt(address, "cac:Country/cbc:IdentificationCode"), 100),
		region: cleanLine(textAt(address, "cbc:CountrySubentityCode"), 100),
		city: cleanLine(textAt(address, "cbc:CityName"), 100),
		postal_code: cleanLine(textAt(address, "cbc:PostalZone"), 30),
		text: cleanLine(description, 1_000),
	};
}

function cpvs(project: XmlElement | undefined, path: string): (Category | null)[] {
	return all(project, `${path}/cbc:ItemClassificationCode`).map((c) => normalizeCategory(c.attrs.listName ?? "cpv", c.text));
}

/** The lot's submission deadline, in UTC and as the buyer wrote it. */
function deadlineOf(lot: XmlElement): { utc: string; local: string | null } | null {
	const period = first(lot, "cac:TenderingProcess/cac:TenderSubmissionDeadlinePeriod");
	const text = joinDateAndTime(textAt(period, "cbc:EndDate"), textAt(period, "cbc:EndTime"));
	const utc = parseInstant(text, DEADLINE_RULES);
	return utc ? { utc, local: parseLocal(text, DEADLINE_RULES) } : null;
}

/** The earliest of the lots' BT-13 additional-information deadlines: until when bidders may ask questions. */
function enquiryDeadlineOf(lots: XmlElement[]): { enquiry_deadline?: string; enquiry_deadline_local?: string } {
	let best: { utc: string; text: string } | null = null;
	for (const lot of lots) {
		const period = first(lot, "cac:TenderingProcess/cac:AdditionalInformationRequestPeriod");
		const text = joinDateAndTime(textAt(period, "cbc:EndDate"), textAt(period, "cbc:EndTime"));
		const utc = parseInstant(text, DEADLINE_RULES);
		if (utc && text && (!best || utc < best.utc)) best = { utc, text };
	}
	if (!best) return {};
	const local = parseLocal(best.text, DEADLINE_RULES);
	return { enquiry_deadline: best.utc, ...(local ? { enquiry_deadline_local: local } : {}) };
}

/** BT-17 esubmission codes in the OCDS submissionMethod vocabulary (non-electronic submission is written: by post or by hand). */
const ESUBMISSION: Record<string, string[]> = {
	required: ["electronicSubmission"],
	allowed: ["electronicSubmission", "written"],
	"not-allowed": ["written"],
};

/** How to submit: the lots' BT-17 esubmission codes and BT-18 submission URL; undefined when neither is given. */
function submissionOf(lots: XmlElement[]): Submission | undefined {
	const codes = lots.flatMap((l) =>
		all(l, "cac:TenderingProcess/cbc:SubmissionMethodCode")
			.filter((c) => !c.attrs.listName || c.attrs.listName === "esubmission")
			.flatMap((c) => ESUBMISSION[c.text] ?? []),
	);
	const url = lots.map((l) => safeUrl(textAt(l, "cac:TenderingTerms/cac:TenderRecipientParty/cbc:EndpointID"))).find((u) => u) ?? null;
	const methods = [...new Set(url && !codes.length ? ["electronicSubmission"] : codes)];
	return methods.length || url ? { methods, url, text: null } : undefined;
}

function documentsOf(terms: XmlElement[]): NoticeDocument[] {
	return terms.flatMap((t) =>
		all(t, "cac:CallForTendersDocumentReference").flatMap((ref) => {
			const url = safeUrl(textAt(ref, "cac:Attachment/cac:ExternalReference/cbc:URI"));
			const title = cleanLine(textIn(ref, "cbc:DocumentDescription") ?? textAt(ref, "cbc:ID"), LIMITS.line);
			return url ? [{ title, url }] : [];
		}),
	);
}

function amountOf(project: XmlElement | undefined): { value: number; currency: string | null } | null {
	const el = first(project, "cac:RequestedTenderTotal/cbc:EstimatedOverallContractAmount");
	const value = asAmount(el?.text);
	return value === null ? null : { value, currency: asCurrency(el?.attrs.currencyID) };
}

/** The procedure's estimate, else the lots' estimates summed when they share one currency. */
function estimateOf(procedure: XmlElement | undefined, lots: XmlElement[]): { value: number; currency: string | null } | null {
	const own = amountOf(procedure);
	if (own) return own;
	const parts = lots.map((l) => amountOf(first(l, "cac:ProcurementProject"))).filter((a) => a !== null);
	const currencies = new Set(parts.map((p) => p.currency));
	if (parts.length === 0 || currencies.size !== 1) return null;
	return { value: parts.reduce((sum, p) => sum + p.value, 0), currency: parts[0]?.currency ?? null };
}

const RESERVED: Record<string, string> = {
	"res-pub-ser": "Reserved for organisations pursuing a public service mission",
	"res-ws": "Reserved for sheltered workshops and economic operators aiming at the integration of disadvantaged persons",
};

function reservedOf(lots: XmlElement[]): string | null {
	const codes = lots.flatMap((l) =>
		all(l, "cac:TenderingTerms/cac:TendererQualificationRequest/cac:SpecificTendererRequirement/cbc:TendererRequirementTypeCode")
			.filter((c) => c.attrs.listName === "reserved-procurement" && c.text !== "none")
			.map((c) => RESERVED[c.text] ?? `Reserved procurement (${c.text})`),
	);
	return codes.length ? [...new Set(codes)].join("; ") : null;
}

/**
 * The procedure: cbc:ProcedureCode (BT-105), else what the notice type says (a qualification
 * system, a voluntary ex-ante transparency notice); a lot's framework-agreement or dps-usage code
 * other than "none" marks a notice that sets up a framework or dynamic purchasing system.
 */
function procedureOfNotice(root: XmlElement, lots: XmlElement[]): Procedure | null {
	const code = textAt(root, "cac:TenderingProcess/cbc:ProcedureCode");
	const noticeType = textAt(root, "cbc:NoticeTypeCode");
	const systems = lots.flatMap((l) => all(l, "cac:TenderingProcess/cac:ContractingSystem/cbc:ContractingSystemTypeCode"));
	const framework = systems.some((c) => EFORMS_FRAMEWORK_CODES.has(c.text)) ? "agreement" : null;
	const fromType = kindOfCode(EFORMS_NOTICE_TYPES, noticeType);
	return procedureOf({
		codeKind: kindOfCode(EFORMS_PROCEDURES, code) ?? fromType,
		code: code ?? (fromType ? noticeType : null),
		text: null,
		framework,
	});
}

/** A lot as an item: its name and description (the name alone often says little), its main CPV, BT-25 quantity and BT-625 unit. */
function itemOfLot(lot: XmlElement): NoticeItem {
	const project = first(lot, "cac:ProcurementProject");
	const name = textIn(project, "cbc:Name");
	const description = textIn(project, "cbc:Description");
	const quantity = first(project, "cbc:EstimatedOverallContractQuantity");
	return {
		description:
			cleanLine(
				name && description && !description.startsWith(name) ? `${name}: ${description}` : (description ?? name),
				LIMITS.itemDescription,
			) ?? "",
		quantity: asAmount(quantity?.text),
		unit: quantity ? cleanLine(quantity.attrs.unitCode, 100) : null,
		classification: cpvs(project, "cac:MainCommodityClassification")[0] ?? null,
		lot: cleanLine(textAt(lot, "cbc:ID"), 100),
	};
}

/** The lots as declared: id (BT-137), name, description and estimated value. */
function lotsOf(lots: XmlElement[]): { lots?: NoticeLot[] } {
	const out = lots.slice(0, LIMITS.lots).flatMap((lot) => {
		const id = cleanLine(textAt(lot, "cbc:ID"), 100);
		const project = first(lot, "cac:ProcurementProject");
		const amount = amountOf(project);
		return id
			? [
					{
						id,
						title: cleanLine(textIn(project, "cbc:Name"), LIMITS.line),
						description: cleanText(textIn(project, "cbc:Description"), LIMITS.itemDescription),
						value: amount ? { amount: amount.value, currency: amount.currency } : null,
					},
				]
			: [];
	});
	return out.length ? { lots: out } : {};
}

const CRITERION_WEIGHT = "ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/efext:EformsExtension/efac:AwardCriterionParameter";

/** A criterion's weight (BT-5421 says whether the number is a percentage: "per-exa", "per-rng"), "15 %" or "15". */
function weightOf(criterion: XmlElement): string | null {
	const parameter = first(criterion, CRITERION_WEIGHT);
	const value = cleanLine(textAt(parameter, "efbc:ParameterNumeric"), 50);
	return value && textAt(parameter, "efbc:ParameterCode")?.startsWith("per-") ? `${value} %` : value;
}

/** Each lot's award criteria (BT-539 type, BT-734 name, BT-540 description, BT-541 weight); empty when none is stated. */
function awardCriteriaOfLots(lots: XmlElement[]): { award_criteria?: AwardCriteria } {
	const criteria = lots
		.flatMap((lot) =>
			all(lot, "cac:TenderingTerms/cac:AwardingTerms/cac:AwardingCriterion/cac:SubordinateAwardingCriterion").map((c) => ({
				lot: cleanLine(textAt(lot, "cbc:ID"), 100),
				type: cleanLine(textAt(c, "cbc:AwardingCriterionTypeCode"), 100),
				name: cleanLine(textIn(c, "cbc:Name"), LIMITS.line),
				description: cleanText(textIn(c, "cbc:Description"), LIMITS.note),
				weight: weightOf(c),
			})),
		)
		.filter((c) => c.name !== null || c.description !== null || c.type !== null)
		.slice(0, LIMITS.awardCriteria);
	return criteria.length ? { award_criteria: { method: null, text: null, criteria } } : {};
}

function statusOf(root: XmlElement, reasonCode: string | null): NoticeStatus {
	if (reasonCode === "cancel") return "cancelled";
	if (root.local === "ContractAwardNotice" || textAt(root, "cbc:NoticeTypeCode")?.startsWith("can-")) return "awarded";
	return "open";
}

function versionNote(changes: XmlElement | undefined): string | null {
	if (!changes) return null;
	const what = all(changes, "efac:Change")
		.map((c) => textIn(c, "efbc:ChangeDescription"))
		.filter((t) => t !== null);
	const reason = textIn(changes, "efac:ChangeReason/efbc:ReasonDescription");
	const parts = [what.length ? `Changed: ${what.join("; ")}` : null, reason ? `Reason: ${reason}` : null].filter((p) => p !== null);
	return parts.length ? cleanLine(parts.join(". "), LIMITS.note) : null;
}

function tedUrl(publicationId: string | null): string | null {
	const m = publicationId ? /^0*(\d{1,8}-\d{4})$/.exec(publicationId) : null;
	return m ? `https://ted.europa.eu/en/notice/-/detail/${m[1]}` : null;
}

function draftOf(root: XmlElement): NoticeDraft | string {
	const noticeId = cleanLine(
		all(root, "cbc:ID").find((e) => e.attrs.schemeName === "notice-id")?.text ?? textAt(root, "cbc:ID"),
		LIMITS.id,
	);
	if (!noticeId) return "notice id (cbc:ID) missing";
	// A prior information notice may carry no procedure identifier (Doffin's do not): it is then its own procedure.
	const folder = cleanLine(textAt(root, "cbc:ContractFolderID"), LIMITS.id) ?? (root.local === "PriorInformationNotice" ? noticeId : null);
	if (!folder) return "cbc:ContractFolderID missing";
	const versionId = cleanLine(textAt(root, "cbc:VersionID"), 20);
	const extension = all(root, "ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/efext:EformsExtension")[0];
	const orgs = organizations(extension);
	const changes = first(extension, "efac:Changes");
	const procedure = first(root, "cac:ProcurementProject");
	const lots = all(root, "cac:ProcurementProjectLot");
	const firstDeadline = lots
		.map(deadlineOf)
		.filter((d) => d !== null)
		.reduce<{ utc: string; local: string | null } | null>((a, b) => (a === null || b.utc < a.utc ? b : a), null);
	const lotProjects = lots.map((l) => first(l, "cac:ProcurementProject"));

	const title = cleanLine(textIn(procedure, "cbc:Name") ?? lotProjects.map((p) => textIn(p, "cbc:Name")).find((t) => t), LIMITS.title);
	if (!title) return "procedure title (cac:ProcurementProject/cbc:Name) missing";

	const buyer = all(root, "cac:ContractingParty/cac:Party/cac:PartyIdentification/cbc:ID")
		.map((id) => orgs.get(id.text))
		.find((o) => o !== undefined);
	const reference = cleanLine(textAt(procedure, "cbc:ID"), LIMITS.id);
	const issued = parseInstant(joinDateAndTime(textAt(root, "cbc:IssueDate"), textAt(root, "cbc:IssueTime")), RULES);
	const description = [textIn(procedure, "cbc:Description"), textIn(procedure, "cbc:Note")].filter((t) => t !== null).join("\n");

	const items = lots.map(itemOfLot);
	const terms = [...all(root, "cac:TenderingTerms"), ...lots.flatMap((l) => all(l, "cac:TenderingTerms"))];
	const selection = lots.flatMap((l) =>
		all(l, "cac:TenderingTerms/ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/efext:EformsExtension/efac:SelectionCriteria").map(
			(c) => textIn(c, "cbc:Description"),
		),
	);
	const reserved = reservedOf(lots);
	const location = first(procedure, "cac:RealizedLocation") ?? lotProjects.map((p) => first(p, "cac:RealizedLocation")).find((l) => l);
	const place = placeOf(first(location, "cac:Address"), textIn(location, "cbc:Description"));
	const estimate = estimateOf(procedure, lots);
	const reasonCode = textAt(changes, "efac:ChangeReason/cbc:ReasonCode");
	const submission = submissionOf(lots);
	const versionNumber = Number.parseInt(versionId ?? "", 10);

	return {
		source: "ted",
		source_id: folder,
		rfp_id: reference ?? folder,
		reference_number: reference,
		title,
		issuing_body: buyer?.name ?? "",
		description: cleanText(description, LIMITS.description) ?? "",
		// The text kept is the English one when the notice comes with it (preferEnglish): that is then its language.
		...languageField(
			all(procedure, "cbc:Name").some((e) => e.attrs.languageID === "ENG" && e.text) ? "en" : textAt(root, "cbc:NoticeLanguageCode"),
		),
		description_url: null,
		notice_type: cleanLine(textAt(root, "cbc:NoticeTypeCode"), 100) ?? root.local,
		procurement_category: procurementCategory(
			textAt(procedure, "cbc:ProcurementTypeCode") ?? lotProjects.map((p) => textAt(p, "cbc:ProcurementTypeCode")).find((t) => t !== null),
		),
		procedure: procedureOfNotice(root, lots),
		items,
		...lotsOf(lots),
		...awardCriteriaOfLots(lots),
		// Each lot's planned period (BT-36 duration with its unit, BT-536 start, BT-537 end).
		...lotPeriods(
			lots.map((l) => {
				const period = first(l, "cac:ProcurementProject/cac:PlannedPeriod");
				const measure = first(period, "cbc:DurationMeasure");
				return {
					id: cleanLine(textAt(l, "cbc:ID"), 100),
					duration: durationWords(measure?.text, measure?.attrs.unitCode),
					start: parseInstant(textAt(period, "cbc:StartDate"), RULES),
					end: parseInstant(textAt(period, "cbc:EndDate"), DEADLINE_RULES),
				};
			}),
		),
		categories: [
			...cpvs(procedure, "cac:MainCommodityClassification"),
			...cpvs(procedure, "cac:AdditionalCommodityClassification"),
			...lotProjects.flatMap((p) => cpvs(p, "cac:AdditionalCommodityClassification")),
		],
		deadline: firstDeadline?.utc ?? null,
		deadline_local: firstDeadline?.local ?? null,
		published_at: issued,
		...enquiryDeadlineOf(lots),
		...(submission ? { submission } : {}),
		estimated_value: estimate?.value ?? null,
		currency: estimate?.currency ?? null,
		set_aside: reserved ? { code: null, text: truncate(reserved, 500) } : null,
		eligibility: cleanText(selection.filter((s) => s !== null).join("\n"), LIMITS.eligibility),
		place_of_performance: placeOrNull(place),
		contacts: buyer ? [buyer.contact] : [],
		documents: documentsOf(terms),
		status: statusOf(root, reasonCode),
		version: {
			label: versionId ? `${noticeId}-${versionId}` : noticeId,
			released_at: issued,
			sort_key: `${issued ?? "0000-00-00T00:00:00Z"}|${String(Number.isFinite(versionNumber) ? versionNumber : 0).padStart(6, "0")}|${noticeId}`,
			supersedes: cleanLine(textAt(changes, "efbc:ChangedNoticeIdentifier"), LIMITS.id),
			note: versionNote(changes),
		},
		source_url: tedUrl(textAt(extension, "efac:Publication/efbc:NoticePublicationID")),
	};
}

/** One parsed eForms document to its notice (or a rejection). */
export function parseEformsDocument(root: XmlElement): ParseResult {
	if (!isEformsRoot(root)) return refused(`XML root ${root.local} (${root.namespace || "no namespace"}) is not an eForms notice`);
	const ref = all(root, "cbc:ID")
		.find((e) => e.attrs.schemeName === "notice-id")
		?.text.slice(0, LIMITS.id);
	const out = new Collector();
	out.record({ ref }, () => draftOf(root));
	return out.result();
}

/** An eForms XML document (untrusted text) to its notice (or a rejection). */
export function parseEformsXml(xml: string): ParseResult {
	const parsed = parseXml(xml);
	return parsed.ok ? parseEformsDocument(parsed.root) : refused(parsed.reason);
}
