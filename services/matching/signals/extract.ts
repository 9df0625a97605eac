import { Signals } from "../../../shared/contract/opportunities.ts";
import { productCategory } from "./category.ts";
import { detectCertifications } from "./certifications.ts";
import { detectEligibility } from "./eligibility.ts";
import type { SignalsInput } from "./input.ts";
import { detectNature } from "./nature.ts";
import { noticeKind } from "./notice-kind.ts";
import { detectOem } from "./oem.ts";
import { buildSummary } from "./summary.ts";
import { prepare } from "./text.ts";

// The heuristic signals extractor (signal_source: heuristic). Pure: no I/O, no clock, no randomness;
// the same input gives the same output. Notice text is untrusted data: it is bounded, normalized and
// matched against fixed patterns; nothing in it is ever followed as an instruction.

export interface SignalsExplanation {
	bid_eligibility: { rule: string; evidence: string | null };
	requires_manufacturer: { evidence: string | null };
	requires_oem_documentation: { evidence: string | null };
	mandatory_certifications: Record<string, string>;
	procurement_nature: { rule: string; evidence: string | null };
	notice: { market_research: boolean; sole_source_notice: boolean };
}

export function explainSignals(input: SignalsInput): { signals: Signals; explanation: SignalsExplanation } {
	const n = prepare(input);
	const kind = noticeKind(n);
	const eligibility = detectEligibility(n, kind);
	const oem = detectOem(n, kind);
	const certs = detectCertifications(n, kind);
	const nature = detectNature(n);
	const signals = Signals.parse({
		bid_eligibility: eligibility.value,
		requires_manufacturer: oem.requiresManufacturer,
		requires_oem_documentation: oem.requiresDocumentation,
		mandatory_certifications: certs.names,
		actual_product_category: productCategory(n),
		summary: buildSummary(n),
		procurement_nature: nature.value,
	});
	return {
		signals,
		explanation: {
			bid_eligibility: { rule: eligibility.rule, evidence: eligibility.evidence },
			requires_manufacturer: { evidence: oem.manufacturerEvidence },
			requires_oem_documentation: { evidence: oem.documentationEvidence },
			mandatory_certifications: certs.evidence,
			procurement_nature: { rule: nature.rule, evidence: nature.evidence },
			notice: { market_research: kind.marketResearch, sole_source_notice: kind.soleSourceNotice },
		},
	};
}

export function extractSignals(input: SignalsInput): Signals {
	return explainSignals(input).signals;
}
