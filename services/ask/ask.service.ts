import { Redis } from "ioredis";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { operationAction, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import type { AskBody } from "../../shared/contract/opportunities.ts";
import { askOpportunity } from "../../shared/contract/opportunities-operations.ts";
import { answer } from "./ask.ts";
import { buildGrounding, type AskNotice, type AskOpportunity } from "./context.ts";
import { LlmAnswerer, llmConfigFromEnv } from "./llm.ts";
import { AskRateLimit, askRatePerMinute } from "./rate-limit.ts";

// Ask: grounded answers to questions about one solicitation. The opportunities service checks
// the opportunity belongs to the caller's company (another company's id is not_found) and hands
// over the notice; the catalog adds the company profile and matched product when it can (ask
// answers without them otherwise). Stateless apart from the rate budget in Redis.

interface State extends Record<string, any> {
	redis: Redis;
	limiter: AskRateLimit;
	llm: LlmAnswerer | null;
}

/** Time kept back from the request timeout for everything but the language model. */
const RESERVE_MS = 1_500;
/** Profile and product are extras: a slow or absent catalog must not hold the answer up. */
const OPTIONAL_CALL_MS = 2_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A call whose failure (service absent, error, timeout) means "answer without it". */
async function optional(ctx: OpContext, action: string, params: Record<string, unknown>): Promise<Record<string, unknown> | null> {
	try {
		const r = await ctx.call<unknown, Record<string, unknown>>(action, params, { timeout: OPTIONAL_CALL_MS, retries: 0 });
		return r && typeof r === "object" ? (r as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

export const AskService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "ask",

	actions: {
		ask: operationAction(askOpportunity, async function (this: State, ctx: OpContext<{ id: string; body: AskBody }>) {
			const started = Date.now();
			const tenantId = requireAuth(ctx).tenantId;
			await this.limiter.consume(tenantId);
			const { opportunity, notice } = await ctx.call<
				{ opportunity: AskOpportunity; notice: AskNotice | null },
				{ tenantId: string; id: string }
			>("opportunities.askContext", {
				tenantId,
				id: ctx.params.id,
			});
			const productId = opportunity.product_match?.product_id;
			const [profile, product] = await Promise.all([
				optional(ctx, "catalog.getProfile", {}),
				typeof productId === "string" && UUID.test(productId) ? optional(ctx, "catalog.getProduct", { id: productId }) : null,
			]);
			const grounding = buildGrounding({ notice, opportunity, profile, product });
			const { question, history = [] } = ctx.params.body;
			const budget = Math.max(1_000, config().REQUEST_TIMEOUT_MS - RESERVE_MS - (Date.now() - started));
			return answer(grounding, question, history, this.llm, budget, this.logger);
		}),
	},

	created(this: State) {
		const c = config();
		this.redis = new Redis(c.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
		this.redis.on("error", () => {
			/* reconnects on its own; the in-memory insurance budget applies meanwhile */
		});
		this.limiter = new AskRateLimit(this.redis, c.REDIS_PREFIX, askRatePerMinute());
		const llm = llmConfigFromEnv();
		this.llm = llm ? new LlmAnswerer(llm) : null;
	},

	started(this: State) {
		this.logger.info(
			this.llm
				? `ask answers with ${this.llm.config.model} at ${this.llm.config.baseURL}, offline answerer as fallback`
				: "ask answers offline (oms-extractive-1)",
		);
	},

	async stopped(this: State) {
		this.redis?.disconnect();
	},
};

export default AskService;
