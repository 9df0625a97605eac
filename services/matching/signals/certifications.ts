import type { NoticeKind } from "./notice-kind.ts";
import { clauses, type PreparedNotice } from "./text.ts";

// Mandatory certifications, listings and compliance regimes, under normalized names.
//
// A mention counts when it is mandatory: not marked preferred/desired/optional/not required, not one
// side of an either/or ("ISO 9001 or AS9100", "... or an equivalent eco-label", "FIPS 140-2/140-3"),
// not said to be inapplicable. Requirement lists (salient characteristics, item lines) are mandatory
// by nature, so a mention needs no "must" to count.
// Left out by construction: licences, insurance, bonds, and specification or test standards
// (MIL-STD-810, IP/IK/NEMA ratings, ASTM methods, protocol standards such as IEEE 802.x): they are
// not in the catalog, and generic standard numbers (ISO, IEC, EN, IEEE, UL, NFPA, ANSI) only count
// next to a certification verb ("certified to", "listed", "compliant with", "built to"...).
// Market-research notices and notices of intent to sole source demand nothing of bidders: [].

interface CertDef {
	/** Normalized name, or a function of the match for numbered families. */
	name: string | ((m: RegExpExecArray) => string | null);
	re: RegExp;
	/** Generic standard numbers: count only next to a certification verb. */
	needsVerb?: boolean;
}

const CERT_VERB =
	/\b(certif\w*|listed|listing|complian\w*|comply|complies|conform\w*|approved|approval|accredit\w*|built to|meets?|meeting|qualified|validated|marked|marking|registered|registration|rated to)\b/i;

const ISO_IEC_JOINT = new Set([
	"17025",
	"17020",
	"17021",
	"17024",
	"17065",
	"20000",
	"27001",
	"27002",
	"27017",
	"27018",
	"27701",
	"15408",
	"42001",
	"19790",
]);
const ISO_NOT_CERT = new Set(["8601", "3166", "4217", "639", "216", "14644", "5"]);

