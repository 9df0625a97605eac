// Exists because two services read procedure names: the feeds classify a publisher's own label
// (OCDS procurementMethodDetails, any language) into the normalized procedure, and the signals
// extractor, when a feed states no procedure, looks for a procedure named in the notice's text
// ("Anskaffelsesprosedyre er åpen anbudskonkurranse", "Procedura aperta per l'affidamento ...").
// One vocabulary, so that both read a name the same way.

/** How the buyer picks who may tender, in one vocabulary for every feed (feeds/README.md has each feed's mapping). */
export const PROCEDURE_KINDS = [
	"open",
	"other_single_stage",
	"unrestricted",
	"restricted",
	"selective",
	"limited",
	"negotiated",
	"competitive_dialogue",
	"innovation_partnership",
	"other_multi_stage",
	"qualification_system",
	"call_off",
	"negotiated_without_call",
	"direct_award",
] as const;
export type ProcedureKindName = (typeof PROCEDURE_KINDS)[number];

/** Only an open procedure (its national single-stage kin, a US unrestricted notice) lets anyone tender. */
export function competitionOf(kind: ProcedureKindName | null): "open" | "restricted" | null {
	if (kind === null) return null;
	return kind === "open" || kind === "other_single_stage" || kind === "unrestricted" ? "open" : "restricted";
}

// Procedure names as publishers write them, matched on folded text (lower case, no accents).
// Checked in this order, the first kind that matches wins: "negotiated procedure without
// publication" is not "negotiated", a "non-open procedure" is not "open", and a call-off "under a
// framework set up by open procedure" is a call-off. Greek and Cyrillic names go without \b, which
// only knows ASCII letters.
const NAMES: [ProcedureKindName, RegExp][] = [
	[
		"call_off",
		/\bcall[- ]?offs?\b|\bmini[- ]?competition|\bfurther competition\b|\breopening of competition\b|\bunder (a|an|the) (existing )?framework\b|\bfrom (a|an|the) framework\b|\babruf|\bmarche subsequent|\bmarches subsequents|\bcontratos? basados? en (un )?acuerdo marco|\bderivad[oa] de (un )?acuerdo marco|\bappalto specifico|\badesione (a|ad) (un )?accordo quadro|\bnadere opdracht|\bminicompetitie|\bna podstawie umowy ramowej|\bavrop\b|\bfornyad konkurrensutsattning|\bminiudbud|\bgenabning af konkurrencen|\bminikilpailutus|\bkevennetty kilpailutus/,
	],
	[
		"negotiated_without_call",
		/\bwithout (a )?(prior )?(publication|call for competition|competition notice|notice)\b|\bohne (vorherige |vorherigen )?(bekanntmachung|veroffentlichung|teilnahmewettbewerb|aufruf)|\bsans (publication|mise en concurrence)|\bsin (publicidad|publicacion)|\bsenza (previa )?(pubblicazione|bando)|\bzonder (voorafgaande )?(bekendmaking|aankondiging)|\bbez (uprzedniego )?(ogloszenia|publikacji)|\butan (foregaende )?annonsering|\buden (forudgaende )?offentliggorelse|\buten (forutgaende )?kunngjoring|\bilman (ennakkoilmoitusta|hankintailmoitusta|hankintailmoituksen)|\bfara publicare|\bbez (predchadzajuceho |predchoziho )?(zverejnenia|uverejneni)/,
	],
	[
		"direct_award",
		/\bdirect (award|contract|procurement|purchase)|\bsingle (tender action|source)\b|\bsole[- ]source|\bawarded (directly )?to (a|one) single supplier|\bwithout competition\b|\bnon[- ]?competitive|\bdirektvergabe|\bfreihandige vergabe|\bgre a gre|\battribution directe|\badjudicacion directa|\bcontratacion directa|\baffidamento diretto|\bajuste direto|\bcontratacao direta|\bonderhandse gunning|\benkelvoudig onderhands|\bz wolnej reki|\bdirektupphandling|\bdirekte tildeling|\bdirektekjop|\bdirekteanskaffelse|\bsuorahankinta|\batribuire directa/,
	],
	[
		"competitive_dialogue",
		/\bcompetitive dialogue|\bwettbewerblicher dialog|\bdialogue competitif|\bdialogo competitivo|\bdialog konkurencyjny|\bkonkurrenspraglad dialog|\bkonkurrencepraeget dialog|\bkonkurransepreget dialog|\bconcurrentiegerichte dialoog|\bkilpailullinen neuvottelumenettely|\bdialog competitiv|\bsutazny dialog|\bsoutezni dialog/,
	],
	[
		"innovation_partnership",
		/\binnovation partnership|\binnovationspartnerschaft|\bpartenariat d'innovation|\basociacion para la innovacion|\bpartenariato per l'innovazione|\bpartnerstwo innowacyjne|\binnovationspartnerskap|\binnovasjonspartnerskap|\binnovatiepartnerschap|\binnovaatiokumppanuus|\bparteneriat pentru inovare|\binovacne partnerstvo|\binovacni partnerstvi/,
	],
	[
		"qualification_system",
		/\bqualification system|\bqualifikationssystem|\bprequalification system|\bsysteme de qualification|\bsistema de (clasificacion|calificacion)|\bsistema di qualificazione|\bkwalificatiesysteem|\bsystem kwalifikowania|\bkvalifikasjonsordning|\bkvalificeringssystem|\bkvalifikationsordning|\bpatevyysjarjestelma/,
	],
	[
		"negotiated",
		/\bnegotiated (procedure|with (prior )?(publication|a call))|\bcompetitive (procedure with negotiation|negotiation)|\bnegotiation procedure|\bverhandlungsverfahren|\bprocedure (concurrentielle avec negociation|negociee)|\bprocedimiento (de licitacion )?(con negociacion|negociado)|\bprocedura (competitiva con negoziazione|negoziata)|\bmededingingsprocedure met onderhandeling|\bonderhandelingsprocedure|\bnegocjacje z ogloszeniem|\bforhandlat forfarande|\bupphandling med forhandling|\budbud med forhandling|\bforhandlet procedure|\bkonkurranse med forhandling|\bforhandlet prosedyre|\bneuvottelumenettely|\bprocedura de negociere|\bnegociere competitiva|\bprocedimento de negociacao|\brokovacie konanie|\bjednaci rizeni/,
	],
	[
		"restricted",
		/\brestricted (procedure|tender|competition|call)|\bnon-?open\b|\bselective (tender|procedure)|\bnicht ?offenes? verfahren|\bnichtoffen|\bbeschrankte ausschreibung|\bprocedure restreinte|\bappel d'offres restreint|\bprocedimiento restringido|\blicitacion restringida|\binvitacion (restringida )?a cuando menos|\binvitacion restringida|\bprocedura ristretta|\bniet[- ]openbare|\bprzetarg ograniczony|\bselektivt forfarande|\bbegraenset udbud|\bbegrenset (anbuds|tilbuds)?konkurranse|\brajoitettu menettely|\blicitatie restransa|\bconcurso limitado|\buzsie sutaz|\buzsi rizeni/,
	],
	["other_multi_stage", /\bother multiple stage|\bother multi[- ]stage/],
	["other_single_stage", /\bother single stage/],
	[
		"open",
		/\bopen (procedure|tender|tendering|competition|call for tenders|bidding)|\boffenes verfahren|\boffentliche ausschreibung|\bprocedure ouverte|\bappel d'offres ouvert|\bprocedimiento abierto|\blicitacion publica|\bprocedura aperta|\bopenbare procedure|\bprzetarg nieograniczony|\boppet forfarande|\boffentligt udbud|\bapen (anbuds|tilbuds)?konkurranse|\bavoin menettely|\blicitatie (deschisa|publica)|\bcerere (a|de) ofert|\bconcurso publico|\bprocedimento aberto|\botevrene rizeni|\bverejna sutaz|\bnyilt eljaras|\bodprti postopek|\batklats konkurss|\batviras konkursas|\bavatud hankemenetlus|\botvoreni postupak|ανοικτη διαδικασια|ανοιχτη διαδικασια|открита процедура|відкриті торги/,
	],
];

