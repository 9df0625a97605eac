import type { NoticeKind } from "./notice-kind.ts";
import type { PreparedNotice } from "./text.ts";

// OEM-related demands.
// requires_manufacturer: the buyer buys from the manufacturer itself: a sole-source / direct award to
//   the OEM (its proprietary product or service), or "available only directly from the manufacturer".
//   Buying a genuine brand through any authorized reseller does not count: that is a documentation demand.
// requires_oem_documentation: the bidder must prove its place in the OEM's channel: a letter of
//   authorization (LOA), manufacturer authorization documentation, proof of authorized reseller /
//   dealer / distributor / partner status, traceability documentation to the approved manufacturer,
//   or a plain demand to be an authorized reseller (whose proof the buyer will ask for).
// Market-research notices (sources sought, RFI) demand nothing, so both stay false there.

export interface OemResult {
	requiresManufacturer: boolean;
	manufacturerEvidence: string | null;
	requiresDocumentation: boolean;
	documentationEvidence: string | null;
}

const AUTH = "authori[sz]";
const CHANNEL_ROLE =
	"(?:resellers?|re-sellers?|dealers?|distributors?|partners?|channel partners?|value[- ]added resellers?|vars?|training partners?|suppliers?|service providers?|service centers?|service centres?)";
// Words between "must be" and "authorized" that are a brand, not a signature ("must be signed by an
// authorized official" is boilerplate about the quote, not about the OEM channel).
const BRAND_WORDS = "((?!(by|signed|submitted|executed|completed|certified|approved|made|issued|provided)\\b)\\S+ ){0,3}";

const DOCUMENTATION = [
	new RegExp(`\\bletters? of ${AUTH}ation\\b`),
	/\bloas?\b/,
	new RegExp(`\\b${AUTH}ation letters?\\b`),
	new RegExp(`\\b(manufacturer|oem|factory)('s|s')? ${AUTH}ation (letter|certificate|documentation|form|statement|evidence)`),
	new RegExp(`\\b${AUTH}ation (documentation|certificate)\\b`),
	new RegExp(
		`\\bproof of (${AUTH}ation|(${AUTH}ed )?(reseller|partner|dealer|distributor)(ship)? status|partner(ship)? status|status as an? ${AUTH}ed)`,
	),
	// "evidence that the offeror is an authorized <Brand> dealer"
	new RegExp(
		`\\b(evidence|proof|documentation|confirmation|certification|letter|certificate)\\b[^.;]{0,80}\\b(${AUTH}ed (\\S+ ){0,4}${CHANNEL_ROLE}\\b|${AUTH}ation to (sell|resell|distribute|supply|offer))`,
	),
	new RegExp(
		`\\b(documentation|letter|confirmation|certificate)\\b[^.;]{0,40}\\bfrom (the )?(original equipment )?(manufacturer|oem)\\b[^.;]{0,60}\\b${AUTH}`,
	),
	// "a letter from <Manufacturer> confirming authorization"
	new RegExp(
		`\\b(letter|documentation|confirmation|certificate|statement)\\b[^.;]{0,60}\\b(confirming|certifying|verifying|attesting|evidencing) ` +
			`(its |their |the (bidder|offeror|vendor|quoter)'s )?(${AUTH}ation|${AUTH}ed|(reseller|partner|dealer|distributor) status)`,
	),
	/\btraceability documentation\b/,
	new RegExp(`\\b(partner|partnership|reseller|dealer|distributor|${AUTH}ation) (certificate|letter|documentation|proof|verification)\\b`),
	/\bmaf\b/,
	/\bproof of (an? )?(active |current )?(oem |manufacturer )?partnership\b/,
	/\bcertificates? of conformance from the (approved )?(original equipment )?(manufacturer|oem)\b/,
];