function titleCase(s: string): string {
	return s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

function isoName(m: RegExpExecArray): string | null {
	const num = m[1] ?? "";
	if (ISO_NOT_CERT.has(num)) return null;
	if (num === "20000") return "ISO/IEC 20000-1";
	return ISO_IEC_JOINT.has(num) ? `ISO/IEC ${num}` : `ISO ${num}`;
}

const CATALOG: CertDef[] = [
	// Trade and sourcing regimes
	{ name: "TAA", re: /\bTrade Agreements Act\b|\bTAA\b/gi },
	{ name: "Buy American", re: /\bBuy American\b/gi },
	{ name: "Buy America", re: /\bBuy America\b(?!n)/gi },
	{ name: "Berry Amendment", re: /\bBerry Amendment\b/gi },
	{ name: "NDAA Section 889", re: /\bSection 889\b|\bNDAA\b[^.;]{0,30}?\b889\b|\b889[- ]complian\w*/gi },
	// Accessibility, security and IT
	{ name: "Section 508", re: /\bSection 508\b|\b508[- ]complian\w*|\bRevised 508 Standards\b/gi },
	// "FIPS 140-2/140-3": either version will do, an alternative; the longer match blocks both.
	{ name: "", re: /\bFIPS[- ]?140-[23] ?(\/|or) ?(FIPS[- ]?)?140-[23]\b/gi },
	{ name: "FIPS 140-2", re: /\bFIPS[- ]?140-2\b/gi },
	{ name: "FIPS 140-3", re: /\bFIPS[- ]?140-3\b/gi },
	{ name: "FIPS 201", re: /\bFIPS[- ]?201\b/gi },
	{ name: (m) => (m[1] ? `CMMC Level ${m[1]}` : "CMMC"), re: /\bCMMC\b(?: 2\.0)?(?:[^.;]{0,20}?\b(?:Level|L) ?([1-3])\b)?/gi },
	{ name: "FedRAMP", re: /\bFedRAMP\b/gi },
	{ name: "StateRAMP", re: /\bStateRAMP\b/gi },
	{ name: "TX-RAMP", re: /\bTX-RAMP\b/gi },
	{
		name: "DoDIN APL",
		re: /\bDoDIN APL\b|\bDoDIN Approved Products? List\b|\bDoD Information Network Approved Products? List\b|\bUC APL\b/gi,
	},
	{ name: "NIAP", re: /\bNIAP\b/g },
	{ name: "Common Criteria", re: /\bCommon Criteria\b/gi },
	{ name: "CSfC", re: /\bCSfC\b|\bCommercial Solutions for Classified\b/g },
	{ name: "CJIS", re: /\bCJIS Security Policy\b|\bCJIS[- ]complian\w*|\bCJIS Security Addendum\b/gi },
	{ name: (m) => (/type ?(ii|2)/i.test(m[0]) ? "SOC 2 Type II" : "SOC 2"), re: /\bSOC ?2\b(?: Type ?(?:II|2)\b)?/g },
	{ name: "PCI DSS", re: /\bPCI[- ]DSS\b/gi },
	{ name: "HIPAA", re: /\bHIPAA[- ]complian\w*|\bcompl\w* with HIPAA\b/gi },
	{ name: "Cyber Essentials Plus", re: /\bCyber Essentials (Plus|\+)/gi },
	{ name: "Cyber Essentials", re: /\bCyber Essentials\b(?! (Plus|\+))/gi },
	{ name: "DSPT", re: /\bDSPT\b|\bData Security and Protection Toolkit\b/gi },
	{ name: "ITAR registration", re: /\bITAR[- ]regist\w*/gi },
	{ name: "NIST SP 800-171", re: /\bNIST (SP |Special Publication )?800-171\b/gi },
	{ name: (m) => `WCAG ${m[1]}${m[2] ? ` ${m[2].toUpperCase()}` : ""}`, re: /\bWCAG ?(2\.[0-2])(?: (?:Level )?(AAA|AA|A)\b)?/gi },
	{ name: "HITRUST", re: /\bHITRUST\b/g },
	{ name: "IRS Publication 1075", re: /\bIRS (Pub\.?|Publication) 1075\b/gi },
	{ name: "NEBS", re: /\bNEBS\b(?: Level ?[1-3])?/g },
	{ name: "TEMPEST", re: /\bTEMPEST\b/g },
	// Product listings and marks
	{
		name: "UL",
		re: /\bUL[- ]?(listed|certified|recognized|classified)\b|\b(listed|certified|approved) (by|to|under) UL\b|\bUL ?(?!94\b)\d{2,5}[A-Z]?(-\d+)?\b|\bUnderwriters Laborator(y|ies)\b/g,
	},
	{ name: "UL", re: /\bul[- ](listed|certified)\b|\bunderwriters laborator(y|ies)\b/gi },
	{ name: "ETL", re: /\bETL[- ]?(listed|certified)\b/gi },
	{ name: "ENERGY STAR", re: /\bENERGY STAR\b/gi },
	{ name: "EPEAT", re: /\bEPEAT\b/gi },
	{ name: "WaterSense", re: /\bWaterSense\b/gi },
	{ name: "SmartWay", re: /\bSmartWay\b/gi },
	{ name: "CE marking", re: /\bCE[- ]mark(ed|ing)?\b|\bCE[- ]certified\b/gi },
	{ name: "UKCA marking", re: /\bUKCA[- ]?(mark(ed|ing)?)?\b/gi },
	{ name: "GS mark", re: /\bGS[- ](mark|Zeichen)\b/gi },
	{ name: "Blue Angel", re: /\bBlue Angel\b|\bBlauer Engel\b/gi },
	{ name: "EU Ecolabel", re: /\bEU Ecolabel\b/gi },
	{ name: "Nordic Swan", re: /\bNordic Swan\b/gi },
	{ name: "GREENGUARD", re: /\bGREENGUARD\b/gi },
	{ name: "BIFMA", re: /\bBIFMA\b/g },
	{ name: "FSC", re: /\bFSC\b|\bForest Stewardship Council\b/gi },
	{ name: "PEFC", re: /\bPEFC\b/g },
	{ name: "Green Seal", re: /\bGreen Seal\b/gi },
	{ name: "Safer Choice", re: /\b(EPA )?Safer Choice\b/gi },
	{ name: "ATEX", re: /\bATEX\b/gi },
	{ name: "IECEx", re: /\bIECEx\b/gi },
	{ name: "P25 CAP", re: /\bP25 (CAP|Compliance Assessment Program)\b|\bCompliance Assessment Program \(CAP\)/gi },
	{ name: "Android Enterprise Recommended", re: /\bAndroid Enterprise Recommended\b/gi },
	{ name: "NIOSH", re: /\bNIOSH\b/gi },
	{ name: "FDA 510(k)", re: /\b510 ?\(k\)/gi },
	{ name: "EPA Section 608", re: /\b(EPA )?Section 608\b/gi },
	{ name: "EPA", re: /\bEPA\b(?! Section)(?=[^.;]{0,15}\b(certified|certification|compliant)\b)/gi },
	{ name: "CARB", re: /\bCARB\b(?=[^.;]{0,15}\b(certified|certification|compliant|approved)\b)|\bCalifornia Air Resources Board\b/gi },
	{
		name: (m) => `NIJ Level ${(m[1] ?? "").toUpperCase()}`,
		re: /\bNIJ (?:[^;]{0,30}?\bLevel |Type |Threat Level )?(IIIA|IIA|III\+?|II|IV|HG1|HG2|RF1|RF2|RF3)\b/gi,
	},
	{ name: (m) => `NIJ ${m[1]}`, re: /\bNIJ (?:Standard[- ])?(0\d{3}\.\d{2})\b/gi },
	{ name: "CAAS GVS", re: /\bCAAS[- ]GVS\b|\bCAAS\b/gi },
	{ name: (m) => `FAA Part ${m[1]}`, re: /\b(?:FAA|14 CFR)(?: Part)? ?(135|145|121|107)\b/gi },
	// Quality, management systems and accreditation
	{ name: isoName, re: /\bISO(?:\/IEC)?[ -]?(\d{3,5})(?:-\d{1,2})?(?::\d{4})?\b(?! ?lumens)/g },
	{ name: (m) => `AS${m[1]}`, re: /\b(?:SAE )?AS ?(9100|9110|9120)[A-D]?\b/gi },
	{ name: "IATF 16949", re: /\bIATF ?16949\b/gi },
	{ name: "API Q1", re: /\bAPI (Spec(ification)? )?Q1\b/g },
	{ name: "NADCAP", re: /\bNADCAP\b/gi },
	{ name: "ASME stamp", re: /\bASME ["']?[A-Z]{1,2}["']?[- ]stamp(ed)?\b/g },
	{ name: "Joint Commission accreditation", re: /\bJoint Commission[- ]accredit\w*|\baccredited by the Joint Commission\b/gi },
	{ name: "CARF accreditation", re: /\bCARF\b/g },
	{ name: "NELAP accreditation", re: /\bNELAP\b|\bTNI[- ]accredit\w*/g },
	{ name: "ServSafe", re: /\bServSafe\b/gi },
	{ name: "Gas Safe", re: /\bGas Safe\b/gi },
	{ name: "NICEIC", re: /\bNICEIC\b/g },
	{ name: "CHAS", re: /\bCHAS\b/g },
	{ name: "Constructionline", re: /\bConstructionline\b/gi },
	{ name: "SafeContractor", re: /\bSafeContractor\b/gi },
	{ name: "SSIP", re: /\bSSIP\b/g },
	{ name: "NSI Gold", re: /\bNSI Gold\b/gi },
	{ name: "SSAIB", re: /\bSSAIB\b/g },
	{ name: "LPCB", re: /\bLPCB\b/g },
	{ name: "BAFE", re: /\bBAFE\b/g },
	{ name: "MCS", re: /\bMCS[- ](certified|accredited|registered)\b|\bMicrogeneration Certification Scheme\b/g },
	{ name: "EPA RRP", re: /\bRRP\b|\bLead[- ]Safe Certified\b/g },
	{ name: "AHERA", re: /\bAHERA\b/g },
	{ name: "R2v3", re: /\bR2v3\b|\bR2 ?(version|v) ?3\b/gi },
	{ name: "R2", re: /\bR2(:2013)?\b(?=[- ](certified|certification)\b)/g },
	{ name: "e-Stewards", re: /\be-?Stewards\b/gi },
	{ name: "NAID AAA", re: /\bNAID AAA\b/gi },
	{ name: "HLAC", re: /\bHLAC\b|\bHealthcare Laundry Accreditation Council\b/gi },
	{ name: "CQC registration", re: /\bregistered with the (CQC|Care Quality Commission)\b|\b(CQC|Care Quality Commission) regist\w*/gi },
	{ name: "Lexcel", re: /\bLexcel\b/gi },
	{ name: "CMMI", re: /\bCMMI\b/g },
	{ name: "HACCP", re: /\bHACCP\b/g },
	{ name: "SQF", re: /\bSQF\b/g },
	{ name: "BRCGS", re: /\bBRCGS?\b/g },
	{ name: "USDA Organic", re: /\bUSDA Organic\b/gi },
	// Personnel certifications
	{ name: (m) => `NICET${m[1] ? ` Level ${m[1].toUpperCase()}` : ""}`, re: /\bNICET\b(?: Level (IV|III|II|I|[1-4]))?/g },
	{ name: "BICSI RCDD", re: /\bRCDD\b/g },
	{ name: (m) => `OSHA ${m[1]}`, re: /\bOSHA[- ]?(10|30)(?:-hour)?\b/g },
	{ name: "PMP", re: /\bPMP\b/g },
	{ name: "CISSP", re: /\bCISSP\b/g },
	{ name: "CISM", re: /\bCISM\b/g },
	{ name: "CompTIA Security+", re: /\b(CompTIA )?Security\+/g },
	{ name: (m) => `DoD ${m[1]}`, re: /\bDoD(?:D|I)? ?(8570|8140)(?:\.01-M)?\b/g },
	{ name: "CCNA", re: /\bCCNA\b/gi },
	{
		name: (m) => (m[1] ? `CCNP ${titleCase(m[1])}` : "CCNP"),
		re: /\bCCNP(?: (Enterprise|Security|Data Center|Collaboration|Service Provider))?\b/gi,
	},
	{
		name: (m) => (m[1] ? `CCIE ${titleCase(m[1])}` : "CCIE"),
		re: /\bCCIE(?: (Enterprise Infrastructure|Enterprise Wireless|Security|Data Center|Collaboration|Service Provider))?\b/gi,
	},
	{ name: "ITIL", re: /\bITIL\b/g },
	{ name: "CompTIA A+", re: /\bCompTIA A\+/g },
	{ name: "CompTIA Network+", re: /\b(CompTIA )?Network\+/g },
	{ name: (m) => `AWS ${m[1]}`, re: /\bAWS (D\d{1,2}\.\d{1,2})\b/g, needsVerb: true },
	{ name: (m) => `IPC ${m[1]}`, re: /\bIPC[- ](J-STD-\d{3}|A-\d{3})\b/g, needsVerb: true },
	{ name: (m) => `BS ${m[1]}`, re: /\bBS ?(\d{3,5}(?:-\d{1,2})?)\b(?!:?\s?EN)/g, needsVerb: true },
	// Standards by number: only next to a certification verb
	{ name: (m) => `IEC ${m[1]}`, re: /\bIEC ?(\d{4,5}(?:-\d{1,2}){0,2})\b/g, needsVerb: true },
	{ name: (m) => (/^802|^1588/.test(m[1] ?? "") ? null : `IEEE ${m[1]}`), re: /\bIEEE ?(\d{3,4}(?:\.\d{1,2})?)\b/g, needsVerb: true },
	// "EN ISO 13485" is the ISO standard: left to the ISO pattern.
	{ name: (m) => (/ISO/.test(m[0]) ? null : `EN ${m[1]}`), re: /\b(?:BS )?EN ?(?:ISO ?)?(\d{3,5}(?:-\d{1,2}){0,2})\b/g, needsVerb: true },
	{ name: (m) => `NFPA ${m[1]}`, re: /\bNFPA ?(\d{2,4}[A-Z]?)\b/g, needsVerb: true },
	{ name: (m) => `NSF/ANSI ${m[1]}`, re: /\bNSF(?:\/ANSI)?[ /-]?(\d{1,3})\b/g, needsVerb: true },
	{ name: (m) => `ANSI/${m[1]} ${m[2]}`, re: /\bANSI\/([A-Z]{2,6}) ?([A-Z]?\d{1,4}(?:\.\d{1,3})?)\b/g, needsVerb: true },
	{ name: (m) => `ANSI ${m[1]}`, re: /\bANSI ([A-Z]\d{1,3}\.\d{1,3})\b/g, needsVerb: true },
];

// Long-tail names not in the catalog.
// "<Vendor> Certified <Role>" (ServiceNow Certified Technical Architect, AWS Certified Solutions Architect...).
const VENDOR_CERTIFIED =
	/\b([A-Z][A-Za-z0-9&-]*(?: [A-Z][A-Za-z0-9&-]*){0,3}) Certified ([A-Z][A-Za-z-]+(?: [A-Z][A-Za-z-]+){0,4})(?: \(([A-Z]{2,10})\))?/g;
// "must hold (a current) <Name> certification/accreditation".
const HOLD_NAMED = new RegExp(
	String.raw`\b(?:hold|holds|possess|possesses|maintain|maintains|have|has)(?: an?| the)?(?: current| valid| active| current and valid)?` +
		String.raw` ([A-Z0-9][A-Za-z0-9+/&.]*(?: (?:[A-Z0-9][A-Za-z0-9+/&.]*|and [A-Z][A-Za-z0-9]*)){0,3}) (certification|accreditation)\b`,
	"g",
);
// "<Name> certification is required".
const NAMED_REQUIRED =
	/\b([A-Z0-9][A-Za-z0-9+/&.]*(?: [A-Z0-9][A-Za-z0-9+/&.]*){0,3}) (certification|accreditation) (is |are )?(required|mandatory)\b/g;
// Set-aside programs, registrations and words that are not certification names.
const GENERIC_EXCLUDE = new RegExp(
	`^(${[
		String.raw`SBA|VetCert|HUB ?Zone|HUBZone|8\(a\)|E?D?WOSB|SDVOSB|VOSB|DBE|MBE|WBE|DVBE|SBE|HUB|SAM|UEI|CAGE|OEM|OEMs|FAR|GSA`,
		"DOD|DoD|DOT|USA|US|FDA|State|Federal|Business|Small Business|Veteran|Manufacturer|Factory|Vendor|Offeror|Contractor",
		"Bidder|Supplier|Quality|Safety|Security|Professional|Current|Valid|Insurance|Tax|Payroll|Completion|Conformance|Origin",
		"Calibration|Training|Sanitization|Destruction|Disposal|Recycling|Warranty|Delivery|Inspection|Test|Testing|Employee",
		"Personnel|Staff|Technician|All|Each|Any|This|The|Such|Proof|Evidence|Written|Signed|Annual|Final|Initial",
	].join("|")})\\b`,
);
const NAME_STOP = new Set([
	"The",
	"A",
	"An",
	"All",
	"Each",
	"Any",
	"Our",
	"Their",
	"Its",
	"This",
	"That",
	"Must",
	"Shall",
	"Offeror",
	"Offerors",
	"Contractor",
	"Contractors",
	"Vendor",
	"Vendors",
	"Bidder",
	"Bidders",
	"Supplier",
	"Suppliers",
	"Quoter",
	"Quoters",
	"Quotes",
	"Current",
	"Valid",
	"State",
	"Federal",
	"Government",
	"Agency",
	"County",
	"City",
	"District",
	"Department",
]);
const ROLE_STOP = new RegExp(
	`^(${[
		"Refurbished|Pre-Owned|Used|Renewed|Products?|Equipment|Parts?|Materials?|Cop(y|ies)|Payroll|Mail|Checks?|Translations?",
		"Calibration|Statements?|Letters?|Documents?|Records?|Reports?|Funds|Cost|Pricing|Data|Inspection|Tests?|Copy",
	].join("|")})$`,
);

const WEAK = new RegExp(
	[
		String.raw`\bprefer\w*|\bdesir(ed|able)\b|\bencourag\w*|\boptional\b|\bnice to have\b|\badvantageous\b|\bbonus\b|\bfavou?rabl\w*`,
		String.raw`\bnot (be )?(required|mandatory)\b|\bwill be considered\b|\b(extra|additional) (points|credit|consideration)\b`,
		String.raw`\bevaluation credit\b|\b(will|may) be scored\b|\bwelcome\b|\b(is|are|would be|will be) (a |an )?(plus|asset|advantage)\b`,
	].join("|"),
);
// A FAR/DFARS clause number just before the mention: a clause title incorporated by reference.
const CLAUSE_TITLE = /\b(52|252)\.\d{3}-\d{1,4}\b[^.;]{0,12}$/;
const INAPPLICABLE = /\bnot appl(y|icable)\b|\bdoes not apply\b|\bexempt(ed)? from\b|\bwaived\b|\bn\/a\b/;
// "X or an equivalent (label)": X is one alternative. Kept short so that "TAA-compliant switch, Cisco
// C9300 or equal" (the product has an equal, not the regime) does not count.
const ALTERNATIVE_AFTER = new RegExp(
	String.raw`^\s*(\([^)]{0,40}\))?[\s,]*` +
		"(certification|certified|accreditation|accredited|listing|listed|mark|marking|label|compliant|compliance|standard|scheme)?" +
		String.raw`[\s,]*\(?or (an? |any |other )?(equivalent|equal|comparable|similar)\b`,
	"i",
);

// "... in accordance with X, or the offeror must state ...": X is one way to comply, not a must.
const ALTERNATIVE_COURSE =
	/^[^.;]{0,60}?,? or (else )?(the |an? )?(offeror|bidder|vendor|contractor|supplier|tenderer|quoter|respondent)s? (must|shall|may|can|will)\b/i;

interface Mention {
	name: string;
	start: number;
	end: number;
	generic: boolean;
}

function catalogMentions(text: string): Mention[] {
	const found: Mention[] = [];
	for (const def of CATALOG) {
		def.re.lastIndex = 0;
		let guard = 0;
		for (let m = def.re.exec(text); m !== null && guard < 50; m = def.re.exec(text), guard++) {
			if (m[0].length === 0) {
				def.re.lastIndex++;
				continue;
			}
			const name = typeof def.name === "string" ? def.name : def.name(m);
			if (name === null) continue;
			if (def.needsVerb) {
				const around = text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 30);
				if (!CERT_VERB.test(around)) continue;
			}
			found.push({ name, start: m.index, end: m.index + m[0].length, generic: false });
		}
	}
	return found;
}

function singular(word: string): string {
	if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
	if (/[^s]s$/.test(word)) return word.slice(0, -1);
	return word;
}

function genericMentions(text: string): Mention[] {
	const found: Mention[] = [];
	VENDOR_CERTIFIED.lastIndex = 0;
	let guard = 0;
	for (let m = VENDOR_CERTIFIED.exec(text); m !== null && guard < 20; m = VENDOR_CERTIFIED.exec(text), guard++) {
		const vendorWords = (m[1] ?? "").split(" ");
		while (vendorWords.length > 0 && NAME_STOP.has(vendorWords[0] ?? "")) vendorWords.shift();
		if (vendorWords.length === 0) continue;
		const roleWords = (m[2] ?? "").split(" ");
		if (ROLE_STOP.test(roleWords[0] ?? "")) continue;
		const last = roleWords.length - 1;
		roleWords[last] = singular(roleWords[last] ?? "");
		const suffix = m[3] ? ` - ${m[3]}` : "";
		found.push({
			name: `${vendorWords.join(" ")} Certified ${roleWords.join(" ")}${suffix}`,
			start: m.index,
			end: m.index + m[0].length,
			generic: true,
		});
	}
	for (const re of [HOLD_NAMED, NAMED_REQUIRED]) {
		re.lastIndex = 0;
		guard = 0;
		for (let m = re.exec(text); m !== null && guard < 20; m = re.exec(text), guard++) {
			const words = (m[1] ?? "").split(" ");
			while (words.length > 0 && NAME_STOP.has(words[0] ?? "")) words.shift();
			// "R2v3 and NAID AAA certification": two names.
			for (const part of words.join(" ").split(" and ")) {
				const name = part.trim();
				if (name.length < 2 || !/[A-Z]/.test(name) || GENERIC_EXCLUDE.test(name)) continue;
				const start = m.index + m[0].indexOf(name);
				found.push({ name, start, end: start + name.length, generic: true });
			}
		}
	}
	return found;
}

/** Mentions in a sentence, catalog first; a generic mention overlapping a catalog one is dropped, and so is a shorter overlapping catalog one. */
function mentionsIn(text: string): Mention[] {
	const catalog = catalogMentions(text).sort((a, b) => b.end - b.start - (a.end - a.start));
	const kept: Mention[] = [];
	const overlaps = (m: Mention) => kept.some((k) => m.start < k.end && k.start < m.end);
	for (const m of catalog) if (!overlaps(m)) kept.push(m);
	for (const m of genericMentions(text)) if (!overlaps(m)) kept.push(m);
	return kept.sort((a, b) => a.start - b.start);
}

// Between two mentions of one list: punctuation, a conjunction, a certification noun.
const LIST_GAP =
	/^[\s,)]*(\([^)]{0,40}\))?[\s,]*((certification|certified|accreditation|accredited|listing|listed|compliant|compliance|standard)s?[\s,]*)?((or|and\/or|and)\s+)?(an? |the )?$/i;

