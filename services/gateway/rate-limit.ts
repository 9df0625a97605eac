import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "../../shared/errors.ts";

// Per-credential request budgets kept in Redis, so every gateway process shares them.
// If Redis is unreachable each process falls back to its own in-memory budget rather
// than refusing or waving everything through.

export interface Budget {
	points: number;
	windowSeconds: number;
}

export class RateLimits {
	private readonly credential: RateLimiterRedis;
	private readonly anonymous: RateLimiterRedis;

	constructor(redis: Redis, prefix: string, credential: Budget, anonymous: Budget) {
		const make = (name: string, b: Budget) =>
			new RateLimiterRedis({
				storeClient: redis,
				keyPrefix: `${prefix}:rl:${name}`,
				points: b.points,
				duration: b.windowSeconds,
				insuranceLimiter: new RateLimiterMemory({ points: b.points, duration: b.windowSeconds }),
			});
		this.credential = make("cred", credential);
		this.anonymous = make("anon", anonymous);
	}

	/** Spends one request of the key's budget; returns the RateLimit headers or throws rate_limited. */
	async consume(key: string, anonymous: boolean): Promise<Record<string, string>> {
		const limiter = anonymous ? this.anonymous : this.credential;
		try {
			const res = await limiter.consume(key, 1);
			return headers(limiter.points, res);
		} catch (e) {
			if (!(e instanceof RateLimiterRes)) throw e;
			const h = { ...headers(limiter.points, e), "Retry-After": String(Math.max(1, Math.ceil(e.msBeforeNext / 1000))) };
			throw new ApiError("rate_limited", `Too many requests; retry after ${h["Retry-After"]} seconds`, {
				headers: h,
			});
		}
	}
}

function headers(limit: number, r: RateLimiterRes): Record<string, string> {
	const reset = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
	return {
		"RateLimit-Limit": String(limit),
		"RateLimit-Remaining": String(Math.max(0, r.remainingPoints)),
		"RateLimit-Reset": String(reset),
	};
}
