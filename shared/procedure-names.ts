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

/**
 * One pattern from a list of names (regular-expression fragments): a name that starts with an
 * ASCII letter must start a word; Greek and Cyrillic names go without \b, which only knows ASCII.
 */
function namesPattern(names: readonly string[]): RegExp {
	return new RegExp(names.map((n) => (/^[a-z(]/.test(n) ? `\\b${n}` : n)).join("|"));
}

function compile(lists: readonly (readonly [ProcedureKindName, readonly string[]])[]): [ProcedureKindName, RegExp][] {
	return lists.map(([kind, names]) => [kind, namesPattern(names)]);
}

// Procedure names as publishers write them, matched on folded text (lower case, no accents).
// Checked in this order, the first kind that matches wins: "negotiated procedure without
// publication" is not "negotiated", a "non-open procedure" is not "open", a call-off "under a
// framework set up by open procedure" is a call-off, and a "qualification system without call for
// competition" is a qualification system.
const NAMES = compile([
	[
		"call_off",
		[
			"call[- ]?offs?\\b",
			"mini[- ]?competition",
			"further competition\\b",
			"reopening of competition\\b",
			"under (a|an|the) (existing )?framework\\b",
			"from (a|an|the) framework\\b",
			"abruf",
			"marche subsequent",
			"marches subsequents",
			"contratos? basados? en (un )?acuerdo marco",
			"derivad[oa] de (un )?acuerdo marco",
			"appalto specifico",
			"adesione (a|ad) (un )?accordo quadro",
			"nadere opdracht",
			"minicompetitie",
			"na podstawie umowy ramowej",
			"avrop\\b",
			"fornyad konkurrensutsattning",
			"miniudbud",
			"genabning af konkurrencen",
			"minikilpailutus",
			"kevennetty kilpailutus",
		],
	],
	[
		"qualification_system",
		[
			"qualification system",
			"qualifikationssystem",
			"prequalification system",
			"systeme de qualification",
			"sistema de (clasificacion|calificacion)",
			"sistema di qualificazione",
			"kwalificatiesysteem",
			"system kwalifikowania",
			"kvalifikasjonsordning",
			"kvalificeringssystem",
			"kvalifikationsordning",
			"patevyysjarjestelma",
		],
	],
	[
		"negotiated_without_call",
		[
			"without (a )?(prior )?(publication|call for competition|competition notice|notice)\\b",
			"ohne (vorherige |vorherigen )?(bekanntmachung|veroffentlichung|teilnahmewettbewerb|aufruf)",
			"sans (publication|mise en concurrence)",
			"sin (publicidad|publicacion)",
			"senza (previa )?(pubblicazione|bando)",
			"zonder (voorafgaande )?(bekendmaking|aankondiging)",
			"bez (uprzedniego )?(ogloszenia|publikacji)",
			"utan (foregaende )?annonsering",
			"uden (forudgaende )?offentliggorelse",
			"uten (forutgaende )?kunngjoring",
			"ilman (ennakkoilmoitusta|hankintailmoitusta|hankintailmoituksen)",
			"fara publicare",
			"bez (predchadzajuceho |predchoziho )?(zverejnenia|uverejneni)",
		],
	],
	[
		"direct_award",
		[
			"direct (award|contract|procurement|purchase)",
			"single (tender action|source)\\b",
			"sole[- ]source",
			"awarded (directly )?to (a|one) single supplier",
			"without competition\\b",
			"non[- ]?competitive",
			"direktvergabe",
			"freihandige vergabe",
			"gre a gre",
			"attribution directe",
			"adjudicacion directa",
			"contratacion directa",
			"affidamento diretto",
			"ajuste direto",
			"contratacao direta",
			"onderhandse gunning",
			"enkelvoudig onderhands",
			"z wolnej reki",
			"direktupphandling",
			"direkte tildeling",
			"direktekjop",
			"direkteanskaffelse",
			"suorahankinta",
			"atribuire directa",
		],
	],
	[
		"competitive_dialogue",
		[
			"competitive dialogue",
			"wettbewerblicher dialog",
			"dialogue competitif",
			"dialogo competitivo",
			"dialog konkurencyjny",
			"konkurrenspraglad dialog",
			"konkurrencepraeget dialog",
			"konkurransepreget dialog",
			"concurrentiegerichte dialoog",
			"kilpailullinen neuvottelumenettely",
			"dialog competitiv",
			"sutazny dialog",
			"soutezni dialog",
		],
	],
	[
		"innovation_partnership",
		[
			"innovation partnership",
			"innovationspartnerschaft",
			"partenariat d'innovation",
			"asociacion para la innovacion",
			"partenariato per l'innovazione",
			"partnerstwo innowacyjne",
			"innovationspartnerskap",
			"innovasjonspartnerskap",
			"innovatiepartnerschap",
			"innovaatiokumppanuus",
			"parteneriat pentru inovare",
			"inovacne partnerstvo",
			"inovacni partnerstvi",
		],
	],
	[
		"negotiated",
		[
			"negotiated (procedure|with (prior )?(publication|a call))",
			"competitive (procedure with negotiation|negotiation)",
			"negotiation procedure",
			"verhandlungsverfahren",
			"procedure (concurrentielle avec negociation|negociee)",
			"procedimiento (de licitacion )?(con negociacion|negociado)",
			"procedura (competitiva con negoziazione|negoziata)",
			"mededingingsprocedure met onderhandeling",
			"onderhandelingsprocedure",
			"negocjacje z ogloszeniem",
			"forhandlat forfarande",
			"upphandling med forhandling",
			"udbud med forhandling",
			"forhandlet procedure",
			"konkurranse med forhandling",
			"forhandlet prosedyre",
			"neuvottelumenettely",
			"procedura de negociere",
			"negociere competitiva",
			"procedimento de negociacao",
			"rokovacie konanie",
			"jednaci rizeni",
		],
	],
	[
		"restricted",
		[
			"restricted (procedure|tender|competition|call)",
			"non-?open\\b",
			"selective (tender|procedure)",
			"nicht ?offenes? verfahren",
			"nichtoffen",
			"beschrankte ausschreibung",
			"procedure restreinte",
			"appel d'offres restreint",
			"procedimiento restringido",
			"licitacion restringida",
			"invitacion (restringida )?a cuando menos",
			"invitacion restringida",
			"procedura ristretta",
			"niet[- ]openbare",
			"przetarg ograniczony",
			"selektivt forfarande",
			"begraenset udbud",
			"begrenset (anbuds|tilbuds)?konkurranse",
			"rajoitettu menettely",
			"licitatie restransa",
			"concurso limitado",
			"uzsie sutaz",
			"uzsi rizeni",
		],
	],
	["other_multi_stage", ["other multiple stage", "other multi[- ]stage"]],
	["other_single_stage", ["other single stage"]],
	[
		"open",
		[
			"open (procedure|tender|tendering|competition|call for tenders|bidding)",
			"offenes verfahren",
			"offentliche ausschreibung",
			"procedure ouverte",
			"appel d'offres ouvert",
			"procedimiento abierto",
			"licitacion publica",
			"procedura aperta",
			"openbare procedure",
			"przetarg nieograniczony",
			"oppet forfarande",
			"offentligt udbud",
			"apen (anbuds|tilbuds)?konkurranse",
			"avoin menettely",
			"licitatie (deschisa|publica)",
			"cerere (a|de) ofert",
			"concurso publico",
			"procedimento aberto",
			"otevrene rizeni",
			"verejna sutaz",
			"nyilt eljaras",
			"odprti postopek",
			"atklats konkurss",
			"atviras konkursas",
			"avatud hankemenetlus",
			"otvoreni postupak",
			"ανοικτη διαδικασια",
			"ανοιχτη διαδικασια",
			"открита процедура",
			"відкриті торги",
		],
	],
]);

// Word stems that name a kind only in a field that holds a procedure's name (procurementMethodDetails):
// in running text they would as well match "prices may be negotiated", and "full and open" there
// needs the negations the English text rules handle ("other than full and open competition").
const STEMS = compile([
	[
		"negotiated",
		[
			"negotiat",
			"verhandlung",
			"negocie",
			"negociad",
			"negociacion",
			"negoziat",
			"onderhandel",
			"negocjac",
			"forhandl",
			"neuvottelu",
			"negociere",
			"negociacao",
		],
	],
	["restricted", ["restricted\\b", "selective\\b", "invited\\b"]],
	["open", ["^\\s*open\\b", "open\\s*$", "full and open\\b", "unrestricted\\b"]],
]);

/** Lower case, no accents or other combining marks, ß as ss, ø, æ, å, œ spelt out, plain dashes and apostrophes. */
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
const STATED_IN_TEXT = new Set<ProcedureKindName>([
	"open",
	"other_single_stage",
	"restricted",
	"negotiated",
	"competitive_dialogue",
	"innovation_partnership",
	"qualification_system",
]);

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