/** Which mentions of one clause are mandatory. */
function mandatoryInClause(clause: string, mentions: Mention[]): Mention[] {
	const lower = clause.toLowerCase();
	if (INAPPLICABLE.test(lower)) return [];
	const excluded = new Set<number>();
	// Group the mentions into lists ("X, Y and Z", "X or Y"). A list is a set of alternatives when one
	// of its links is "or", when it ends in "or (an) equivalent" / ", or the offeror may ...", or when
	// "either" introduces it: all of its members are then left out.
	let chainStart = 0;
	let alternative = false;
	const closeChain = (end: number) => {
		const first = mentions[chainStart];
		const last = mentions[end];
		if (!first || !last) return;
		const nextStart = mentions[end + 1]?.start ?? last.end + 80;
		const after = clause.slice(last.end, Math.min(nextStart, last.end + 80));
		if (ALTERNATIVE_AFTER.test(after) || ALTERNATIVE_COURSE.test(after)) alternative = true;
		if (/\beither\b/.test(lower.slice(Math.max(0, first.start - 30), first.start))) alternative = true;
		if (alternative) for (let k = chainStart; k <= end; k++) excluded.add(k);
	};
	for (let i = 0; i < mentions.length; i++) {
		const m = mentions[i];
		const next = mentions[i + 1];
		if (!m) continue;
		if (next) {
			const gap = clause.slice(m.end, next.start);
			if (LIST_GAP.test(gap)) {
				if (/\bor\b/i.test(gap)) alternative = true;
				continue;
			}
		}
		closeChain(i);
		chainStart = i + 1;
		alternative = false;
	}
	const out: Mention[] = [];
	for (let i = 0; i < mentions.length; i++) {
		const m = mentions[i];
		if (!m || excluded.has(i)) continue;
		const before = lower.slice(Math.max(0, m.start - 30), m.start);
		// "NFPA 1970 (which consolidates the former NFPA 1971)": a superseded standard is no requirement.
		if (/\b(former(ly)?|previous(ly)?|superseded|supersedes|replaces|replaced|legacy|obsolete)\b[^.;]{0,12}$/.test(before)) continue;
		if (CLAUSE_TITLE.test(clause.slice(Math.max(0, m.start - 30), m.start))) continue;
		// Weak markers count in the stretch of the clause that belongs to this mention.
		const prev = mentions[i - 1];
		const next = mentions[i + 1];
		const from = Math.max(prev ? prev.end : 0, m.start - 80);
		const to = Math.min(next ? next.start : clause.length, m.end + 80);
		if (WEAK.test(lower.slice(from, to))) continue;
		out.push(m);
	}
	return out;
}

