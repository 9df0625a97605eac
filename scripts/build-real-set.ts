// Regenerates the real-notice development set (eval/real/) from published notices and the hand-written
// labels under eval/real/labels/. It exists so that the set can be rebuilt, audited and extended
// without hand-editing generated files, and so that no notice text is ever committed: the notices
// are third-party files read out of fetched repository snapshots (the search tool's `fetch` leaves
// their git directories in ../.mirror/<owner>+<name>/repo), listed with repository, commit, path and
// SHA-256 in eval/real/SOURCES.json, copied into the git-ignored eval/real/raw/ and checked there.
//
//   node_modules/.bin/tsx scripts/build-real-set.ts              copies raw/ when needed, writes eval/real/{tune,measure}/
//   node_modules/.bin/tsx scripts/build-real-set.ts --raw        only copies raw/ from the snapshots (and checks it)
//   node_modules/.bin/tsx scripts/build-real-set.ts --survey     prints one line per notice, writes nothing
//   ... --mirror DIR                                             snapshots elsewhere than ../.mirror
//
// The output has the shape of ../shared/eval/dev (catalogs.json, notices.ocds.json, qrels.json,
// signals.json) so that `npm run eval:matching` can read either half like the synthetic set.
// Notices that are not OCDS (TED R2.0.9 and eForms XML, SAM.gov JSON, a Doffin search listing) are written as
// OCDS releases: their text is copied verbatim (titles, descriptions, lot texts in the notice's own language) and
// their coded fields become the OCDS fields that carry them (procedure -> procurementMethod and
// procurementMethodDetails, contract nature -> mainProcurementCategory, CPV/PSC/NAICS ->
// classifications, SAM set-aside -> eligibilityCriteria). Every date of the whole set is moved by
// one offset (a whole number of weeks) so that the earliest deadline falls after SHIFT_TARGET.

