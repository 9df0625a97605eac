import { z } from "zod";
import { Cursor, DateTime, Limit } from "./common.ts";

// Opportunities (a company's matches of public solicitations), feedback, questions about one,
// and the dashboard. Served by the opportunities service, except ask (ask service).

// ---------------------------------------------------------------------------------------------
// Enumerations (DESIGN.md, "Opportunity states")

export const OPPORTUNITY_STATUSES = ["new", "notified", "interested", "dismissed", "expired"] as const;
export const OpportunityStatus = z.enum(OPPORTUNITY_STATUSES).meta({
	id: "OpportunityStatus",
	description:
		"The company's pipeline: `new` (matched, not yet sent in a digest), `notified` (sent in a digest), `interested` (feedback relevant), " +
		"`dismissed` (feedback not relevant, not eligible or wrong product), `expired` (closed at the source before any action). " +
		"Archiving is separate (archived_at).",
});
export type OpportunityStatus = z.infer<typeof OpportunityStatus>;

export const SourceStatus = z.enum(["open", "closed", "cancelled", "awarded"]).meta({
	id: "SourceStatus",
	description: "The notice's state at its source: `open`, `closed` (deadline passed), `cancelled`, `awarded`",
});
export type SourceStatus = z.infer<typeof SourceStatus>;

export const ScoreSource = z.enum(["matcher", "rule", "feedback"]).meta({
	id: "ScoreSource",
	description: "What set the score: `matcher` (computed), `rule` (changed by an active learned rule), `feedback`",
});
export type ScoreSource = z.infer<typeof ScoreSource>;

export const SignalSource = z.enum(["heuristic", "llm"]).meta({
	id: "SignalSource",
	description: "`heuristic` (the built-in extractor) or `llm` (a language model)",
});
export type SignalSource = z.infer<typeof SignalSource>;

export const BidEligibility = z
	.enum(["open", "small_business", "8a", "hubzone", "sdvosb", "wosb", "other_set_aside", "restricted", "unknown"])
	.meta({
		id: "BidEligibility",
		description:
			"Who may bid: `open` (full and open competition), " +
			"a set-aside (`small_business`, `8a`, `hubzone`, `sdvosb`, `wosb`, `other_set_aside`), " +
			"`restricted` (sole source, brand-name only or incumbent) or `unknown`",
	});
export type BidEligibility = z.infer<typeof BidEligibility>;

export const ProcurementNature = z.enum(["goods", "services", "construction", "mixed", "unknown"]).meta({
	id: "ProcurementNature",
	description: "What is really being bought: `goods`, `services`, `construction`, `mixed` or `unknown`",
});
export type ProcurementNature = z.infer<typeof ProcurementNature>;

export const Verdict = z.enum(["relevant", "not_relevant", "not_eligible", "wrong_product"]).meta({
	id: "FeedbackVerdict",
	description:
		"`relevant` moves the opportunity to interested; `not_relevant`, `not_eligible` and `wrong_product` move it to dismissed and feed learned rules",
});
export type Verdict = z.infer<typeof Verdict>;

// ---------------------------------------------------------------------------------------------
// Opportunity records

const Score = z.number().min(0).max(100);

export const OpportunitySummary = z
	.object({
		id: z.string(),
		rfp_id: z.string().describe("The solicitation's identifier at its source"),
		title: z.string(),
		issuing_body: z.string(),
		source: z.string().describe("The feed the notice came from, e.g. `sam.gov`, `ted`, or an OCDS publisher"),
		status: OpportunityStatus,
		discovered_at: DateTime,
		source_status: SourceStatus,
		deadline: DateTime.nullable().optional().describe("Response deadline (UTC); null when the notice states none"),
		estimated_value: z.number().nullable().optional().describe("Estimated contract value in `currency`; null when not stated"),
		currency: z.string().nullable().optional().describe("ISO 4217 code of estimated_value, e.g. `USD`; null when unknown"),
		score: Score.nullable().optional().describe("Match score 0 to 100; null when not scored"),
		score_source: ScoreSource.optional(),
		archived_at: DateTime.nullable().optional().describe("When it was archived; null when not archived"),
		product_match_name: z.string().nullable().optional().describe("Name of the best-matching product; null when none"),
	})
	.meta({ id: "OpportunitySummary" });
export type OpportunitySummary = z.infer<typeof OpportunitySummary>;

export const Signals = z
	.object({
		bid_eligibility: BidEligibility,
		requires_manufacturer: z.boolean().describe("The buyer wants to buy from the manufacturer or an authorized reseller"),
		requires_oem_documentation: z
			.boolean()
			.describe("The buyer demands proof of OEM authorization (letter of authorization, authorized reseller proof)"),
		mandatory_certifications: z.array(z.string()).describe("Normalized names, e.g. `ISO 9001`, `TAA`, `Section 508`, `FIPS 140-2`"),
		actual_product_category: z.string().describe("What is really being bought, in a few words"),
		summary: z.string().describe("Two or three sentences taken from the notice"),
		procurement_nature: ProcurementNature,
	})
	.meta({ id: "OpportunitySignals", description: "What the notice demands, as extracted from its text" });
