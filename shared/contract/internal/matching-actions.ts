import { z } from "zod";
import { TenantRef, type InternalAction } from "./common.ts";
import { IndexProductJob, LearnFeedbackJob, MatchNoticeJob } from "./queue-jobs.ts";

// The matching service's internal actions: its queue jobs' work, callable directly by tests and
// operators with the jobs' payloads (strict here: a caller's typo is an error, not ignored).

export const MatchProductParams = IndexProductJob.strict();
export type MatchProductParams = z.infer<typeof MatchProductParams>;
export const MatchNoticeParams = MatchNoticeJob.strict();
export type MatchNoticeParams = z.infer<typeof MatchNoticeParams>;
export const LearnFeedbackParams = LearnFeedbackJob.strict();
export type LearnFeedbackParams = z.infer<typeof LearnFeedbackParams>;

const Count = z.number().int();

export const matchingActions = {
	/** notices re-scored, products indexed (more than one when a bulk job took its company's backlog). */
	"matching.matchProduct": { params: MatchProductParams, result: z.object({ notices: Count, products: Count }) },
	/** tenants: companies the notice was scored for. */
	"matching.matchNotice": { params: MatchNoticeParams, result: z.object({ tenants: Count }) },
	/** Rules created and updated, and rescore requests sent. */
	"matching.learnFeedback": { params: LearnFeedbackParams, result: z.object({ created: Count, updated: Count, rescore: Count }) },
	/** Every opportunity of the company scored again with its current products and rules. */
	"matching.rescoreTenant": { params: TenantRef, result: z.object({ rescored: Count }) },
} as const satisfies Record<string, InternalAction>;