export interface CertificationsResult {
	names: string[];
	evidence: Record<string, string>;
}

export function detectCertifications(n: PreparedNotice, kind: NoticeKind): CertificationsResult {
	const found: Mention[] = [];
	const evidence: Record<string, string> = {};
	if (kind.marketResearch || kind.soleSourceNotice) return { names: [], evidence };
	for (const s of n.sentences) {
		// Cheap pre-filter: most sentences mention nothing certification-like.
		if (!/[A-Z]{2}|certif|accredit|listed|complian|stewards|essentials|energy star|section|mark/i.test(s.text)) continue;
		for (const clause of clauses(s.text)) {
			const mentions = mentionsIn(clause);
			if (mentions.length === 0) continue;
			for (const m of mandatoryInClause(clause, mentions)) {
				if (m.name === "" || found.some((f) => f.name === m.name)) continue;
				found.push(m);
				evidence[m.name] = s.text;
			}
		}
	}
	// A generic name that only repeats part of a catalog name ("NSF" beside "NSF/ANSI 49") is dropped.
	const catalogNames = found.filter((m) => !m.generic).map((m) => m.name.toLowerCase());
	const names = found
		.filter((m) => !m.generic || !catalogNames.some((c) => c.startsWith(m.name.toLowerCase()) || m.name.toLowerCase().startsWith(c)))
		.map((m) => m.name);
	return { names: names.slice(0, 30), evidence };
}
