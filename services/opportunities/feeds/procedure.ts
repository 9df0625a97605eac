import type { Competition, Procedure, ProcedureKind } from "./notice.ts";
import { cleanLine } from "./text.ts";

// Exists so that every feed states its procedure in one vocabulary: the signals extractor then
// decides who may bid from the notice's structure (OCDS procurementMethod and its details, eForms
// and TED procedure codes, SAM.gov "no set-aside") before it reads any prose. The tables below are
// the ones README.md shows; a code not listed keeps its code and text with kind null.

/** Only an open procedure (and its national single-stage kin, and a US unrestricted notice) lets anyone tender. */
export function competitionOf(kind: ProcedureKind | null): Competition | null {
	if (kind === null) return null;
	return kind === "open" || kind === "other_single_stage" || kind === "unrestricted" ? "open" : "restricted";
}

/** The kind a table gives a code (own keys only: a feed's "constructor" is not a code). */
export function kindOfCode(table: Record<string, ProcedureKind>, code: unknown): ProcedureKind | null {
	const key = typeof code === "string" ? code.trim().toLowerCase() : "";
	const hit = Object.entries(table).find(([k]) => k.toLowerCase() === key);
	return hit ? hit[1] : null;
}

/** OCDS 1.1 procurementMethod codelist. */
export const OCDS_METHODS: Record<string, ProcedureKind> = {
	open: "open",
	selective: "selective",
	limited: "limited",
	direct: "direct_award",
};

/** eForms procurement-procedure-type codelist (BT-105). */
export const EFORMS_PROCEDURES: Record<string, ProcedureKind> = {
	open: "open",
	restricted: "restricted",
	"neg-w-call": "negotiated",
	"neg-wo-call": "negotiated_without_call",
	"comp-dial": "competitive_dialogue",
	innovation: "innovation_partnership",
	"oth-single": "other_single_stage",
	"oth-mult": "other_multi_stage",
	// Competitive tendering under Regulation 1370/2007 (public transport): open to all operators.
	"comp-tend": "open",
};

/** eForms notice types (BT-02) that say the procedure themselves when no procedure code is given. */
export const EFORMS_NOTICE_TYPES: Record<string, ProcedureKind> = {
	"qu-sy": "qualification_system",
	veat: "negotiated_without_call",
};

/** eForms framework-agreement (BT-765) and dps-usage (BT-766) codes that set one up. */
export const EFORMS_FRAMEWORK_CODES = new Set(["fa-wo-rc", "fa-w-rc", "fa-mix", "dps-list", "dps-nlist"]);

/** TED R2.0.9 forms: the element under PROCEDURE names the procedure. */
export const TED_PROCEDURES: Record<string, ProcedureKind> = {
	PT_OPEN: "open",
	PT_RESTRICTED: "restricted",
	PT_COMPETITIVE_NEGOTIATION: "negotiated",
	PT_NEGOTIATED_WITH_PRIOR_CALL: "negotiated",
	PT_COMPETITIVE_DIALOGUE: "competitive_dialogue",
	PT_INNOVATION_PARTNERSHIP: "innovation_partnership",
	PT_NEGOTIATED_WITHOUT_PUBLICATION: "negotiated_without_call",
	PT_AWARD_CONTRACT_WITHOUT_CALL: "negotiated_without_call",
	PT_AWARD_CONTRACT_WITHOUT_PUBLICATION: "negotiated_without_call",
	PT_INVITED: "restricted",
};

/** SAM.gov notice types (`type`) that state a procedure. */
export const SAM_TYPES: Record<string, ProcedureKind> = {
	justification: "direct_award",
	"justification and approval (j&a)": "direct_award",
	"fair opportunity / limited sources justification": "direct_award",
};