export type Signals = z.infer<typeof Signals>;

export const RationaleItem = z
	.object({
		feature: z
			.string()
			.describe("A readable feature name, e.g. `exact_model_mention`, `oem_mention`, `code_agreement`, `services_nature`, `learned_rule`"),
		points: z.number().describe("How much it moved the score (negative lowers it)"),
		detail: z.string().describe("What was found, e.g. the matched model number or code"),
	})
	.meta({ id: "RationaleItem" });
export type RationaleItem = z.infer<typeof RationaleItem>;

export const OpportunityDetail = z
	.object({
		id: z.string(),
		rfp_id: z.string(),
		status: OpportunityStatus,
		eligible: z
			.boolean()
			.describe(
				"Whether the company may bid, judged from the signals and the company profile (set-asides held, certifications held and unexpired, partner authorized when OEM documentation is required)",
			),
		product_match: z
			.record(z.string(), z.unknown())
			.describe(
				"The best-matching product: free-form keys such as product_id, name, model, oem, matched_terms and matched_codes; {} when there is none",
			),
		title: z.string(),
		issuing_body: z.string(),
		source: z.string(),
		categories: z.array(z.string()).describe("Classification codes of the notice (UNSPSC, CPV, NAICS, PSC)"),
		reference_number: z.string(),
		discovered_at: DateTime,
		signals: Signals.nullable().describe("null until the notice's signals have been extracted"),
		signal_source: SignalSource.optional().describe("Which extractor produced `signals`"),
		extraction_signal_source: SignalSource.optional().describe(
			"Which extractor produced the notice's normalized extraction (items, codes, dates) that matching used",
		),
		source_status: SourceStatus,
		deadline: DateTime.nullable().optional(),
		estimated_value: z.number().nullable().optional(),
		currency: z.string().nullable().optional(),
		score: Score.nullable().optional(),
		score_source: ScoreSource.optional(),
		archived_at: DateTime.nullable().optional(),
		product_match_name: z.string().nullable().optional(),
		source_url: z.string().nullable().optional().describe("The notice on its source's site; null when unknown"),
		rationale: z.array(RationaleItem).optional().describe("The features that moved the score, largest effect first"),
	})
	.meta({ id: "OpportunityDetail" });
export type OpportunityDetail = z.infer<typeof OpportunityDetail>;

// ---------------------------------------------------------------------------------------------
// Listing

export const OPPORTUNITY_SORTS = ["score", "-score", "deadline", "-deadline", "discovered_at", "-discovered_at"] as const;
export const OpportunitySort = z.enum(OPPORTUNITY_SORTS);
export type OpportunitySort = z.infer<typeof OpportunitySort>;
export const DEFAULT_OPPORTUNITY_SORT: OpportunitySort = "-score";

/** `status=new&status=notified` and `status=new,notified` both give ["new", "notified"]. */
const listOfStrings = (v: unknown): unknown => {
	if (v === undefined) return undefined;
	const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === "string" ? x.split(",") : [x]));
	const cleaned = parts.map((x) => (typeof x === "string" ? x.trim() : x)).filter((x) => x !== "");
	return [...new Set(cleaned)];
};

/** Query booleans: "true"/"false" (and real booleans from in-process callers). */
const queryBoolean = (v: unknown): unknown => (v === "true" ? true : v === "false" ? false : v);

export const OpportunityListQuery = z
	.object({
		status: z
			.preprocess(listOfStrings, z.array(OpportunityStatus).max(OPPORTUNITY_STATUSES.length))
			.optional()
			.describe("Only these statuses: repeat the parameter or separate values with commas; all when absent"),
		q: z
			.string()
			.trim()
			.max(200)
			.optional()
			.describe("Case-insensitive text searched in title, issuing body, reference number and description; empty means no text filter"),
		source: z.string().trim().min(1).max(100).optional().describe("Only opportunities from this source"),
		deadline_before: DateTime.optional().describe("Only deadlines before this instant (opportunities without a deadline are left out)"),
		deadline_after: DateTime.optional().describe("Only deadlines after this instant (opportunities without a deadline are left out)"),
		min_score: z.coerce
			.number()
			.min(0)
			.max(100)
			.optional()
			.describe("Only scores at or above this, 0 to 100 (unscored opportunities are left out)"),
		sort: OpportunitySort.default(DEFAULT_OPPORTUNITY_SORT).describe(
			"`-score` (default: best first), `score`, `deadline` (soonest first), `-deadline`, `discovered_at` (oldest first) " +
				"or `-discovered_at` (newest first). A leading `-` means descending. " +
				"Ties are broken by id; opportunities without a score or deadline come last either way.",
		),
		archived: z
			.preprocess(queryBoolean, z.boolean().default(false))
			.describe("`false` (default): only opportunities that are not archived; `true`: only archived ones"),
		cursor: Cursor.optional(),
		limit: Limit,
	})
	.strict();
