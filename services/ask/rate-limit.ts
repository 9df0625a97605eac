import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "../../shared/errors.ts";
import { config } from "../../shared/config.ts";

// Questions per company per minute, shared by every ask process through Redis. Answering costs
// far more than an ordinary read (retrieval over the whole notice, or a paid language model), so
// ask has its own budget per tenant on top of the gateway's per-credential one. If Redis is
// unreachable each process keeps its own in-memory budget rather than refusing or allowing all.

export const DEFAULT_ASK_RATE_PER_MINUTE = 30;

/** ASK_RATE_PER_MINUTE: a positive integer, else the default. */
export function askRatePerMinute(env: { ASK_RATE_PER_MINUTE?: string } = config()): number {
	const n = Number(env.ASK_RATE_PER_MINUTE);
	return Number.isInteger(n) && n > 0 ? n : DEFAULT_ASK_RATE_PER_MINUTE;
}

export class AskRateLimit {
	private readonly limiter: RateLimiterRedis;

	constructor(
		redis: Redis,
		prefix: string,
		readonly points: number,
		windowSeconds = 60,
	) {
		this.limiter = new RateLimiterRedis({
			storeClient: redis,
			keyPrefix: `${prefix}:rl:ask`,
			points,
			duration: windowSeconds,
			insuranceLimiter: new RateLimiterMemory({ points, duration: windowSeconds }),
		});
	}

	/** Spends one question of the tenant's budget, or throws rate_limited with Retry-After (as the gateway does). */
	async consume(tenantId: string): Promise<void> {
		try {
			await this.limiter.consume(tenantId, 1);
		} catch (e) {
			if (!(e instanceof RateLimiterRes)) throw e;
			const retryAfter = String(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
			throw new ApiError("rate_limited", `Too many questions for this company; retry after ${retryAfter} seconds`, {
				headers: {
					"Retry-After": retryAfter,
					"RateLimit-Limit": String(this.points),
					"RateLimit-Remaining": "0",
					"RateLimit-Reset": retryAfter,
				},
			});
		}
	}
}
