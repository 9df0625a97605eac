import { codeNature, parseCode } from "./codes.ts";
import type { Language as CpvLanguage } from "../../../shared/taxonomy/index.ts";
import { opensWithServiceLead } from "../../../shared/taxonomy/label-index.ts";
import type { NoticeView, ProcurementNature } from "./types.ts";

// A small stand-in for the signals extractor's procurement_nature: is the notice buying goods,
// or services / construction that merely mention goods? Item classifications decide first (the
// top levels of UNSPSC, CPV and PSC separate goods from services and works); the words of the
// title and item lines decide where codes are missing, and the title can turn a goods-coded
// notice into a mixed one ("Supply and installation ...").

export type ItemNature = "goods" | "services" | "construction";

export interface NatureAssessment {
	nature: ProcurementNature;
	/** Per notice item, in order. */
	items: ItemNature[];
	evidence: string;
}

const SERVICE_WORDS = new RegExp(
	String.raw`\b(services?|maintenance|repairs?|training|instruction|disposal|recycling|removal|decontamination|decommissioning|` +
		String.raw`labou?r|hosting|lease|leasing|rental|hire|calibration|certification services|inspection|cleaning|janitorial|custodial|` +
		String.raw`consult(ing|ancy)|operations and maintenance|o&m|staffing|support services|catering)\b`,
);
const CONSTRUCTION_WORDS =
	/\b(construction|renovation|demolition|design[- ]build|general contractor|construction manager|cm-?r|roof(ing)? replacement|paving|mill and overlay|earthwork|site work|tenant improvements?)\b/;
// A kit for the work is goods ("Conversion kits", "Repair kits", "Upfit kits"), whatever word of work names it.
const GOODS_WORDS =
	/\b(supply of|purchase of|furnish|procurement of|acquisition of|brand name|or equal|equipment|units?|supply only|delivered|kits?)\b/;

function textNature(text: string): ItemNature | null {
	const t = text.toLowerCase();
	if (CONSTRUCTION_WORDS.test(t)) return "construction";
	if (SERVICE_WORDS.test(t)) return "services";
	return null;
}

function itemNature(item: NoticeView["items"][number]): ItemNature {
	const c = item.classification ? parseCode(item.classification.code, item.classification.scheme) : null;
	const byCode = c ? codeNature(c) : null;
	if (byCode) return byCode;
	return textNature(item.description) ?? "goods";
}

/**
 * The title says the notice buys a service ("Rental of generators", "Preventative maintenance and
 * calibration services of balances", "Servicio de mantenimiento y reparación de impresoras"), in
 * English words or, in any language, because every CPV label it reads as is a service.
 */
export function titleReadsAsService(
	notice: NoticeView,
	titleConcepts: readonly string[],
	labelLanguages: readonly CpvLanguage[] = [],
): boolean {
	// A framework named first is how the buyer buys, not what ("Rammeavtale på vedlikehold av aggregat").
	const title = notice.title.toLowerCase().replace(FRAMEWORK_LEAD, "");
	if (GOODS_WORDS.test(title)) return false;
	// Buying named beside the service in another language ("leasing og/eller kjøp av personbiler") may buy the goods:
	// its words then say nothing either way, its CPV reading still does.
	if (!BUYING.test(title)) {
		// What the title's phrase is about comes first ("Rental of ...", "Arrendamiento de ...", "Wartung ..."),
		// or is "services of/for ..."; a service named after the goods ("balances with calibration") leaves them goods.
		if (SERVICE_LEAD.test(title) || /\bservices?\s+(?:of|for|to)\b/.test(title)) return true;
		// Or it ends in the act done to the goods it names before ("CHEVROLET SUBURBAN ARMOURING (M9010-12PL02/A)").
		if (SERVICE_TAIL.test(title)) return true;
		if (labelLanguages.some((l) => l !== "en" && opensWithServiceLead(title, l))) return true;
		if (norwegian(notice, labelLanguages) && NORWEGIAN_SERVICE_LEAD.test(title)) return true;
	}
	const best = titleConcepts[0];
	return best !== undefined && codeNature({ scheme: "CPV", code: best }) === "services";
}

/**
 * Words that, opening a title, say the contract is a supply of the goods it goes on to name, in the
 * languages of the feeds ("Supply of ...", "Lieferung, Montage und Inbetriebnahme von ...",
 * "Fourniture de ...", "Suministro de ..."). The CPV labels hold the act of supplying only in some
 * languages ("fourniture", "suministro"; German, Dutch and Polish labels never say "Lieferung",
 * "levering", "dostawa"), so the words are listed here.
 */
/** Words for buying or supplying in the feeds' languages other than English (a regular expression's alternatives). */
const FOREIGN_SUPPLY_WORDS =
	String.raw`lieferung|beschaffung|anschaffung|kauf|fourniture|livraison|achat|suministro|adquisici[oó]n|compra|` +
	String.raw`levering|leverans|aankoop|anskaffelse|anskaffning|indk[oø]b|inköp|innkj[oø]p|fornitura|acquisto|dostawa|zakup`;

const SUPPLY_LEAD = new RegExp(
	String.raw`^[^\p{L}]*(?:supply|supplying|delivery|purchase|procurement|acquisition|provision|${FOREIGN_SUPPLY_WORDS})(?![\p{L}])`,
	"iu",
);

/** Whether a title opens by saying it buys a supply of goods, whatever its code says (a works code on a supply and installation). */
export function titleOpensWithSupply(title: string): boolean {
	return SUPPLY_LEAD.test(title);
}

