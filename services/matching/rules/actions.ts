import type { Job } from "bullmq";
import type { Logger } from "moleculer";
import { iso } from "../../../shared/contract/common.ts";
import type { LearnedRule, LearnedRuleList, RuleType } from "../../../shared/contract/settings.ts";
import { ApiError, notFound } from "../../../shared/errors.ts";
import { Outbox, newRequest } from "../../../shared/outbox.ts";
import { QUEUES, payloadOf } from "../../../shared/queue.ts";
import { callInternal, type Caller } from "../../../shared/actions.ts";
import type { FeedbackForLearning } from "../../../shared/contract/internal/opportunities-actions.ts";
import { JOBS, type LearnFeedbackJob, type RescoreRuleJob } from "../../../shared/contract/internal/queue-jobs.ts";
import type { MatchingEngine } from "../engine.ts";
import type { MatchingModels } from "../models.ts";
import { recordEvidence } from "./evidence.ts";
import { featureId } from "./features.ts";
import { withRuleLock } from "./lock.ts";
import type { RuleDoc } from "./models.ts";
import { MAX_ACTIVE_RULES, reconsiderRules } from "./propose.ts";

// The learned rules as the service runs them: the two routes, and the jobs of the
// feedbackLearn queue (shared/contract/internal/queue-jobs.ts). That queue carries two kinds of
// job: `learn-feedback` (sent by the opportunities service for every verdict) and `rescore-rule`
// (sent here whenever a rule is switched on or off; the request is written with the switch, so
// it survives a crash and the reconciler re-sends it).

export function toLearnedRule(r: RuleDoc): LearnedRule {
	return {
		id: r._id,
		rule_type: r.rule_type as RuleType,
		description: r.description,
		evidence_count: r.evidence_count,
		created_at: iso(r.created_at)!,
		active: r.active,
	};
}

export class LearnedRules {
	readonly outbox: Outbox<RuleDoc, typeof RescoreRuleJob>;

	constructor(
		private readonly m: MatchingModels,
		private readonly engine: MatchingEngine,
		private readonly call: Caller,
		private readonly logger: Pick<Logger, "info" | "warn">,
	) {
		this.outbox = new Outbox({
			model: m.rules,
			job: JOBS.rescoreRule,
			field: "rescore",
			data: (r: RuleDoc) => ({ tenantId: r.tenant_id, ruleId: r._id }),
		});
	}

	/** GET /settings/rules: newest first (a company has at most MAX_RULES, so no paging). */
	async list(tenantId: string): Promise<LearnedRuleList> {
		const docs = await this.m.rules.find({ tenant_id: tenantId }).sort({ created_at: -1, _id: -1 }).lean<RuleDoc[]>();
		return { rules: docs.map(toLearnedRule) };
	}

	/**
	 * PATCH /settings/rules/{id}: a person's switch, kept against later evidence; scores follow
	 * through a rescore job. Switching on counts and writes under the company's rule lock.
	 */
	async update(tenantId: string, id: string, active: boolean): Promise<LearnedRule> {
		const change = async (): Promise<boolean> => {
			const rule = await this.m.rules.findOne({ _id: id, tenant_id: tenantId }).lean<RuleDoc>();
			if (!rule) throw notFound("Rule");
			const changed = rule.active !== active;
			if (changed && active) {
				const on = await this.m.rules.countDocuments({ tenant_id: tenantId, active: true });
				if (on >= MAX_ACTIVE_RULES)
					throw new ApiError("rule_cap_reached", `At most ${MAX_ACTIVE_RULES} rules can be active at once; switch one off first`);
			}
			if (changed || rule.set_by !== "person") {
				await this.m.rules.updateOne(
					{ _id: id, tenant_id: tenantId },
					{ $set: { active, set_by: "person", updated_at: new Date(), ...(changed ? { rescore: newRequest() } : {}) } },
				);
			}
			return changed;
		};
		const changed = active ? await withRuleLock(this.m, tenantId, change) : await change();
		const updated = (await this.m.rules.findOne({ _id: id, tenant_id: tenantId }).lean<RuleDoc>())!;
		if (changed && !(await this.outbox.send(updated)))
			this.logger.warn({ rule: id }, "rescore request not queued; the reconciler will send it");
		return toLearnedRule(updated);
	}

	/** A feedback verdict: its evidence recorded, the rules it concerns brought in line, the request marked done. */
	async learn(job: LearnFeedbackJob): Promise<{ created: number; updated: number; rescore: number }> {
		let input: FeedbackForLearning;
		try {
			input = await callInternal(this.call, "opportunities.feedbackForLearning", { tenantId: job.tenantId, feedbackId: job.feedbackId });
		} catch (e) {
			if ((e as { type?: string }).type === "not_found") return { created: 0, updated: 0, rescore: 0 }; // the feedback is gone: nothing to learn
			throw e;
		}
		const change = await recordEvidence(this.m, job.tenantId, input);
		// Learning switches rules on too (and creates them, against MAX_RULES): that part under the same lock as a person's switch.
		const r = await reconsiderRules(this.m, job.tenantId, change.affected, change.features, (fn) => withRuleLock(this.m, job.tenantId, fn));
		for (const s of r.skipped)
			this.logger.info({ tenantId: job.tenantId, feature: s.feature, reason: s.reason }, "learned rule not proposed");
		for (const rule of r.toRescore) await this.outbox.send(rule);
		if (job.version) await callInternal(this.call, "opportunities.markFeedbackLearned", { id: job.feedbackId, version: job.version });
		return { created: r.created, updated: r.updated, rescore: r.toRescore.length };
	}

	/** A rule switched on or off: the company's opportunities with its feature scored again. */
	async rescoreRule(job: RescoreRuleJob): Promise<{ rescored: number }> {
		const rule = await this.m.rules.findOne({ _id: job.ruleId, tenant_id: job.tenantId }).lean<RuleDoc>();
		if (!rule) return { rescored: 0 };
		const result = await this.engine.rescoreTenant(job.tenantId, featureId({ type: rule.rule_type, key: rule.key }));
		if (job.version) await this.outbox.markDone(rule._id, job.version);
		return result;
	}

	/** The feedbackLearn queue's processor. */
	process(job: Job): Promise<unknown> {
		if (job.name === JOBS.rescoreRule.name) return this.rescoreRule(payloadOf(JOBS.rescoreRule, job));
		if (job.name === JOBS.learnFeedback.name) return this.learn(payloadOf(JOBS.learnFeedback, job));
		throw new Error(`unknown job ${job.name} on ${QUEUES.feedbackLearn}`);
	}
}
