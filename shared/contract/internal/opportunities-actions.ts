import { z } from "zod";
// The feeds' normalized notice is declared beside the parsers that produce it (it holds their
// bounds and vocabularies); that module is schemas only, so the contract can name it.
import { NormalizedNotice } from "../../../services/opportunities/feeds/notice.ts";
import { DateTime } from "../common.ts";
import { OpportunityDetail, RationaleItem, ScoreSource, Signals, SignalSource, SourceStatus } from "../opportunities.ts";
import { Done, RequestVersion, ReconcileParams, type InternalAction } from "./common.ts";

// The opportunities service's internal actions: ingestion writes notices through them, matching
// reads notices and writes results, notifications reads digests, learning reads feedback, ask
// reads one opportunity (never routed).

// --- Notices in

/** A notice written directly (tests, benchmarks), not through a feed's merge logic. */
export const NoticeInput = z
	.object({
		source: z.string().min(1).max(100),
		source_id: z.string().min(1).max(300),
		rfp_id: z.string().min(1).max(300),
		reference_number: z.string().max(300),
		title: z.string().min(1).max(1000),
		issuing_body: z.string().max(500),
		description: z.string().max(100_000).default(""),
		categories: z
			.array(z.object({ scheme: z.string().max(20), code: z.string().max(40), label: z.string().max(300).optional() }))
			.max(200)
			.default([]),
		deadline: DateTime.nullable().default(null),
		estimated_value: z.number().nonnegative().nullable().default(null),
		currency: z.string().max(3).nullable().default(null),
		source_status: SourceStatus.default("open"),
		source_url: z.string().max(2048).nullable().default(null),
		published_at: DateTime.nullable().default(null),
		details: z.record(z.string(), z.unknown()).default({}),
	})
	.strict();
export type NoticeInput = z.infer<typeof NoticeInput>;
export const PutNoticeResult = z.object({ id: z.string(), created: z.boolean(), changed: z.boolean() });

/** A batch of feed notices (the CLI's ingest), merged like a poll's. */
export const IngestNoticesParams = z.object({ notices: z.array(NormalizedNotice).min(1).max(200) }).strict();
export type IngestNoticesParams = z.infer<typeof IngestNoticesParams>;

/** renormalized: the stored version read again by a newer normalizer (feeds/versions.ts), stored without an amendment. */
export const IngestAction = z.enum(["created", "updated", "unchanged", "stale", "duplicate", "renormalized"]);
export type IngestAction = z.infer<typeof IngestAction>;
/** What ingesting one notice did, and to which stored notice. */
export const IngestOutcome = z.object({
	action: IngestAction,
	noticeId: z.string().optional(),
	reason: z.string().optional(),
	changed: z.array(z.string()).optional(),
});
export type IngestOutcome = z.infer<typeof IngestOutcome>;
export const IngestOutcomes = z.object({ outcomes: z.array(IngestOutcome.extend({ source: z.string(), source_id: z.string() })) });

/** The last run of a source, for the dashboard. */
export const IngestionRunParams = z
	.object({ source: z.string().min(1).max(100), outcome: z.enum(["succeeded", "failed"]), summary: z.unknown() })
	.strict();
export type IngestionRunParams = z.infer<typeof IngestionRunParams>;

// --- Notices out

export const NoticeRef = z.object({ id: z.uuid() }).strict();
export type NoticeRef = z.infer<typeof NoticeRef>;

/** A notice as other services read it (ask, matching): its text and normalized details. */
export const NoticeForReading = z.object({
	id: z.string(),
	source: z.string(),
	source_id: z.string(),
	rfp_id: z.string(),
	reference_number: z.string(),
	title: z.string(),
	issuing_body: z.string(),
	description: z.string(),
	/** Both writers (NoticeInput, the feeds' notice) require scheme and code. */
	categories: z.array(z.object({ scheme: z.string(), code: z.string(), label: z.string().nullish() })),
	deadline: z.string().nullable(),
	estimated_value: z.number().nullable(),
	currency: z.string().nullable(),
	source_status: z.string(),
	source_url: z.string().nullable(),
	published_at: z.string().nullable(),
	details: z.record(z.string(), z.unknown()),
});
export type NoticeForReading = z.infer<typeof NoticeForReading>;

/** A notice as matching reads it: the text and codes it scores, and the request version to mark done. */
export const NoticeForMatching = NoticeForReading.extend({
	version: z.string().nullable(),
	items: z.array(
		z.object({
			description: z.string(),
			quantity: z.number().nullish(),
			unit: z.string().nullish(),
			classification: z.object({ scheme: z.string(), code: z.string() }).nullish(),
		}),
	),
	set_aside: z.object({ code: z.string().nullable(), text: z.string().nullable() }).nullable(),
	eligibility: z.string().nullable(),
	/** The feed's structured procedure (kind, competition, code, text, framework): the signals read it before the text. */
	procedure: z.record(z.string(), z.string().nullable()).nullable(),
	procurement_category: z.string().nullable(),
});
export type NoticeForMatching = z.infer<typeof NoticeForMatching>;