const SERVICE_LEAD = new RegExp(
	String.raw`^[^a-z]*(?:[a-z]+\s+-\s+)?(?:rental|hire|lease|leasing|maintenance|repairs?|servic\w*|calibration|inspection|` +
		String.raw`preventa?t?ive maintenance|cleaning|disposal|training|` +
		// Work done to goods the buyer has or buys elsewhere (installation only, fitting out, modification), and events.
		String.raw`installation|installing|upfit(?:ting)?|up-fitting|armou?ring|modifications?|conversions?|retrofit\w*|overhaul\w*|` +
		String.raw`refurbish\w*|reupholster\w*|relocation|` +
		// An event is named with what it is about ("Conference on ..."); "Conference chairs" are goods.
		String.raw`(?:conferences?|seminars?|courses?|workshops?|webinars?)\s+(?:on|about)|` +
		String.raw`(?:organi[sz]ation|organi[sz]ing|hosting)\s+(?:of\s+)?(?:an?\s+|the\s+)?(?:conference|seminar|event|exhibition|workshop))\b`,
);

/** A framework or dynamic purchasing system named before what it buys, with its preposition, in the feeds' languages. */
const FRAMEWORK_LEAD = new RegExp(
	String.raw`^[^\p{L}]*(?:(?:framework(?:\s+agreements?)?|rammeavtaler?|rammeaftaler?|ramavtal|rahmenvertrag|rahmenvereinbarung|` +
		String.raw`accord-cadre|acuerdo marco|accordo quadro|umowa ramowa|raamovereenkomst|dynamisk innkjøpsordning)` +
		String.raw`\s*(?:[-:–]\s*)?(?:for|on|of|om|på|til|för|über|für|pour|de|para|per|dla|voor|van)?\s+(?:the\s+)?)`,
	"iu",
);

/**
 * Norwegian has no CPV labels: its notices are read through the Danish and Swedish ones, and its words for
 * services are spelled otherwise ("vedlikehold", "reparasjon", "utleie": "vedligeholdelse", "reparation",
 * "udlejning"). Those leading a title, listed here like the supply words above.
 */
const NORWEGIAN_SERVICE_LEAD = new RegExp(
	String.raw`^[^\p{L}]*(?:vedlikehold\w*|reparasjon\w*|leie|utleie|leasing|installasjon\w*|rengjøring\w*|renhold\w*|` +
		String.raw`opplæring\w*|kalibrering\w*|kurs|drift|ettersyn\w*|ombygging\w*|oppgradering\w*|service\w*|vask\w*|tjenester?)(?![\p{L}])`,
	"iu",
);

/** Buying named anywhere in a title not in English (the supply words above, and Norwegian "leveranse" and "kjøp"). */
const BUYING = new RegExp(String.raw`(?<![\p{L}])(?:${FOREIGN_SUPPLY_WORDS}|leveranse|kj[oø]p)(?![\p{L}])`, "iu");

function norwegian(notice: NoticeView, labelLanguages: readonly CpvLanguage[]): boolean {
	return /^n[obn]\b/i.test(notice.language ?? "") || (labelLanguages.includes("da") && labelLanguages.includes("sv"));
}

/**
 * Acts done to goods that a title names last, after the goods ("Vehicle armouring", "Ambulance
 * upfitting", "Chair reupholstery"), before a trailing reference in brackets. Not installation: "chairs
 * with installation" buys the chairs.
 */
const SERVICE_TAIL = new RegExp(
	String.raw`\b(?:upfit(?:ting)?|up-fitting|armou?ring|overhaul(?:ing)?|refurbishment|retrofit(?:ting)?|reupholster(?:y|ing)|` +
		String.raw`modifications?|servicing)\s*(?:\([^)]*\))?\s*$`,
);

export function assessNature(notice: NoticeView): NatureAssessment {
	const items = notice.items.map(itemNature);
	const title = notice.title.toLowerCase();
	const titleNature = textNature(title);
	const goodsTitle = GOODS_WORDS.test(title);
	const count = (n: ItemNature) => items.filter((x) => x === n).length;
	const goods = count("goods");
	const services = count("services");
	const works = count("construction");
	let nature: ProcurementNature;
	let evidence: string;
	if (items.length === 0) {
		nature = titleNature ?? (goodsTitle ? "goods" : "unknown");
		evidence = titleNature ? `title reads as ${titleNature}` : "no item lines";
	} else if (works > 0 && works > goods && titleOpensWithSupply(notice.title)) {
		// "Lieferung, Montage und Inbetriebnahme von digitalen Unterrichtstafeln" under a works code: the goods named are bought.
		nature = "mixed";
		evidence = `the title opens with a supply ("${notice.title.slice(0, 60)}") under construction codes`;
		for (let i = 0; i < items.length; i++) if (items[i] === "construction") items[i] = "goods";
	} else if (works > 0 && works > goods) {
		nature = "construction";
		evidence = `${works} of ${items.length} item lines are construction work`;
	} else if (goods === 0) {
		nature = titleNature === "construction" ? "construction" : "services";
		evidence = `no item line buys goods (${services} service, ${works} construction)`;
	} else if (services === 0 && works === 0) {
		if (titleNature === "construction" && !goodsTitle) {
			nature = "construction";
			evidence = "title describes construction work";
		} else if (titleNature === "services" && !goodsTitle) {
			nature = "mixed";
			evidence = "goods item lines under a services title";
		} else {
			nature = "goods";
			evidence = `all ${items.length} item lines buy goods`;
		}
	} else {
		nature = goods >= services + works ? "mixed" : titleNature === "construction" ? "construction" : "services";
		evidence = `${goods} goods and ${services + works} service/construction item lines`;
	}
	return { nature, items, evidence };
}