import { execFileSync } from "node:child_process";
import { gunzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { XMLParser } from "fast-xml-parser";

const ROOT = resolve(import.meta.dirname, "..");
const SET = join(ROOT, "eval/real");
const RAW = join(SET, "raw");
const LABELS = join(SET, "labels");
const SOURCES_FILE = join(SET, "SOURCES.json");
const argAfter = (flag: string): string | undefined => {
	const i = process.argv.indexOf(flag);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const MIRROR = resolve(argAfter("--mirror") ?? join(ROOT, "..", ".mirror"));
const SEED = "oms-real-dev-2026";
const SHIFT_TARGET = Date.parse("2027-01-04T00:00:00Z");
const DAY = 86_400_000;

type Json = Record<string, unknown>;

interface Built {
	ocid: string;
	/** raw file, relative to raw/ */
	origin: string;
	/** source family for stratification */
	source: string;
	language: string;
	releases: Json[];
	/** collection round (1 = the first 231 notices); later rounds are split in strata of their own */
	batch: number;
}

// ---------- small helpers ----------

function asList<T>(v: T | T[] | undefined | null): T[] {
	return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

function isObj(v: unknown): v is Json {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Text of an element parsed by fast-xml-parser: a string, or the #text of an element with attributes. */
function text(v: unknown): string {
	if (v === undefined || v === null) return "";
	if (typeof v === "string" || typeof v === "number") return String(v);
	if (isObj(v) && "#text" in v) return String(v["#text"]);
	return "";
}

/** TED R2.0.9 texts are sequences of <P> paragraphs; they are joined with newlines, unchanged. */
function paragraphs(v: unknown): string {
	if (!isObj(v)) return text(v).trim();
	return asList(v.P as unknown)
		.map((p) => (isObj(p) ? collectText(p) : text(p)).trim())
		.filter(Boolean)
		.join("\n");
}

/** All text below an element (paragraphs can carry FT or other inline children). */
function collectText(v: unknown): string {
	if (typeof v === "string" || typeof v === "number") return String(v);
	if (Array.isArray(v)) return v.map(collectText).join(" ");
	if (isObj(v))
		return Object.entries(v)
			.filter(([k]) => !k.startsWith("@"))
			.map(([, x]) => collectText(x))
			.join(" ");
	return "";
}

function attr(v: unknown, name: string): string {
	return isObj(v) && v[`@${name}`] !== undefined ? String(v[`@${name}`]) : "";
}

/** Depth-first search for the first value under `key`. */
function find(v: unknown, key: string): unknown {
	if (Array.isArray(v)) {
		for (const x of v) {
			const r = find(x, key);
			if (r !== undefined) return r;
		}
		return undefined;
	}
	if (!isObj(v)) return undefined;
	if (key in v) return v[key];
	for (const [k, x] of Object.entries(v)) {
		if (k.startsWith("@")) continue;
		const r = find(x, key);
		if (r !== undefined) return r;
	}
	return undefined;
}

function sha(s: string | Buffer): string {
	return createHash("sha256").update(s).digest("hex");
}

const xml = new XMLParser({
	ignoreAttributes: false,
	attributeNamePrefix: "@",
	removeNSPrefix: true,
	parseTagValue: false,
	parseAttributeValue: false,
	trimValues: true,
	processEntities: true,
	htmlEntities: false,
});

// ISO 639-2/B and eForms language codes to the ISO 639-1 codes OCDS `language` uses.
const LANG3: Record<string, string> = {
	ENG: "en",
	FRA: "fr",
	DEU: "de",
	ITA: "it",
	SPA: "es",
	POL: "pl",
	ELL: "el",
	BUL: "bg",
	NLD: "nl",
	FIN: "fi",
	DAN: "da",
	EST: "et",
	RON: "ro",
	SLK: "sk",
	SWE: "sv",
	CES: "cs",
	HUN: "hu",
	POR: "pt",
	LAV: "lv",
	LIT: "lt",
	SLV: "sl",
	HRV: "hr",
	GLE: "ga",
	MLT: "mt",
	NOR: "no",
	NOB: "nb",
	NNO: "nn",
};

// ---------- TED R2.0.9 ----------

const TED_METHOD: [RegExp, string][] = [
	[/^PT_OPEN$/, "open"],
	[/^PT_(RESTRICTED|COMPETITIVE_NEGOTIATION|COMPETITIVE_DIALOGUE|INNOVATION_PARTNERSHIP|NEGOTIATED_WITH_PRIOR_CALL)$/, "selective"],
	[/^PT_(NEGOTIATED_WITHOUT_PUBLICATION|AWARD_CONTRACT_WITHOUT_CALL)$/, "limited"],
];

const CTYPE: Record<string, string> = { SUPPLIES: "goods", SERVICES: "services", WORKS: "works" };

function tedR209(file: string, s: Source): Built | null {
	const doc = xml.parse(readFileSync(join(RAW, file), "utf8")) as Json;
	const root = doc.TED_EXPORT as Json;
	const docId = attr(root, "DOC_ID");
	const coded = root.CODED_DATA_SECTION as Json;
	const codif = (coded.CODIF_DATA ?? {}) as Json;
	const forms = root.FORM_SECTION as Json;
	// The form in its original language (translations, when present, carry CATEGORY="TRANSLATION").
	const formName = Object.keys(forms).find((k) => /^F\d\d_2014$|^[A-Z_]+_2014$/.test(k));
	if (!formName) return null;
	const form =
		asList(forms[formName] as Json | Json[]).find((f) => attr(f, "CATEGORY") === "ORIGINAL") ??
		asList(forms[formName] as Json | Json[])[0]!;
	const lang = attr(form, "LG").toLowerCase();
	const object = (form.OBJECT_CONTRACT ?? find(form, "OBJECT_CONTRACT")) as Json | undefined;
	if (!object) return null;
	const title = paragraphs(object.TITLE);
	const description = paragraphs(object.SHORT_DESCR);
	const mainCpv = attr(find(object.CPV_MAIN, "CPV_CODE"), "CODE");
	const ctype = attr(object.TYPE_CONTRACT, "CTYPE");
	const lots = asList(object.OBJECT_DESCR as Json | Json[]);
	const items = lots.map((lot, i) => {
		const lotTitle = paragraphs(lot.TITLE);
		const lotText = paragraphs(lot.SHORT_DESCR);
		const extra = asList(lot.CPV_ADDITIONAL as Json | Json[])
			.map((c) => attr(find(c, "CPV_CODE"), "CODE"))
			.filter(Boolean);
		const lotCpv = attr(find(lot.CPV_MAIN, "CPV_CODE"), "CODE") || mainCpv;
		return {
			id: String(i + 1),
			description: [lotTitle, lotText].filter(Boolean).join("\n"),
			...(lotCpv ? { classification: { scheme: "CPV", id: lotCpv } } : {}),
			...(extra.length ? { additionalClassifications: extra.map((id) => ({ scheme: "CPV", id })) } : {}),
		};
	});
	if (!items.length && mainCpv) items.push({ id: "1", description: title, classification: { scheme: "CPV", id: mainCpv } });
	const procedure = (form.PROCEDURE ?? {}) as Json;
	const pt = Object.keys(procedure).find((k) => k.startsWith("PT_")) ?? "";
	const method = TED_METHOD.find(([re]) => re.test(pt))?.[1];
	const prLabel = text(codif.PR_PROC);
	const dateReceipt = text(procedure.DATE_RECEIPT_TENDERS);
	const timeReceipt = text(procedure.TIME_RECEIPT_TENDERS);
	const published = text(find(coded, "DATE_PUB"));
	const buyer = text(find(form.CONTRACTING_BODY, "OFFICIALNAME"));
	const country = attr(find(form.CONTRACTING_BODY, "COUNTRY"), "VALUE");
	const ocid = `ocds-ted209-${docId}`;
	const planning = /^F0[148]_2014$/.test(formName);
	const pad = (t: string) => (/^\d:/.test(t) ? `0${t}` : t);
	const release: Json = {
		ocid,
		id: `${ocid}-${formName}`,
		date: `${published.slice(0, 4)}-${published.slice(4, 6)}-${published.slice(6, 8)}T00:00:00Z`,
		tag: [planning ? "planning" : "tender"],
		initiationType: "tender",
		language: lang,
		buyer: { id: `TED-BUYER-${docId}`, name: buyer },
		parties: [{ id: `TED-BUYER-${docId}`, name: buyer, roles: ["buyer"], address: { countryName: country } }],
		tender: {
			id: text(object.REFERENCE_NUMBER) || docId,
			title,
			description,
			status: planning ? "planned" : "active",
			...(method ? { procurementMethod: method } : {}),
			...(prLabel ? { procurementMethodDetails: prLabel } : {}),
			...(CTYPE[ctype] ? { mainProcurementCategory: CTYPE[ctype] } : {}),
			...(mainCpv ? { classification: { scheme: "CPV", id: mainCpv } } : {}),
			items,
			...(dateReceipt ? { tenderPeriod: { endDate: `${dateReceipt}T${timeReceipt ? pad(timeReceipt) : "23:59"}:00+01:00` } } : {}),
			...(form.PROCEDURE && find(procedure, "FRAMEWORK") !== undefined ? { techniques: { hasFrameworkAgreement: true } } : {}),
		},
	};
	return { ocid, origin: file, source: "ted", language: lang, releases: [release], batch: s.batch ?? 1 };
}

// ---------- eForms (TED and Doffin) ----------

const EFORMS_METHOD: Record<string, [string, string]> = {
	open: ["open", "Open procedure"],
	restricted: ["selective", "Restricted procedure"],
	"neg-w-call": ["selective", "Negotiated with prior publication of a call for competition / competitive with negotiation"],
	"comp-dial": ["selective", "Competitive dialogue"],
	innovation: ["selective", "Innovation partnership"],
	"neg-wo-call": ["limited", "Negotiated without prior call for competition"],
	"oth-single": ["open", "Other single stage procedure"],
	"oth-mult": ["selective", "Other multiple stage procedure"],
	"comp-tend": ["selective", "Competitive tendering (article 5(3) of Regulation 1370/2007)"],
	exp: ["limited", "Exceptional procedure"],
};

const NATURE: Record<string, string> = { supplies: "goods", services: "services", works: "works" };

function coded(v: unknown, listName?: string): string {
	for (const x of asList(v as unknown[])) if (!listName || attr(x, "listName") === listName) return text(x);
	return "";
}

function inLanguage(v: unknown, lang3: string): string {
	const list = asList(v as unknown[]);
	const hit = list.find((x) => attr(x, "languageID") === lang3) ?? list[0];
	return text(hit).trim();
}

function eforms(file: string, source: "ted" | "doffin", s: Source): Built | null {
	const doc = xml.parse(readFileSync(join(RAW, file), "utf8")) as Json;
	const rootName = Object.keys(doc).find((k) => k === "ContractNotice" || k === "PriorInformationNotice");
	if (!rootName) return null;
	const root = doc[rootName] as Json;
	const ext = find(root.UBLExtensions, "EformsExtension") as Json | undefined;
	const subtype = coded(find(ext, "NoticeSubType") ? (find(ext, "NoticeSubType") as Json).SubTypeCode : undefined);
	const project = root.ProcurementProject as Json;
	const lang3 = text(root.NoticeLanguageCode) || attr(asList(project.Name as unknown[])[0], "languageID") || "ENG";
	const lang = LANG3[lang3] ?? lang3.toLowerCase();
	const pubId = text(find(ext, "NoticePublicationID"));
	const noticeId = text(asList(root.ID as unknown[])[0]);
	const folder = text(root.ContractFolderID);
	const title = inLanguage(project.Name, lang3);
	const description = inLanguage(project.Description, lang3);
	const mainCpv = coded(find(project.MainCommodityClassification, "ItemClassificationCode"));
	const nature = coded(project.ProcurementTypeCode, "contract-nature");
	const tendering = (root.TenderingProcess ?? {}) as Json;
	const procedure = coded(tendering.ProcedureCode, "procurement-procedure-type");
	const lots = asList(root.ProcurementProjectLot as Json | Json[]);
	let deadline = "";
	const items = lots.map((lot, i) => {
		const lp = (lot.ProcurementProject ?? {}) as Json;
		const cpv = coded(find(lp.MainCommodityClassification, "ItemClassificationCode")) || mainCpv;
		const extra = asList(lp.AdditionalCommodityClassification as Json | Json[])
			.map((c) => coded(c.ItemClassificationCode))
			.filter(Boolean);
		const end = find(lot.TenderingProcess, "TenderSubmissionDeadlinePeriod") as Json | undefined;
		if (end && text(end.EndDate)) {
			const d = text(end.EndDate).slice(0, 10);
			const tz = /([+-]\d\d:\d\d|Z)$/.exec(text(end.EndTime) || text(end.EndDate))?.[1] ?? "Z";
			const t = text(end.EndTime).slice(0, 8) || "23:59:59";
			const at = `${d}T${t}${tz}`;
			if (!deadline || Date.parse(at) < Date.parse(deadline)) deadline = at;
		}
		return {
			id: text(lot.ID) || String(i + 1),
			description: [inLanguage(lp.Name, lang3), inLanguage(lp.Description, lang3)].filter(Boolean).join("\n"),
			...(cpv ? { classification: { scheme: "CPV", id: cpv } } : {}),
			...(extra.length ? { additionalClassifications: extra.map((id) => ({ scheme: "CPV", id })) } : {}),
		};
	});
	const buyerId = text(find(find(root.ContractingParty, "Party"), "ID"));
	const orgs = asList(find(ext, "Organization") as Json | Json[]);
	const buyerOrg = orgs.find(
		(o) => text(find(find(o, "Company"), "PartyIdentification") ? find(find(o, "Company"), "ID") : "") === buyerId,
	);
	const company = find(buyerOrg ?? orgs[0], "Company");
	const partyName = find(company, "PartyName") as Json | undefined;
	const buyer = inLanguage(partyName ? partyName.Name : "", lang3);
	const issue = text(root.IssueDate).slice(0, 10);
	const ocid = source === "ted" ? `ocds-tedef-${pubId || basename(file, ".xml")}` : `ocds-doffin-${basename(file, ".xml")}`;
	const n = Number(subtype.replace(/\D/g, ""));
	const planning = rootName === "PriorInformationNotice" && n >= 1 && n <= 9;
	const [method, methodLabel] = EFORMS_METHOD[procedure] ?? [undefined, undefined];
	const release: Json = {
		ocid,
		id: `${ocid}-${noticeId || "1"}`,
		date: `${issue}T00:00:00Z`,
		tag: [planning ? "planning" : "tender"],
		initiationType: "tender",
		language: lang,
		buyer: { id: buyerId || `BUYER-${ocid}`, name: buyer },
		parties: [{ id: buyerId || `BUYER-${ocid}`, name: buyer, roles: ["buyer"] }],
		tender: {
			id: folder || noticeId,
			title,
			description,
			status: planning ? "planned" : "active",
			...(method ? { procurementMethod: method, procurementMethodDetails: methodLabel } : {}),
			...(NATURE[nature] ? { mainProcurementCategory: NATURE[nature] } : {}),
			...(mainCpv ? { classification: { scheme: "CPV", id: mainCpv } } : {}),
			items,
			...(deadline ? { tenderPeriod: { endDate: deadline } } : {}),
		},
	};
	return {
		ocid,
		origin: file,
		source: source === "ted" ? "ted-eforms" : "doffin",
		language: lang,
		releases: [release],
		batch: s.batch ?? 1,
	};
}

// ---------- OCDS ----------

const AWARD_TAGS = /^(award|contract|implementation)/;

/**
 * The release as it stood while the tender was open: sample data is a snapshot taken after the
 * process moved on (tender.status complete or unsuccessful, awards and contracts attached), which
 * would make every notice a closed one. Only that lifecycle state changes; every text is kept.
 */
function atTenderStage(r: Json): Json {
	const { awards: _awards, contracts: _contracts, ...rest } = r;
	const tags = asList(r.tag as string[]);
	const tender = { ...((r.tender ?? {}) as Json), status: tags.some((t) => t.startsWith("planning")) && !r.tender ? "planned" : "active" };
	return { ...rest, tender };
}

/** The releases a file holds: a release package, a record package (each record's compiled release) or one release. */
function releasesOf(pkg: Json): Json[] {
	if (Array.isArray(pkg.releases)) return pkg.releases as Json[];
	if (Array.isArray(pkg.records)) return (pkg.records as Json[]).map((r) => r.compiledRelease as Json).filter(isObj);
	return [pkg];
}

function ocds(file: string, s: Source): Built[] {
	const pkg = JSON.parse(readFileSync(join(RAW, file), "utf8")) as Json;
	const publisher = file.split("/")[1]!;
	const only = s.only ? new Set(s.only) : undefined;
	const out: Built[] = [];
	for (const r of releasesOf(pkg)) {
		if (only && !only.has(String(r.ocid))) continue;
		const tags = asList(r.tag as string[]);
		// Award and contract releases close a process: they are not opportunities a reseller can bid on. A file listed
		// with tenderStage holds compiled snapshots (tender, award and contract in one release): its tender is kept.
		if (!tags.length || (!s.tenderStage && tags.some((t) => AWARD_TAGS.test(t)))) continue;
		const tender = (r.tender ?? {}) as Json;
		if (!text(tender.title) && !text(tender.description) && !asList(tender.items as Json[]).length) continue;
		const english = publisher.startsWith("uk") || publisher.startsWith("australia") || publisher === "uganda";
		const declared = String(r.language ?? (english ? "en" : ""))
			.slice(0, 2)
			.toLowerCase();
		const lang = s.languages?.[String(r.ocid)] ?? declared;
		out.push({
			ocid: String(r.ocid),
			origin: file,
			source: `ocds:${publisher}`,
			language: lang || "und",
			releases: [atTenderStage(r)],
			batch: s.batch ?? 1,
		});
	}
	return out;
}

// ---------- Buyandsell.gc.ca (Canada, OCDS 1.0 draft as published in 2014) ----------

const CA_METHOD: [RegExp, string][] = [
	[/^(Open|All interested suppliers may submit a bid)$/, "open"],
	[/^(Selective|Suppliers on permanent list or able to meet qualification requirements)$/, "selective"],
	[/^(Limited|Generally only one firm has been invited to bid)$/, "limited"],
];

// UTC offsets of the time zone names Buyandsell writes after a deadline ("2014-04-15 14:00 Eastern Daylight Time (EDT)").
const CA_ZONES: Record<string, string> = {
	NDT: "-02:30",
	NST: "-03:30",
	ADT: "-03:00",
	AST: "-04:00",
	EDT: "-04:00",
	EST: "-05:00",
	CDT: "-05:00",
	CST: "-06:00",
	MDT: "-06:00",
	MST: "-07:00",
	PDT: "-07:00",
	PST: "-08:00",
	CET: "+01:00",
	CEST: "+02:00",
};

/** GSIN labels are "CODE: label", several joined by ", "; the label text itself may hold commas. */
function gsin(label: string): { scheme: string; id: string; description: string }[] {
	return label
		.split(/, (?=[A-Z0-9]{1,12}: )/)
		.map((part) => /^([A-Z0-9]{1,12}): (.*)$/.exec(part.trim()))
		.filter((m): m is RegExpExecArray => m !== null)
		.map((m) => ({ scheme: "GSIN", id: m[1]!, description: m[2]! }));
}

/**
 * One notice of the 2014 Buyandsell export. The export predates OCDS 1.0: no tender title (the item description is
 * the notice's title), GSIN codes only inside the classification label, the deadline written with a time zone
 * name, the procedure as a phrase (methodRationale). Those become OCDS 1.1 fields; no text changes.
 */
function buyandsell(file: string, s: Source): Built[] {
	const pkg = JSON.parse(gunzipSync(readFileSync(join(RAW, file))).toString("utf8")) as Json;
	const only = new Set(s.only ?? []);
	const out: Built[] = [];
	for (const r of pkg.releases as Json[]) {
		if (!only.has(String(r.ocid))) continue;
		const t = (r.tender ?? {}) as Json;
		const first = (asList(t.items as Json[])[0] ?? {}) as Json;
		const codes = gsin(text((first.classification as Json | undefined)?.description));
		const rationale = text(t.methodRationale);
		const method = CA_METHOD.find(([re]) => re.test(rationale))?.[1];
		const code = codes[0]?.id ?? "";
		// GSIN: N... and bare supply-class numbers are goods, 51... construction, letter codes (services, rentals, maintenance) services.
		const category = /^N/.test(code) || /^(?!51)\d/.test(code) ? "goods" : /^51/.test(code) ? "works" : code ? "services" : undefined;
		const end = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d) .*\(([A-Z]+)\)$/.exec(text((t.tenderPeriod as Json | undefined)?.endDate));
		const ocid = `ocds-cabuy-${String(r.ocid)}`;
		const buyer = text((r.buyer as Json | undefined)?.name);
		const release: Json = {
			ocid,
			id: String(r.id),
			date: `${text(r.date)}T00:00:00Z`,
			tag: ["tender"],
			initiationType: "tender",
			// As published: the export declares every notice English, also the few written in French (the
			// hand reading below only places them in the split); the service must see what the feed says.
			language: "en",
			buyer: { id: `CA-BUYER-${buyer}`, name: buyer },
			parties: [{ id: `CA-BUYER-${buyer}`, name: buyer, roles: ["buyer"] }],
			tender: {
				id: text(t.id),
				title: text(first.description),
				status: "active",
				...(method ? { procurementMethod: method } : {}),
				...(rationale ? { procurementMethodDetails: rationale } : {}),
				...(category ? { mainProcurementCategory: category } : {}),
				items: [
					{
						id: "1",
						description: text(first.description),
						...(codes[0] ? { classification: codes[0] } : {}),
						...(codes.length > 1 ? { additionalClassifications: codes.slice(1) } : {}),
					},
				],
				...(end && CA_ZONES[end[3]!] ? { tenderPeriod: { endDate: `${end[1]}T${end[2]}:00${CA_ZONES[end[3]!]}` } } : {}),
				...(Array.isArray(t.documents)
					? { documents: (t.documents as Json[]).map((d, i) => ({ id: String(i + 1), documentType: "tenderNotice", url: d.url })) }
					: {}),
			},
		};
		const lang = s.languages?.[String(r.ocid)] ?? "en";
		out.push({ ocid, origin: file, source: "buyandsell", language: lang, releases: [release], batch: s.batch ?? 1 });
	}
	return out;
}

// ---------- Doffin 2020 (contract notices as a Doffin search listing gave them) ----------

/** One notice of the scraped Doffin listing: Norwegian field names, the main CPV with its English label, no notice id. */
interface DoffinListed {
	tittel: string;
	beskrivelse: string | string[];
	cpvnumber: string;
	cpv: string;
	tilleggsCPV?: Record<string, string>[];
	form: string;
	kunngjoringsdato: string;
	tilbudsfrist?: string;
	oppdragsgiver: string;
	orgnr?: string | number;
	url_deltakelse?: string;
	url_dokumentasjon?: string;
}

/** The listing carries no notice id: a notice is named by its title, buyer and publication date (stable at the pinned commit). */
function doffinListedId(n: DoffinListed): string {
	return sha(`${n.tittel}|${n.oppdragsgiver}|${n.kunngjoringsdato}`).slice(0, 12);
}

/**
 * Doffin contract notices (form F02) of autumn 2020 as a public Doffin search listing returned them: title, description,
 * main and additional CPV, buyer, publication date and tender deadline (a date, no time). No procedure type is listed, so
 * no procurementMethod is written; the contract nature is the CPV's (45... works, 50... and above services, below 45
 * goods, the structure of CPV 2008); the deadline date becomes the end of that day in Oslo winter time.
 */
function doffinListed(file: string, s: Source): Built[] {
	const list = JSON.parse(readFileSync(join(RAW, file), "utf8")) as DoffinListed[];
	const only = new Set(s.only ?? []);
	const seen = new Set<string>();
	const out: Built[] = [];
	for (const n of list) {
		const id = doffinListedId(n);
		if (!only.has(id) || seen.has(id)) continue;
		seen.add(id);
		const ocid = `ocds-doffin20-${id}`;
		const division = Number(n.cpvnumber.slice(0, 2));
		const category = division === 45 ? "works" : division >= 50 ? "services" : "goods";
		const extra = asList(n.tilleggsCPV).flatMap((c) =>
			Object.entries(c).map(([code, label]) => ({ scheme: "CPV", id: code, description: label })),
		);
		const buyerId = n.orgnr === undefined ? `NO-BUYER-${id}` : `NO-ORG-${String(n.orgnr).replace(/\s/g, "")}`;
		const release: Json = {
			ocid,
			id: `${ocid}-${n.form}`,
			date: `${n.kunngjoringsdato}T00:00:00+01:00`,
			tag: ["tender"],
			initiationType: "tender",
			language: "no",
			buyer: { id: buyerId, name: n.oppdragsgiver },
			parties: [{ id: buyerId, name: n.oppdragsgiver, roles: ["buyer"], address: { countryName: "NO" } }],
			tender: {
				id,
				title: n.tittel,
				description: asList(n.beskrivelse).join("\n"),
				status: "active",
				mainProcurementCategory: category,
				classification: { scheme: "CPV", id: n.cpvnumber, description: n.cpv },
				items: [
					{
						id: "1",
						description: n.tittel,
						classification: { scheme: "CPV", id: n.cpvnumber, description: n.cpv },
						...(extra.length ? { additionalClassifications: extra } : {}),
					},
				],
				...(n.tilbudsfrist ? { tenderPeriod: { endDate: `${n.tilbudsfrist}T23:59:00+01:00` } } : {}),
				...(n.url_dokumentasjon ? { documents: [{ id: "1", documentType: "tenderNotice", url: n.url_dokumentasjon }] } : {}),
			},
		};
		out.push({ ocid, origin: file, source: "doffin-2020", language: "no", releases: [release], batch: s.batch ?? 1 });
	}
	return out;
}

// ---------- SAM.gov ----------

function sam(file: string, s: Source): Built[] {
	const pkg = JSON.parse(readFileSync(join(RAW, file), "utf8")) as { opportunitiesData: Json[] };
	const out: Built[] = [];
	for (const o of pkg.opportunitiesData) {
		if (/award/i.test(String(o.type)) || o.award) continue;
		const ocid = `ocds-samgov-${o.noticeId}`;
		const psc = text(o.classificationCode);
		const naics = asList(o.naicsCodes as string[]);
		const release: Json = {
			ocid,
			id: `${ocid}-${o.noticeId}`,
			date: `${o.postedDate}T00:00:00-05:00`,
			tag: [/presolicitation|sources sought|special notice/i.test(String(o.type)) ? "planning" : "tender"],
			initiationType: "tender",
			language: "en",
			buyer: { id: String(o.fullParentPathCode), name: String(o.fullParentPathName) },
			parties: [{ id: String(o.fullParentPathCode), name: String(o.fullParentPathName), roles: ["buyer"] }],
			tender: {
				id: o.solicitationNumber || o.noticeId,
				title: o.title,
				status: "active",
				procurementMethodDetails: o.type,
				...(o.typeOfSetAsideDescription ? { eligibilityCriteria: o.typeOfSetAsideDescription } : {}),
				items: [
					{
						id: "1",
						description: o.title,
						...(psc ? { classification: { scheme: "PSC", id: psc } } : {}),
						...(naics.length ? { additionalClassifications: naics.map((id) => ({ scheme: "NAICS", id })) } : {}),
					},
				],
				...(o.responseDeadLine ? { tenderPeriod: { endDate: o.responseDeadLine } } : {}),
				documents: [
					{ id: "description", documentType: "tenderNotice", url: o.description },
					{ id: "notice", documentType: "tenderNotice", url: o.uiLink },
				],
			},
		};
		out.push({ ocid, origin: file, source: "sam.gov", language: "en", releases: [release], batch: s.batch ?? 1 });
	}
	return out;
}

// ---------- dates ----------

const DATE_KEY = /(^date$|Date$)/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(.*)$/;

function shiftIso(v: string, days: number): string {
	const m = ISO.exec(v);
	if (!m) return v;
	const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * DAY);
	return `${d.toISOString().slice(0, 10)}${m[4]}`;
}

/** Every date-valued field (OCDS names them `date` or `...Date`), wherever it is in the release. */
function shiftDates(v: unknown, days: number): unknown {
	if (Array.isArray(v)) return v.map((x) => shiftDates(x, days));
	if (!isObj(v)) return v;
	const out: Json = {};
	for (const [k, x] of Object.entries(v)) out[k] = DATE_KEY.test(k) && typeof x === "string" ? shiftIso(x, days) : shiftDates(x, days);
	return out;
}

function deadlines(v: unknown, acc: number[] = []): number[] {
	if (Array.isArray(v)) for (const x of v) deadlines(x, acc);
	else if (isObj(v)) {
		for (const [k, x] of Object.entries(v)) {
			if (k === "tenderPeriod" && isObj(x) && typeof x.endDate === "string" && !Number.isNaN(Date.parse(x.endDate)))
				acc.push(Date.parse(x.endDate));
			else deadlines(x, acc);
		}
	}
	return acc;
}

// ---------- raw files from the fetched snapshots ----------

/** One raw file: where it was published (a blob of a public repository at a commit) and how to check the copy. */
interface Source {
	repo: string;
	commit: string;
	path: string;
	licence: string;
	/** SHA-256 of the file as raw/ holds it */
	sha256: string;
	/** how the raw file is cut out of the blob when the blob is not the notice file itself */
	extract?: "js-const-res";
	/** notices the build takes from this file (written by the build) */
	ocids?: string[];
	/** collection round; absent = 1 */
	batch?: number;
	/** for files holding many notices: the ids (publisher ocids; for the Doffin 2020 listing, doffinListedId) taken, the rest are not read */
	only?: string[];
	/** the file holds compiled snapshots tagged tender+award+contract; the tender is taken (awards are dropped) */
	tenderStage?: boolean;
	/** language of a notice whose text is not in the language the publisher declares (read by hand) */
	languages?: Record<string, string>;
}

function readSources(): Record<string, Source> {
	return JSON.parse(readFileSync(SOURCES_FILE, "utf8")) as Record<string, Source>;
}

/** The JSON object a JavaScript file assigns to `const res = ...` (the file's last statement): an API response pasted into code. */
function jsConstRes(blob: Buffer): Buffer {
	const js = blob.toString("utf8");
	const at = js.indexOf("const res = ");
	if (at < 0) throw new Error("no `const res = ` in the blob");
	const literal = js
		.slice(at + "const res = ".length)
		.trim()
		.replace(/;$/, "");
	return Buffer.from(JSON.stringify(JSON.parse(literal), null, 1));
}

function gitDir(repo: string): string {
	return join(MIRROR, repo.replace("/", "+"), "repo");
}

/**
 * Copies every listed raw file out of the snapshots into raw/, unless a copy with the listed SHA-256 is
 * already there. Stops, naming the repositories to `fetch`, when a snapshot is missing or lacks the commit.
 */
function materialize(sources: Record<string, Source>): void {
	const missing = new Set<string>();
	let copied = 0;
	for (const [file, s] of Object.entries(sources)) {
		const target = join(RAW, file);
		if (existsSync(target) && sha(readFileSync(target)) === s.sha256) continue;
		const dir = gitDir(s.repo);
		if (!existsSync(dir)) {
			missing.add(s.repo);
			continue;
		}
		let blob: Buffer;
		try {
			blob = execFileSync("git", [`--git-dir=${dir}`, "show", `${s.commit}:${s.path}`], {
				maxBuffer: 1 << 30,
				stdio: ["ignore", "pipe", "pipe"],
			});
		} catch {
			missing.add(`${s.repo} (its snapshot lacks ${s.commit.slice(0, 10)}:${s.path}; fetch it again)`);
			continue;
		}
		const body = s.extract === "js-const-res" ? jsConstRes(blob) : blob;
		if (sha(body) !== s.sha256) throw new Error(`${file}: ${s.repo}@${s.commit.slice(0, 10)}:${s.path} does not have the listed SHA-256`);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, body);
		copied++;
	}
	if (missing.size) {
		const list = [...missing]
			.sort()
			.map((r) => `  fetch github:${r}`)
			.join("\n");
		throw new Error(
			`raw/ cannot be rebuilt: no snapshot under ${MIRROR} for\n${list}\n(call the search tool's fetch for each, then run again)`,
		);
	}
	if (copied) console.error(`raw/: ${copied} files copied from the snapshots under ${MIRROR}`);
}

// ---------- assembly ----------

function files(sources: Record<string, Source>, dir: string): string[] {
	return Object.keys(sources)
		.filter((f) => f.startsWith(`${dir}/`))
		.sort();
}

function collect(sources: Record<string, Source>): Built[] {
	const all: Built[] = [];
	for (const f of files(sources, "ted-r209")) {
		const b = tedR209(f, sources[f]!);
		if (b) all.push(b);
	}
	for (const f of files(sources, "ted-eforms")) {
		const b = eforms(f, "ted", sources[f]!);
		if (b) all.push(b);
	}
	for (const f of files(sources, "doffin-eforms")) {
		const b = eforms(f, "doffin", sources[f]!);
		if (b) all.push(b);
	}
	for (const f of files(sources, "ocds")) all.push(...ocds(f, sources[f]!));
	for (const f of files(sources, "sam")) all.push(...sam(f, sources[f]!));
	for (const f of files(sources, "buyandsell")) all.push(...buyandsell(f, sources[f]!));
	for (const f of files(sources, "doffin-2020")) all.push(...doffinListed(f, sources[f]!));
	// One notice per ocid: a process published in several files (a release and its record, or a
	// later tender update) keeps every distinct release, in date order.
	const byOcid = new Map<string, Built>();
	for (const b of all) {
		const seen = byOcid.get(b.ocid);
		if (!seen) byOcid.set(b.ocid, b);
		else for (const r of b.releases) if (!seen.releases.some((s) => s.id === r.id)) seen.releases.push(r);
	}
	for (const b of byOcid.values()) b.releases.sort((x, y) => String(x.date).localeCompare(String(y.date)));
	return [...byOcid.values()].sort((a, b) => a.ocid.localeCompare(b.ocid));
}

/**
 * Tune or measure: within each (source, language) stratum, notices in seeded-hash order alternate, starting at a seeded
 * side. Each later collection round forms strata of its own ("|b2" ...), so adding notices never moves an earlier one.
 */
function split(notices: Built[]): Map<string, "tune" | "measure"> {
	const strata = new Map<string, Built[]>();
	for (const n of notices) {
		const key = n.batch > 1 ? `${n.source}|${n.language}|b${n.batch}` : `${n.source}|${n.language}`;
		strata.set(key, [...(strata.get(key) ?? []), n]);
	}
	const out = new Map<string, "tune" | "measure">();
	for (const [key, list] of [...strata.entries()].sort(([a], [b]) => a.localeCompare(b))) {
		const start = parseInt(sha(`${SEED}:${key}`).slice(0, 8), 16) % 2;
		list.sort((a, b) => sha(`${SEED}:${a.ocid}`).localeCompare(sha(`${SEED}:${b.ocid}`)));
		list.forEach((n, i) => out.set(n.ocid, (i + start) % 2 === 0 ? "tune" : "measure"));
	}
	return out;
}

function main(): void {
	const sources = readSources();
	materialize(sources);
	if (process.argv.includes("--raw")) return;
	const notices = collect(sources);
	const survey = process.argv.includes("--survey");
	const ends = notices.flatMap((n) => deadlines(n.releases));
	const earliest = Math.min(...ends);
	const offsetDays = Math.ceil((SHIFT_TARGET - earliest) / DAY / 7) * 7;
	const parts = split(notices);
	const dump = process.argv.indexOf("--dump");
	if (dump > 0) {
		// Reading aid for labelling: the text a notice carries, as the set will hold it.
		const wanted = new Set(process.argv.slice(dump + 1));
		for (const n of notices.filter((x) => wanted.has(x.ocid) || wanted.has("all"))) {
			const t = (n.releases.at(-1)!.tender ?? {}) as Json;
			const items = asList(t.items as Json[]).map(
				(i) => `  - ${text(i.description).replace(/\s+/g, " ").slice(0, 400)} [${text((i.classification as Json | undefined)?.id)}]`,
			);
			const head = `## ${n.ocid} (${n.source}, ${n.language}) ${text(t.procurementMethodDetails)} / ${text(t.mainProcurementCategory)}`;
			const body = [
				text(t.title),
				text(t.description).replace(/\s+/g, " ").slice(0, 1500),
				text(t.eligibilityCriteria),
				...items.slice(0, 12),
			];
			console.log(`${head}\n${body.join("\n")}\n`);
		}
		return;
	}
	if (survey) {
		for (const n of notices) {
			const t = (n.releases.at(-1)!.tender ?? {}) as Json;
			const cpv =
				text((t.classification as Json | undefined)?.id) ||
				text(((asList(t.items as Json[])[0] ?? {}).classification as Json | undefined)?.id);
			const line = [n.ocid, parts.get(n.ocid), n.source, n.language, text(t.procurementMethod), text(t.mainProcurementCategory), cpv];
			line.push(text(t.title).replace(/\s+/g, " ").slice(0, 110), text(t.procurementMethodDetails), text(t.eligibilityCriteria));
			line.push(asList(n.releases.at(-1)!.tag as string[]).join(","));
			console.log(line.join("\t"));
		}
		console.error(`${notices.length} notices; date offset ${offsetDays} days (earliest deadline ${new Date(earliest).toISOString()})`);
		return;
	}
	const catalogs = JSON.parse(readFileSync(join(LABELS, "catalogs.json"), "utf8")) as unknown[];
	const qrels = JSON.parse(readFileSync(join(LABELS, "qrels.json"), "utf8")) as { ocid: string; tenant: string }[];
	const signals = JSON.parse(readFileSync(join(LABELS, "signals.json"), "utf8")) as Record<string, unknown>;
	const known = new Set(notices.map((n) => n.ocid));
	const unknownLabels = [...qrels.map((q) => q.ocid), ...Object.keys(signals)].filter((o) => !known.has(o));
	if (unknownLabels.length) throw new Error(`labels name notices that are not in the set: ${[...new Set(unknownLabels)].join(", ")}`);
	// notices.tsv is committed, so it names each notice's origin and never its text; titles.tsv (ignored) is the reading aid.
	const index: string[] = ["ocid\tsplit\tsource\tlanguage\traw_file\trepository\tcommit\tpath"];
	const titles: string[] = ["ocid\tsplit\ttitle"];
	for (const part of ["tune", "measure"] as const) {
		const mine = notices.filter((n) => parts.get(n.ocid) === part);
		const ids = new Set(mine.map((n) => n.ocid));
		const releases = mine.flatMap((n) => n.releases.map((r) => shiftDates(r, offsetDays)));
		const dir = join(SET, part);
		mkdirSync(dir, { recursive: true });
		const pkg = {
			uri: `https://example.invalid/oms/eval/real/${part}/notices.ocds.json`,
			version: "1.1",
			publishedDate: "2026-08-01T00:00:00Z",
			publisher: { name: "Opportunity Matching Service real-notice development set (republished notices, see README.md)" },
			license: "https://creativecommons.org/licenses/by/4.0/",
			publicationPolicy: "Each notice keeps its publisher's licence; see eval/real/README.md and eval/real/SOURCES.json",
			releases,
		};
		writeFileSync(join(dir, "notices.ocds.json"), `${JSON.stringify(pkg, null, 1)}\n`);
		writeFileSync(join(dir, "catalogs.json"), `${JSON.stringify(catalogs, null, 1)}\n`);
		writeFileSync(
			join(dir, "qrels.json"),
			`${JSON.stringify(
				qrels.filter((q) => ids.has(q.ocid)),
				null,
				1,
			)}\n`,
		);
		writeFileSync(
			join(dir, "signals.json"),
			`${JSON.stringify(Object.fromEntries(Object.entries(signals).filter(([o]) => ids.has(o))), null, 1)}\n`,
		);
		for (const n of mine) {
			const s = sources[n.origin];
			const t = (n.releases.at(-1)!.tender ?? {}) as Json;
			index.push([n.ocid, part, n.source, n.language, n.origin, s?.repo ?? "", s?.commit ?? "", s?.path ?? ""].join("\t"));
			titles.push([n.ocid, part, text(t.title).replace(/\s+/g, " ")].join("\t"));
		}
	}
	writeFileSync(join(SET, "notices.tsv"), `${index.join("\n")}\n`);
	writeFileSync(join(SET, "titles.tsv"), `${titles.join("\n")}\n`);
	for (const [file, s] of Object.entries(sources)) s.ocids = notices.filter((n) => n.origin === file).map((n) => n.ocid);
	const sorted = Object.fromEntries(Object.entries(sources).sort(([a], [b]) => a.localeCompare(b)));
	writeFileSync(SOURCES_FILE, `${JSON.stringify(sorted, null, 1)}\n`);
	const build = {
		notices: notices.length,
		date_offset_days: offsetDays,
		earliest_deadline_before_shift: new Date(earliest).toISOString(),
		seed: SEED,
	};
	writeFileSync(join(SET, "build.json"), `${JSON.stringify(build, null, 1)}\n`);
	const tune = [...parts.values()].filter((p) => p === "tune").length;
	console.log(
		`${notices.length} notices (${tune} tune, ${notices.length - tune} measure); dates moved by ${offsetDays} days; under ${relative(ROOT, SET)}`,
	);
}

try {
	main();
} catch (error) {
	// A missing snapshot or a changed blob is an instruction to the person running the build, not a crash.
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
}
