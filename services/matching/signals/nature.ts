import type { ProcurementNature } from "../../../shared/contract/opportunities.ts";
import { foldForNames } from "../../../shared/procedure-names.ts";
import type { PreparedNotice } from "./text.ts";

// What is really being bought. Rules, first that applies wins:
//  1. construction: the title names construction work (construction, renovation, design-build, roof
//     replacement, paving...), or construction codes (UNSPSC 7211-7215, CPV 45, PSC Y/Z2, a SAM.gov
//     "Z--" title prefix) come with construction contract language (bonds, Davis-Bacon, notice to
//     proceed, plans and specifications, demolition).
//  2. services: the notice says nothing is bought ("services only", "no equipment is being purchased",
//     "labor only"), or installs what the buyer furnishes, or the head of the title is a service
//     (maintenance, repair, support, training, disposal, recycling, lease, rental, hosting, warranty
//     extension, ... services; "Repair X" / "Maintain X" verbs; "Managed ... Services").
//     A maintenance, repair, installation-only, training or disposal contract that names an OEM's gear
//     is services: the gear is the object of the work, not the purchase.
//  3. goods: "supply only" / installation by others, a supply verb heading the title, or a product is
//     the head of the title (the head is the first " - " segment before "with", "for", "at").
//  4. otherwise (service words only outside the head, a product part beside a service part, a title
//     that names only a procedure) the classification codes vote: UNSPSC segment, CPV division, PSC
//     letter, NAICS sector (half weight). Without title or codes, the lead sentences decide.
//  5. mixed: the title buys goods and an ongoing service ("Supply and Maintenance of ..."), or a supply
//     asks for two or more distinct substantial services (professional/implementation services, data
//     or rule migration, removal of the existing system, multi-year maintenance, deployment planning,
//     train-the-trainer, knowledge transfer, hardware refresh during the term, managed services).
//     Documented rule for supply + install: delivery, installation, commissioning, user training,
//     warranty and bundled support subscriptions are incidental to a supply, so it stays goods.
//  6. nothing to go on: unknown.

export interface NatureResult {
	value: ProcurementNature;
	rule: string;
	evidence: string | null;
}

// "Works" as the head noun of a title names construction work ("Flood Remediation Works").
const WORKS_TITLE = new RegExp(
	`\\b(${["remediation", "civil", "building", "construction", "road", "drainage", "refurbishment", "upgrade"].join("|")}` +
		`|${["landscaping", "earth", "site", "bridge", "sewer", "stormwater", "fit-?out"].join("|")}) works\\b`,
);

const CONSTRUCTION_TITLE = new RegExp(
	[
		String.raw`\bconstruction\b|\brenovation\b|\brenovate\b|\bdesign[- ]build\b|\broof(ing)? (replacement|repairs?|restoration)\b`,
		String.raw`\bre-?roof(ing)?\b|\bpaving\b|\bpavement\b|\bmill and overlay\b|\bdemolition\b|\bgeneral contractor\b|\bremodel(ing)?\b`,
		String.raw`\bresurfacing\b|\bbuilding (addition|expansion)\b|\bnew (\w+ ){0,3}(building|facility|station|school|headquarters)\b`,
		String.raw`\b(bridge|culvert) (replacement|rehabilitation|repair)\b|\bsite work\b|\bsitework\b|\binfrastructure improvements?\b`,
		String.raw`\babatement\b|\bhvac (replacement|upgrade)\b|\bstreetscape\b`,
	].join("|"),
);