// Word stems that name a kind only in a field that holds a procedure's name (procurementMethodDetails):
// in running text they would as well match "prices may be negotiated", and "full and open" there
// needs the negations the English text rules handle ("other than full and open competition").
const STEMS: [ProcedureKindName, RegExp][] = [
	["negotiated", /\bnegotiat|\bverhandlung|\bnegocie|\bnegociad|\bnegociacion|\bnegoziat|\bonderhandel|\bnegocjac|\bforhandl|\bneuvottelu|\bnegociere|\bnegociacao/],
	["restricted", /\brestricted\b|\bselective\b|\binvited\b/],
	["open", /^\s*open\b|\bopen\s*$|\bfull and open\b|\bunrestricted\b/],
];

/** Lower case, accents and other combining marks removed, ß as ss, ø, æ, å, œ spelt out, dashes and apostrophes plain. */
export function foldForNames(text: string): string {
	return text
		.normalize("NFD")
		.replace(/\p{M}+/gu, "")
		.toLowerCase()
		.replace(/ß/g, "ss")
		.replace(/ø/g, "o")
		.replace(/œ/g, "oe")
		.replace(/æ/g, "ae")
		.replace(/å/g, "a")
		.replace(/[\u2010-\u2015]/g, "-")
		.replace(/[\u2018\u2019`]/g, "'");
}

const MAX_CHARS = 2_000;

/** The kind a procedure's name names ("Open procedure", "Procedimiento negociado sin publicidad", "Call-off"), or null. */
export function kindOfProcedureName(name: string | null | undefined): ProcedureKindName | null {
	if (!name) return null;
	const folded = foldForNames(name.slice(0, MAX_CHARS));
	for (const [kind, pattern] of NAMES) if (pattern.test(folded)) return kind;
	for (const [kind, pattern] of STEMS) if (pattern.test(folded)) return kind;
	return null;
}

// Kinds a sentence of running text may state about the notice's own procedure. Call-offs, direct
// awards and negotiation without publication are left out: notices that set up a framework describe
// its later call-offs, and EU notices reserve the right to a negotiated procedure without
// publication for repeat work, neither of which is the procedure being run.
const STATED_IN_TEXT = new Set<ProcedureKindName>(["open", "other_single_stage", "restricted", "negotiated", "competitive_dialogue", "innovation_partnership", "qualification_system"]);

/** The procedure a sentence of running text names as this notice's, or null. */
export function procedureNamedIn(sentence: string): ProcedureKindName | null {
	const folded = foldForNames(sentence.slice(0, MAX_CHARS));
	for (const [kind, pattern] of NAMES) {
		if (!pattern.test(folded)) continue;
		// The first name found decides: a sentence naming a call-off is not then read as "open".
		return STATED_IN_TEXT.has(kind) ? kind : null;
	}
	return null;
}