// Being in the channel is itself demanded (the proof follows).
const CHANNEL_REQUIRED = [
	// "must be an authorized <Brand> channel partner"
	new RegExp(
		`\\b(must|shall|will need to) be (an? |the )?${BRAND_WORDS}${AUTH}ed (by the (original equipment )?(manufacturer|oem) )?((\\S+ ){0,4}${CHANNEL_ROLE}|to (sell|resell|distribute|supply))\\b`,
	),
	new RegExp(`\\b(must|shall) be ${AUTH}ed by the (original equipment )?(manufacturer|oem)\\b`),
	new RegExp(`\\b(manufacturer|oem|factory)[- ]${AUTH}ed ${CHANNEL_ROLE} only\\b`),
	new RegExp(`\\bonly (from )?(manufacturer[- ]|oem[- ])?${AUTH}ed ${CHANNEL_ROLE}\\b`),
	new RegExp(`\\b${AUTH}ed ${CHANNEL_ROLE} only\\b`),
	new RegExp(`\\bor (its|their) ${AUTH}ed ${CHANNEL_ROLE}\\b`),
	// "Offerors must be the manufacturer or an authorized reseller"
	new RegExp(
		`\\b(must|shall) be (the |an? )?(original equipment )?(manufacturer|oem)s? or (an? |its |their )?${AUTH}ed ${CHANNEL_ROLE}\\b`,
	),
];

const NOT_OEM_CONTEXT = new RegExp(`\\b(defense|defence) ${AUTH}ation act\\b|\\bndaa\\b`);

const MANUFACTURER_DIRECT = [
	/\b(sold|available|licensed|offered|provided|supplied|purchased|procured|obtained) (only |exclusively |solely )?directly (from|by|through) the (original equipment )?(manufacturer|oem)\b/,
	/\b(sold|available|licensed|offered|purchased|procured|obtained|accepted) (only|exclusively|solely) (directly )?(from|by|through) the (original equipment )?(manufacturer|oem)\b/,
	/\b(manufacturer|oem)[- ]direct (purchase|procurement|order|sale)s?\b/,
	/\bthe (original equipment )?(manufacturer|oem) is the (only|sole|exclusive) (source|supplier|provider|vendor|distributor)\b/,
	/\bonly the (original equipment )?(manufacturer|oem) (can|may|is able to|has)\b/,
	/\bonly (be )?(accepted|purchased|procured|bought|ordered) (directly )?from the (original equipment )?(manufacturer|oem)\b/,
	/\b(offerors?|bidders?|vendors?|quoters?|suppliers?|contractors?) must be the (original equipment )?(manufacturer|oem)\b(?! or)/,
	/\b(offers|quotes|bids) (will be )?(accepted )?from (the )?(original equipment )?manufacturers? only\b/,
];

const MANUFACTURER_WORD =
	/\b(original equipment )?manufacturer('s)?\b|\boem\b|\bproprietary\b|\bfactory[- ](certified|trained|authori[sz]ed)\b/;

export function detectOem(n: PreparedNotice, kind: NoticeKind): OemResult {
	const out: OemResult = {
		requiresManufacturer: false,
		manufacturerEvidence: null,
		requiresDocumentation: false,
		documentationEvidence: null,
	};
	if (kind.marketResearch) return out;

	for (const s of n.sentences) {
		if (!out.requiresDocumentation) {
			const lower = s.lower;
			const doc =
				DOCUMENTATION.some((re) => re.test(lower)) &&
				!(NOT_OEM_CONTEXT.test(lower) && !new RegExp(`${AUTH}ed ${CHANNEL_ROLE}|letter of ${AUTH}ation`).test(lower));
			if (doc || CHANNEL_REQUIRED.some((re) => re.test(lower))) {
				out.requiresDocumentation = true;
				out.documentationEvidence = s.text;
			}
		}
		if (!out.requiresManufacturer && MANUFACTURER_DIRECT.some((re) => re.test(s.lower))) {
			out.requiresManufacturer = true;
			out.manufacturerEvidence = s.text;
		}
	}

	// A sole-source award whose justification rests on the manufacturer (its proprietary product,
	// parts or service) is a purchase from the manufacturer.
	if (!out.requiresManufacturer && kind.soleSourceMention) {
		const m = n.sentences.find((s) => MANUFACTURER_WORD.test(s.lower));
		if (m) {
			out.requiresManufacturer = true;
			out.manufacturerEvidence = m.text;
		}
	}
	return out;
}