const CONSTRUCTION_TEXT = [
	/\bmagnitude of construction\b/,
	/\bdavis-?bacon\b/,
	/\bperformance and payment bonds?\b/,
	/\bbid (bond|guarantee|security)\b/,
	/\bgeneral contractor('s)? licen[cs]e\b|\blicensed general contractors?\b/,
	/\bnotice to proceed\b/,
	/\bplans and specifications\b/,
	/\bconstruction (documents|contract|work|phase|manager)\b/,
	/\bsubstantial completion\b/,
	/\bconstruction\b/,
	/\bdemolition\b/,
	/\bmagnitude\b[^.;]{0,20}\$/,
	/\b(payment|performance) bonds?\b/,
];

// Words that make a title a service when they head a phrase ("Radio Maintenance", "Maintenance of",
// "Maintenance Services", "Copier Lease - ...") but not when they modify a product ("Training
// Ammunition", "Repair Parts", "Cleaning Supplies", "Management Software").
const SERVICE_WORD = [
	"services?|maintenance|repairs?|support|training|disposal|disposition|recycling|removal|decontamination|cleaning|janitorial",
	"custodial|lease|leasing|rental|hire|hosting|consulting|consultancy|implementation|installation|inspections?|transportation",
	"catering|printing|translation|interpretation|interpreting|care|staffing|labou?r|operations|monitoring|subscription renewal",
	"renewals?|management|security officers?|guard|mowing|landscaping|pest control|collection|shredding|calibration|testing",
	"audits?|assessments?|study|studies|survey|evaluation|investigation|design(?![- ]build)|certification|sanitization|laundry",
	"relocation|moving|warrant(y|ies)|extensions?|overhaul|refurbishment|rebuild(ing)?|reconditioning",
].join("|");
const SERVICE_HEAD = new RegExp(
	`\\b(${SERVICE_WORD})(?=$|\\s*[,(:;/&-]|\\s+(and|or|of|for|at|to|in|on|services?|agreement|contract|plan|program|programme|order|only|support|\\d)\\b)` +
		// a managed service ("Managed Detection and Response", "Managed Print Services")
		`|\\bmanaged (detection|security|print|it|network services|services?|hosting|cloud services|endpoint|service provider)\\b` +
		// a verb at the start of the title: "Repair Parking Deck", "Maintain Generators"
		`|^(repair|maintain|service|inspect|install|clean|remove|dispose of|recycle|calibrate|test|renew|lease|rent|hire|operate|train)\\s` +
		`(?!(parts?|kits?|tools?|materials?|supplies|manuals?|equipment|stands?|carts?|rooms?|agents?)\\b)`,
);

// A title that names a procedure, not an object ("Requirement 2027-114", "RFQ 55-12", "Bid Package 3").
const GENERIC_TITLE = new RegExp(
	String.raw`^[\s\d\W]*(requirement|solicitation|contract|project|procurement|tender|notice|acquisition|purchase order|order` +
		String.raw`|bid package|package|rfq|rfp|ifb|itb|lot|call[- ]off)s?\b[\s\d\W]*(no\.?|number|#)?[\s\d\W]*$`,
);

// "Supply of" at the head of a title in the EU's other languages (folded: no accents).
const SUPPLY_WORDS = [
	"lieferung",
	"fourniture",
	"suministro",
	"fornitura",
	"levering",
	"dostawa",
	"leverans",
	"toimitus",
	"dodavka",
	"furnizare",
];
const SUPPLY_HEAD = new RegExp(`^(${[...SUPPLY_WORDS, "fornecimento"].join("|")})\\b|^(προμηθεια|доставка)`);

const GOODS_HEAD =
	/^(supply|purchase|procurement|acquisition|furnish|provision of (goods|equipment))\b|\bsupply (of|and delivery)\b|\bpurchase of\b|\bsupply only\b|\bfurnish\b/;

const SERVICES_ONLY = [
	/\bservices only\b/,
	/\blabou?r only\b/,
	/\bno (new )?(equipment|hardware|products?|goods|radios|devices|replacement equipment|parts)\b[^.;]{0,80}\b(will be|is|are|being) (purchased|procured|acquired|bought|provided|furnished|included)\b/,
	/\bno (new )?(equipment|hardware|products?|goods)\b[^.;]{0,40}\bis being purchased\b/,
	/\bnot (a )?(purchase|procurement|acquisition) of (equipment|goods|products|hardware)\b/,
	/\binstallation only\b/,
	/\binstall(ation of)? (the )?(government|owner|county|city|state|agency|district|customer)[- ](furnished|provided|supplied)\b/,
];

const SUPPLY_ONLY = [
	/\bsupply[- ]only\b/,
	/\binstallation (is|will) not (be )?(included|part of)\b/,
	/\binstallation is not included\b/,
	new RegExp(
		String.raw`\b(installation|installed|install) (will be |is to be |shall be )?(performed|carried out|done|completed|handled|provided)? ?` +
			"by (the )?(county|city|agency|government|district|owner|buyer|department|council|authority|university|college|school" +
			"|facilities|its own|our own|in-house|others|a separate)",
	),
	/\binstalled by [^.;]{0,60}\bunder a separate (contract|agreement)\b/,
	/\b(staff|personnel) will install\b/,
];

// "Supply and Maintenance of ...": the title itself buys goods and an ongoing service.
const SUPPLY_AND_SERVICE =
	/\b(supply|purchase|provision|procurement|furnish\w*)(,? (delivery|installation)\b)*,? and (maintenance|servicing|support|operation|management|hosting|monitoring|managed services?)\b/;

// Lead sentences of a notice without a title or codes.
const LEAD_SERVICE =
	/\b(provide|perform|requires?|seeks?|procure|obtain)\b[^.;]{0,80}\b(services|maintenance|repairs?|training|disposal|cleaning|inspections?|calibration|hosting|support services)\b/;
const LEAD_GOODS =
	/\b(supply|purchase|furnish|deliver|delivery) (of )?[^.;]{0,60}\b(units?|each|pieces|quantity|qty)\b|\b(supply|purchase|acquisition) of\b/;

// Substantial service components of a supply (each counts once).
const SUBSTANTIAL: [string, RegExp][] = [
	["professional services", /\bprofessional services\b/],
	["implementation services", /\bimplementation (services|support)\b|\bsystem implementation\b/],
	["migration", /\bmigrat(e|ion|ing)\b/],
	["deployment planning", /\bdeployment (planning|services)\b/],
	[
		"removal of the existing system",
		/\bremoval (and (disposal|recycling) )?of (the |all )?(existing|old|legacy|replaced)\b|\bremove and dispose of (the )?existing\b/,
	],
	[
		"multi-year maintenance",
		/\b(\d+|one|two|three|four|five|six|seven|ten)[- ]years? (of )?(manufacturer |on-site |full |comprehensive )?(preventive |preventative )?maintenance\b|\bmaintenance and 24x7\b/,
	],
	["train-the-trainer", /\btrain[- ]the[- ]trainer\b/],
	["knowledge transfer", /\bknowledge transfer\b/],
	[
		"hardware refresh",
		/\b(hardware|lifecycle|technology|camera|device|equipment) refresh(es)? (during|over|within|in year)\b|\bat least one (camera |hardware |device )?refresh\b|\blifecycle (hardware )?refresh\b/,
	],
	["managed service", /\bmanaged services?\b/],
];

type Vote = { goods: number; services: number; construction: number };

function codeVote(scheme: string, code: string): Partial<Vote> | null {
	const digits = code.replace(/[^0-9A-Z]/g, "");
	if (scheme === "UNSPSC") {
		const seg = Number.parseInt(digits.slice(0, 2), 10);
		if (!Number.isFinite(seg)) return null;
		if (seg === 72) {
			const family = digits.slice(0, 4);
			return family === "7210" ? { services: 1 } : { construction: 1 };
		}
		if (seg >= 70) return { services: 1 };
		if (seg >= 10) return { goods: 1 };
		return null;
	}
	if (scheme === "CPV") {
		const div = Number.parseInt(digits.slice(0, 2), 10);
		if (!Number.isFinite(div)) return null;
		if (div === 45) return { construction: 1 };
		if (div >= 50) return { services: 1 };
		return { goods: 1 };
	}
	if (scheme === "PSC" || scheme === "FSC") {
		const first = digits.charAt(0);
		if (first >= "0" && first <= "9") return { goods: 1 };
		// Y: construction; Z: maintenance, repair or alteration of real property (Z1 maintenance is a
		// service, Z2 repair/alteration is construction work; a bare "Z--" title prefix counts as Z2).
		if (first === "Y" || digits === "Z" || digits.startsWith("Z2")) return { construction: 1 };
		if (first >= "A" && first <= "Z") return { services: 1 };
		return null;
	}
	if (scheme === "NAICS") {
		const sector = digits.slice(0, 2);
		if (sector === "23") return { construction: 0.5 };
		if (["31", "32", "33", "42", "44", "45"].includes(sector)) return { goods: 0.5 };
		if (sector >= "48" && sector <= "92") return { services: 0.5 };
		return null;
	}
	return null;
}

function byVotes(v: Vote, rule: string): NatureResult {
	if (v.services > v.goods && v.services >= v.construction) return { value: "services", rule, evidence: null };
	if (v.construction > v.goods) return { value: "construction", rule, evidence: null };
	return { value: "goods", rule, evidence: null };
}

function codeVotes(n: PreparedNotice): Vote {
	const v: Vote = { goods: 0, services: 0, construction: 0 };
	const seen = new Set<string>();
	for (const c of n.categories) {
		const key = `${c.scheme}:${c.code}`;
		if (seen.has(key)) continue;
		seen.add(key);
		const r = codeVote(c.scheme, c.code);
		if (!r) continue;
		v.goods += r.goods ?? 0;
		v.services += r.services ?? 0;
		v.construction += r.construction ?? 0;
	}
	return v;
}

// Leading tags: a SAM.gov PSC prefix ("Z--", "70--"), notice types, set-aside and brand tags.
const TITLE_TAGS = new RegExp(
	String.raw`^([a-z0-9]{1,4}\s?--\s?|(` +
		[
			"brand name (only|or equal)|notice of intent( to [a-z ]{0,40}?)?|sources sought|request for (information|quotations?|proposals?)",
			String.raw`rfq|rfp|ifb|itb|combined synopsis\/solicitation|presolicitation|pre-solicitation|solicitation|amendment( \d+)?`,
			String.raw`(8 ?\(a\) |sdvosb |small business |competitive )?(sole[- ]source|set[- ]aside)( award| notice)?`,
			String.raw`(total )?small business set[- ]aside|8 ?\(a\)|sdvosb|hubzone|wosb`,
		].join("|") +
		String.raw`)\s*[-:/|]\s*)`,
);
/** A SAM.gov title prefix: the PSC code ("Z--Repair ...", "J065--Maintenance ..."). */
const TITLE_PSC = /^([a-z][a-z0-9]{0,3}|\d{2,4})\s?--/;

/**
 * The title without leading tags ("Brand Name Only -", "Sources Sought:"), and its head: the first
 * " - " segment, before "with" / "including" (secondary content) and "for" / "at" (purpose, place).
 */
export function titleHead(titleLower: string): { title: string; head: string } {
	let t = titleLower.trim();
	for (let i = 0; i < 3; i++) t = t.replace(TITLE_TAGS, "");
	const first = t.split(/\s[-|]\s/)[0] ?? t;
	const cut = /\s(with|including|incl\.|for|at|in support of)\s/.exec(first);
	return { title: t, head: cut ? first.slice(0, cut.index) : first };
}

function firstHit(
	n: PreparedNotice,
	patterns: readonly RegExp[],
	parts: readonly string[] = ["description", "set_aside", "item"],
): string | null {
	for (const s of n.sentences) {
		if (!parts.includes(s.part)) continue;
		for (const p of patterns) if (p.test(s.lower)) return s.text;
	}
	return null;
}

/** The distinct substantial service components a notice asks for. */
export function substantialServices(n: PreparedNotice): string[] {
	const found: string[] = [];
	for (const [name, re] of SUBSTANTIAL) if (re.test(n.all)) found.push(name);
	return found;
}

/** What the text and codes say, without the structured contract nature. */
function natureFromText(n: PreparedNotice): NatureResult {
	if (!n.title && !n.description && n.items.length === 0) return { value: "unknown", rule: "empty", evidence: null };
	const { title, head } = titleHead(n.titleLower);
	const votes = codeVotes(n);
	const psc = TITLE_PSC.exec(n.titleLower);
	if (psc?.[1]) {
		const v = codeVote("PSC", psc[1].toUpperCase());
		votes.goods += v?.goods ?? 0;
		votes.services += v?.services ?? 0;
		votes.construction += v?.construction ?? 0;
	}
	const totalVotes = votes.goods + votes.services + votes.construction;
	// The word rules read English: in another language they see only cognates ("construction" in
	// "maîtrise d'œuvre ... pour la construction", an architect's service), so the codes speak first.
	// A supply named at the head of the title in any language still decides ("Lieferung, Montage und
	// Inbetriebnahme von ...": supply, installation and commissioning).
	const english = readsAsEnglish(`${n.titleLower} ${n.description.slice(0, 2_000).toLowerCase()}`);
	if (!english && SUPPLY_HEAD.test(foldForNames(head))) return { value: "goods", rule: "supply_title", evidence: n.title };
	if (!english && totalVotes > 0) return byVotes(votes, "codes");

	// 1. construction
	const constructionTitle = CONSTRUCTION_TITLE.test(title) || WORKS_TITLE.test(title);
	if (constructionTitle && !GOODS_HEAD.test(head)) return { value: "construction", rule: "construction_title", evidence: n.title };
	const constructionCues = CONSTRUCTION_TEXT.filter((re) => re.test(n.all)).length;
	const constructionShare = totalVotes > 0 ? votes.construction / totalVotes : 0;
	const strongCodes = votes.construction >= 1; // not a NAICS sector alone
	if (
		strongCodes &&
		((constructionShare >= 0.5 && constructionCues >= 2) || (constructionShare >= 0.75 && constructionCues >= 1 && !GOODS_HEAD.test(head)))
	) {
		return { value: "construction", rule: "construction_codes_and_terms", evidence: firstHit(n, CONSTRUCTION_TEXT) };
	}

	// 2. services, stated
	const servicesOnly = firstHit(n, SERVICES_ONLY, ["title", "description", "set_aside"]);
	if (servicesOnly) return { value: "services", rule: "no_goods_purchased", evidence: servicesOnly };

	// 2-3. the title's head
	const goodsHead = GOODS_HEAD.test(head) || SUPPLY_HEAD.test(foldForNames(head));
	const unanimousServices = votes.services > 0 && votes.goods === 0 && votes.construction === 0;
	// "Bottled Water Delivery and Cooler Rental": a product part beside a service part leaves the title
	// undecided (the codes decide). Only the words before "of" are coordinated parts ("Hire of Vans and
	// Cars" is one service), and a one-word part is a shared modifier ("Snow and Ice Removal").
	const headParts = (head.split(" of ")[0] ?? head).split(/,? and |, /);
	const productPart = headParts.length > 1 && headParts.some((p) => p.trim().split(/\s+/).length >= 2 && !SERVICE_HEAD.test(p));
	const serviceHead = SERVICE_HEAD.test(head) && !productPart;
	const serviceInTitle = SERVICE_HEAD.test(title);
	const supplyOnly = firstHit(n, SUPPLY_ONLY, ["title", "description", "set_aside"]);
	let base: NatureResult | null = null;
	if (serviceHead && !goodsHead && !supplyOnly) base = { value: "services", rule: "service_title", evidence: n.title };
	else if (supplyOnly) base = { value: "goods", rule: "supply_only", evidence: supplyOnly };
	else if (goodsHead) base = { value: "goods", rule: "supply_title", evidence: n.title };
	else if (head.length > 0 && !serviceInTitle && !GENERIC_TITLE.test(head) && !(unanimousServices && votes.services >= 1.5)) {
		base = { value: "goods", rule: "product_title", evidence: n.title };
	}

	// 4. codes decide when the title does not (a service word only outside its head, or a product part
	//    beside a service part); without codes, the head names the object: goods.
	if (base === null) {
		if (totalVotes > 0) base = byVotes(votes, "codes");
		else if (head.length > 0) base = { value: "goods", rule: "product_title", evidence: n.title };
		else {
			// No title and no codes: the lead sentences say what the contractor does or supplies.
			const lead = n.sentences.filter((s) => s.part === "description").slice(0, 3);
			const work = lead.find((s) => LEAD_SERVICE.test(s.lower));
			if (work) base = { value: "services", rule: "lead_sentence", evidence: work.text };
			else if (n.items.some((i) => i.quantity !== null) || lead.some((s) => LEAD_GOODS.test(s.lower)))
				base = { value: "goods", rule: "lead_sentence", evidence: null };
			else return { value: "unknown", rule: "no_cues", evidence: null };
		}
	}

	// 5. mixed
	if (goodsHead && SUPPLY_AND_SERVICE.test(head)) return { value: "mixed", rule: "supply_and_service_title", evidence: n.title };
	if (base.value === "goods" && !supplyOnly) {
		const substantial = substantialServices(n);
		if (substantial.length >= 2) return { value: "mixed", rule: "goods_with_substantial_services", evidence: substantial.join(", ") };
	}
	return base;
}

// English's commonest words. Two different ones are needed: a single "in", "to" or "on" is as
// likely Italian, Polish or French.
const ENGLISH_WORDS = /\b(the|and|of|for|with|to|in|on|is|are|will|be|this|shall|by|from|or|services?|supply)\b/g;

/** Whether the notice's text is English enough for the word rules to read it. */
function readsAsEnglish(lower: string): boolean {
	return new Set(lower.match(ENGLISH_WORDS) ?? []).size >= 2;
}

// The structured contract nature's text rules that may override it: a works code on a title that
// plainly supplies goods or buys a service ("Supply, Installation and Commissioning of Generators",
// "Preventative Maintenance of PABX") is the publisher's default, not the purchase.
const OVERRIDES_WORKS = new Set([
	"supply_title",
	"supply_only",
	"service_title",
	"no_goods_purchased",
	"supply_and_service_title",
	"goods_with_substantial_services",
]);

// A goods code often names the object a service is done to (GSIN "Scales and Balances" on a
// calibration contract, "Generators" on a rental): a title that heads with the service, or a notice
// that says nothing is bought, is services.
const SERVICE_RULES = new Set(["service_title", "no_goods_purchased"]);

/**
 * Structure first: the contract nature the feed codes (OCDS mainProcurementCategory, eForms
 * contract-nature, SAM.gov's PSC) decides, and the text refines it: goods may be mixed (goods with
 * substantial services) or a service the title heads with, works may be a plain supply or service
 * the title states, services stay services. Without a coded nature the text and codes decide (natureFromText).
 */
export function detectNature(n: PreparedNotice): NatureResult {
	const text = natureFromText(n);
	const coded = n.procurementCategory;
	if (coded === null) return text;
	const stated = (value: ProcurementNature): NatureResult => ({ value, rule: "procurement_category", evidence: coded });
	if (coded === "goods") return text.value === "mixed" || SERVICE_RULES.has(text.rule) ? text : stated("goods");
	if (coded === "services") return stated("services");
	return text.value === "construction" || OVERRIDES_WORKS.has(text.rule) ? text : stated("construction");
}