// Procedure names as publishers write them (OCDS procurementMethodDetails and rationale, TED and
// national labels), matched on lower-cased text without accents. Checked in this order: the first
// kind that matches wins, so "negotiated procedure without publication" is not "negotiated", a
// "non-open procedure" is not "open", and a call-off "under a framework set up by open procedure"
// is a call-off. Greek and Cyrillic names go without \b, which only knows ASCII letters.
const LABELS: [ProcedureKind, RegExp][] = [
	[
		"call_off",
		/\bcall[- ]?offs?\b|\bmini[- ]?competition|\bfurther competition\b|\breopening of competition\b|\bunder (a|an|the) (existing )?framework\b|\bfrom (a|an|the) framework\b|\babruf|\bmarche subsequent|\bmarches subsequents|\bcontrato(s)? basado(s)? en (un )?acuerdo marco|\bderivad[oa] de (un )?acuerdo marco|\bappalto specifico|\badesione (a|ad) (un )?accordo quadro|\bnadere opdracht|\bminicompetitie|\bna podstawie umowy ramowej|\bavrop\b|\bfornyad konkurrensutsattning|\bminiudbud|\bgenabning af konkurrencen|\bminikilpailutus|\bkevennetty kilpailutus/,
	],
	[
		"negotiated_without_call",
		/\bwithout (a )?(prior )?(publication|call for competition|competition notice|notice)\b|\bohne (vorherige |vorherigen )?(bekanntmachung|veroffentlichung|teilnahmewettbewerb|aufruf)|\bsans (publication|mise en concurrence)|\bsin (publicidad|publicacion)|\bsenza (previa )?(pubblicazione|bando)|\bzonder (voorafgaande )?(bekendmaking|aankondiging)|\bbez (uprzedniego )?(ogloszenia|publikacji)|\butan (foregaende )?annonsering|\buden (forudgaende )?offentliggorelse|\buten (forutgaende )?kunngjoring|\bilman (ennakkoilmoitusta|hankintailmoitusta|hankintailmoituksen)|\bfara publicare|\bbez (predchadzajuceho |predchoziho )?(zverejnenia|uverejneni)/,
	],
	[
		"direct_award",
		/\bdirect (award|contract|procurement|purchase)|\bsingle (tender action|source)\b|\bsole[- ]source|\bawarded (directly )?to (a|one) single supplier|\bwithout competition\b|\bnon[- ]?competitive|\bdirektvergabe|\bfreihandige vergabe|\bgre a gre|\battribution directe|\badjudicacion directa|\bcontratacion directa|\baffidamento diretto|\bajuste direto|\bcontratacao direta|\bonderhandse gunning|\benkelvoudig onderhands|\bz wolnej reki|\bdirektupphandling|\bdirekte tildeling|\bdirektekjop|\bdirekteanskaffelse|\bsuorahankinta|\batribuire directa|\bprzydzial bezposredni/,
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
		/\bnegotiat|\bverhandlungsverfahren|\bverhandlung|\bnegocie|\bnegociad|\bnegociacion|\bnegoziat|\bonderhandel|\bnegocjac|\bforhandl|\bforhandling|\bneuvottelu|\bnegociere|\bnegociacao|\brokovacie|\bjednaci rizeni/,
	],
	[
		"restricted",
		/\brestricted (procedure|tender|competition|call)|\bnon-?open\b|\bselective (tender|procedure)|\binvited (tender|bidders|suppliers)|\binvitation to (selected|pre-?qualified)|\bnicht ?offenes? verfahren|\bnichtoffen|\bbeschrankte ausschreibung|\bprocedure restreinte|\bappel d'offres restreint|\bprocedimiento restringido|\blicitacion restringida|\binvitacion a cuando menos|\bprocedura ristretta|\bniet[- ]openbare|\bprzetarg ograniczony|\bselektivt forfarande|\bbegraenset udbud|\bbegrenset (anbuds|tilbuds)konkurranse|\brajoitettu menettely|\blicitatie restransa|\bconcurso limitado|\buzsie sutaz|\buzsi rizeni/,
	],
	["other_multi_stage", /\bother multiple stage|\bother multi[- ]stage/],
	["other_single_stage", /\bother single stage/],
	[
		"open",
		/\bopen (procedure|tender|tendering|competition|call|bidding)|\bopen to all\b|\bfull and open\b|\bunrestricted (procedure|competition|tender|procurement)\b|\boffenes verfahren|\boffentliche ausschreibung|\bprocedure ouverte|\bappel d'offres ouvert|\bprocedimiento abierto|\blicitacion publica|\bprocedura aperta|\bopenbare procedure|\bprzetarg nieograniczony|\boppet forfarande|\boffentligt udbud|\bapen (anbuds|tilbuds)konkurranse|\bavoin menettely|\blicitatie deschisa|\bconcurso publico|\bprocedimento aberto|ανοικτη διαδικασια|ανοιχτη διαδικασια|открита процедура|відкриті торги|\botevrene rizeni|\bverejna sutaz|\bnyilt eljaras|\bodprti postopek|\batklats konkurss|\batviras konkursas|\bavatud hankemenetlus|\botvoreni postupak/,
	],
];

/** Lower case, accents and other combining marks removed, ß as ss, dashes and apostrophes plain. */
function fold(text: string): string {
	return text
		.normalize("NFD")
		.replace(/\p{M}+/gu, "")
		.toLowerCase()
		.replace(/ß/g, "ss")
		.replace(/[øœ]/g, (c) => (c === "ø" ? "o" : "oe"))
		.replace(/æ/g, "ae")
		.replace(/å/g, "a")
		.replace(/[\u2010-\u2015]/g, "-")
		.replace(/[\u2018\u2019`]/g, "'");
}

/** The kind a procedure label names ("Open procedure", "Procedimiento negociado sin publicidad", "Call-off"), or null. */
export function kindOfLabel(text: string | null | undefined): ProcedureKind | null {
	if (!text) return null;
	const folded = fold(text.slice(0, 2_000));
	for (const [kind, pattern] of LABELS) if (pattern.test(folded)) return kind;
	return null;
}

/**
 * A procedure from what a feed states. A label that names a kind wins over the code (it is the
 * more specific statement: "Call-off from a framework" under procurementMethod "selective"); a
 * call-off is a call-off whatever else is said; null when nothing at all is stated.
 */
export function procedureOf(parts: { codeKind: ProcedureKind | null; code: unknown; text: unknown; framework: Procedure["framework"] }): Procedure | null {
	const code = cleanLine(parts.code, 100);
	const text = cleanLine(parts.text, 500);
	if (code === null && text === null && parts.framework === null && parts.codeKind === null) return null;
	let kind = kindOfLabel(text) ?? parts.codeKind;
	let framework = parts.framework;
	if (kind === "call_off") framework = "call_off";
	if (framework === "call_off" && competitionOf(kind) !== "restricted") kind = "call_off";
	return { kind, competition: competitionOf(kind), code, text, framework };
}
