// Exists so that every feed states its procedure in one vocabulary: the signals extractor then
// decides who may bid from the notice's structure (OCDS procurementMethod and its details, eForms
// and TED procedure codes, SAM.gov "no set-aside") before it reads any prose. The tables below are
// the ones README.md shows; a code not listed keeps its code and text with kind null. Publishers'
// own names for procedures (any language) are read by shared/procedure-names.ts.

import { competitionOf, kindOfProcedureName } from "../../../shared/procedure-names.ts";
import type { Procedure, ProcedureKind } from "./notice.ts";
import { cleanLine } from "./text.ts";

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
};

/** TED R2.0.9 document types (TD_DOCUMENT_TYPE) that say the procedure when no PT_* element does. */
export const TED_DOCUMENT_TYPES: Record<string, ProcedureKind> = {
	O: "qualification_system",
	Q: "qualification_system",
};

/** SAM.gov notice types (`type`) that state a procedure. */
export const SAM_TYPES: Record<string, ProcedureKind> = {
	justification: "direct_award",
	"justification and approval (j&a)": "direct_award",
	"fair opportunity / limited sources justification": "direct_award",
};

/**
 * A procedure from what a feed states. A label that names a kind wins over the code (it is the
 * more specific statement: "Call-off from a framework" under procurementMethod "selective"); a
 * call-off is a call-off whatever else is said; null when nothing at all is stated.
 */
export function procedureOf(parts: {
	codeKind: ProcedureKind | null;
	code: unknown;
	text: unknown;
	framework: Procedure["framework"];
}): Procedure | null {
	const code = cleanLine(parts.code, 100);
	const text = cleanLine(parts.text, 500);
	if (code === null && text === null && parts.framework === null && parts.codeKind === null) return null;
	let kind = kindOfProcedureName(text) ?? parts.codeKind;
	let framework = parts.framework;
	if (kind === "call_off") framework = "call_off";
	if (framework === "call_off" && competitionOf(kind) !== "restricted") kind = "call_off";
	return { kind, competition: competitionOf(kind), code, text, framework };
}