export type OpportunityListQuery = z.infer<typeof OpportunityListQuery>;

export const OpportunityList = z
	.object({
		items: z.array(OpportunitySummary),
		nextCursor: z
			.string()
			.nullable()
			.describe("Pass as `cursor` (with the same filters and sort) to get the following page; null on the last page"),
	})
	.meta({ id: "OpportunityList" });
export type OpportunityList = z.infer<typeof OpportunityList>;

// ---------------------------------------------------------------------------------------------
// Feedback

export const FeedbackBody = z
	.object({
		verdict: Verdict,
		reason: z.string().trim().min(1).max(2000).optional().describe("Free text, 1 to 2000 characters"),
	})
	.strict()
	.meta({ id: "FeedbackRequest" });
export type FeedbackBody = z.infer<typeof FeedbackBody>;

export const Feedback = z
	.object({
		id: z.string(),
		opportunity_id: z.string(),
		verdict: Verdict,
		reason: z.string().nullable(),
		created_at: DateTime,
		superseded_at: DateTime.nullable().describe(
			"When a later verdict on the same opportunity replaced this one; null while it is the current verdict",
		),
		opportunity_status: OpportunityStatus.describe("The opportunity's status after this verdict"),
	})
	.meta({ id: "Feedback" });
export type Feedback = z.infer<typeof Feedback>;

// ---------------------------------------------------------------------------------------------
// Ask

export const ASK_HISTORY_MAX_TURNS = 50;
/** How many of the most recent history turns the answerer uses. */
export const ASK_HISTORY_TURNS_USED = 6;

export const AskTurn = z
	.object({
		role: z.enum(["user", "assistant"]),
		text: z.string().trim().min(1).max(4000).describe("1 to 4000 characters"),
	})
	.strict()
	.meta({ id: "AskTurn" });
export type AskTurn = z.infer<typeof AskTurn>;

export const AskBody = z
	.object({
		question: z.string().trim().min(1).max(2000).describe("The question about this solicitation, 1 to 2000 characters"),
		history: z
			.array(AskTurn)
			.max(ASK_HISTORY_MAX_TURNS)
			.superRefine((turns, ctx) => {
				turns.forEach((turn, i) => {
					const expected = i % 2 === 0 ? "user" : "assistant";
					if (turn.role !== expected) {
						ctx.addIssue({
							code: "custom",
							path: [i, "role"],
							input: turn.role,
							message: `History turns must alternate user and assistant, starting with user: turn ${i} should be ${expected}`,
						});
					}
				});
			})
			.optional()
			.describe(
				`Earlier turns, oldest first, alternating user and assistant and starting with a user turn; at most ${ASK_HISTORY_MAX_TURNS}. Only the most recent ${ASK_HISTORY_TURNS_USED} turns are used.`,
			),
	})
	.strict()
	.meta({ id: "AskRequest" });
export type AskBody = z.infer<typeof AskBody>;

export const AskAnswer = z
	.object({
		answer: z
			.string()
			.describe(
				"Plain text grounded in the notice, its extraction and the company profile; says so plainly when the notice does not state something",
			),
		model: z.string().describe("The model that composed the answer, e.g. `oms-extractive-1` for the built-in offline answerer"),
	})
	.meta({ id: "AskAnswer" });
export type AskAnswer = z.infer<typeof AskAnswer>;

// ---------------------------------------------------------------------------------------------
// Dashboard

const Count = z.number().int().min(0);

export const SourceIngestion = z
	.object({
		source: z.string(),
		last_run_at: DateTime.nullable().describe("When ingestion from this source last ran; null if never"),
		last_outcome: z.enum(["succeeded", "failed"]).nullable().describe("How that run ended; null if never run"),
		last_success_at: DateTime.nullable().describe("When ingestion from this source last succeeded; null if never"),
	})
	.meta({ id: "SourceIngestion" });
export type SourceIngestion = z.infer<typeof SourceIngestion>;

export const Dashboard = z
	.object({
		counts_by_status: z
			.object({ new: Count, notified: Count, interested: Count, dismissed: Count, expired: Count })
			.describe("Opportunities that are not archived, per status"),
		archived: Count.describe("Archived opportunities"),
		counts_by_score_band: z
			.object({
				high: Count.describe("score 80 to 100"),
				medium: Count.describe("score 60 to under 80"),
				low: Count.describe("score 40 to under 60"),
				very_low: Count.describe("score under 40"),
				unscored: Count.describe("no score"),
			})
			.describe("Opportunities that are not archived, per score band"),
		upcoming_deadlines: z
			.object({
				next_7_days: Count,
				next_30_days: Count.describe("Includes those of the next 7 days"),
			})
			.describe("Opportunities not archived, dismissed or expired whose deadline falls between now and 7 (30) days from now"),
		last_ingestion: z.array(SourceIngestion).describe("One entry per configured source"),
		generated_at: DateTime,
	})
	.meta({ id: "Dashboard" });
export type Dashboard = z.infer<typeof Dashboard>;