/** One of the caller's company's opportunities, for ask. */
export const AskContextParams = z.object({ tenantId: z.uuid(), id: z.uuid() }).strict();
export type AskContextParams = z.infer<typeof AskContextParams>;
export const AskContext = z.object({ opportunity: OpportunityDetail, notice: NoticeForReading.nullable() });
export type AskContext = z.infer<typeof AskContext>;

// --- Matching's results

export const MatchResult = z
	.object({
		tenantId: z.uuid(),
		noticeId: z.uuid(),
		/** Version of the matching run that produced this result; an older one never overwrites a newer one. */
		matchVersion: z.string().min(1).max(64),
		supported: z.boolean().default(true),
		score: z.number().min(0).max(100).nullable(),
		score_source: ScoreSource.default("matcher"),
		product_match: z.record(z.string(), z.unknown()).default({}),
		product_match_name: z.string().max(200).nullable().default(null),
		rationale: z.array(RationaleItem).max(50).default([]),
		eligible: z.boolean().default(true),
		signals: Signals.nullable().default(null),
		signal_source: SignalSource.nullable().default(null),
		extraction_signal_source: SignalSource.nullable().default(null),
	})
	.strict();
export type MatchResult = z.infer<typeof MatchResult>;
export const RecordedMatch = z.object({ id: z.string(), created: z.boolean() });

/** A durable request (a notice's matching, a verdict's learning) done at this version. */
export const VersionedRef = z.object({ id: z.uuid(), version: RequestVersion }).strict();
export type VersionedRef = z.infer<typeof VersionedRef>;
/** false when a newer request replaced the version meanwhile. */
const MarkedDone = z.boolean();

// --- Digests

export const DigestQuery = z
	.object({
		tenantId: z.uuid(),
		minScore: z.number().int().min(0).max(100),
		maxItems: z.number().int().min(1).max(50),
		amendmentPolicy: z.enum(["all", "positive_only", "none"]),
	})
	.strict();
export type DigestQuery = z.infer<typeof DigestQuery>;

export const DigestItem = z.object({
	id: z.string(),
	title: z.string(),
	issuing_body: z.string(),
	rfp_id: z.string(),
	deadline: z.string().nullable(),
	score: z.number().nullable(),
	source_status: z.string(),
	/** The top positive reasons of the score, readable. */
	reasons: z.array(z.string()),
	source_url: z.string().nullable(),
});
export type DigestItem = z.infer<typeof DigestItem>;

/** New matches, and opportunities already sent whose notice changed since (per the amendment policy). */
export const DigestCandidates = z.object({ items: z.array(DigestItem), updated: z.array(DigestItem) });
export type DigestCandidates = z.infer<typeof DigestCandidates>;

export const MarkNotified = z
	.object({ tenantId: z.uuid(), newIds: z.array(z.uuid()).max(50), updatedIds: z.array(z.uuid()).max(50), at: z.iso.datetime() })
	.strict();
export type MarkNotified = z.infer<typeof MarkNotified>;

// --- Learning

export const FeedbackForLearningQuery = z.object({ tenantId: z.uuid(), feedbackId: z.uuid() }).strict();
export type FeedbackForLearningQuery = z.infer<typeof FeedbackForLearningQuery>;

/** One verdict, whether a later one superseded it, and the features of its notice (null when the notice is gone). */
export const FeedbackForLearning = z.object({
	feedback: z.object({
		id: z.string(),
		opportunity_id: z.string(),
		notice_id: z.string(),
		verdict: z.string(),
		reason: z.string().nullable(),
		created_at: z.string().nullable(),
		superseded_at: z.string().nullable(),
	}),
	notice: z
		.object({
			title: z.string(),
			issuing_body: z.string(),
			categories: z.array(z.object({ scheme: z.string(), code: z.string() })),
			bid_eligibility: z.string().nullable(),
			procurement_nature: z.string().nullable(),
		})
		.nullable(),
});
export type FeedbackForLearning = z.infer<typeof FeedbackForLearning>;

export const opportunitiesActions = {
	"opportunities.putNotice": { params: NoticeInput, result: PutNoticeResult },
	"opportunities.ingestNotices": { params: IngestNoticesParams, result: IngestOutcomes },
	"opportunities.recordIngestionRun": { params: IngestionRunParams, result: Done },
	"opportunities.recordMatch": { params: MatchResult, result: RecordedMatch },
	"opportunities.askContext": { params: AskContextParams, result: AskContext },
	"opportunities.noticeForMatching": { params: NoticeRef, result: NoticeForMatching },
	"opportunities.digestCandidates": { params: DigestQuery, result: DigestCandidates },
	"opportunities.markNotified": { params: MarkNotified, result: Done },
	"opportunities.markNoticeMatched": { params: VersionedRef, result: MarkedDone },
	"opportunities.feedbackForLearning": { params: FeedbackForLearningQuery, result: FeedbackForLearning },
	"opportunities.markFeedbackLearned": { params: VersionedRef, result: MarkedDone },
	"opportunities.reconcileRequests": {
		params: ReconcileParams,
		result: z.object({ notices: z.number().int(), feedback: z.number().int() }),
	},
} as const satisfies Record<string, InternalAction>;
