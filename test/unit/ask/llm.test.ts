import { APIConnectionTimeoutError, APIError } from "openai";
import { describe, expect, it } from "vitest";
import { buildGrounding } from "../../../services/ask/context.ts";
import { buildMessages, llmConfigFromEnv, retryable } from "../../../services/ask/llm.ts";
import { askRatePerMinute } from "../../../services/ask/rate-limit.ts";

describe("llmConfigFromEnv", () => {
	it("is off unless base URL, key and model are all set", () => {
		expect(llmConfigFromEnv({})).toBeNull();
		expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1", LLM_API_KEY: "k" })).toBeNull();
		expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1/", LLM_API_KEY: "k", LLM_MODEL: "m" })).toEqual({ baseURL: "http://x/v1", apiKey: "k", model: "m", timeoutMs: 8000, retries: 2, backoffMs: 250 });
		expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x", LLM_API_KEY: "k", LLM_MODEL: "m", LLM_TIMEOUT_MS: "1500", LLM_RETRIES: "junk" })).toMatchObject({ timeoutMs: 1500, retries: 2 });
	});

	it("reads the ask rate with a default of 30 a minute", () => {
		expect(askRatePerMinute({})).toBe(30);
		expect(askRatePerMinute({ ASK_RATE_PER_MINUTE: "5" })).toBe(5);
		expect(askRatePerMinute({ ASK_RATE_PER_MINUTE: "-1" })).toBe(30);
	});
});

describe("buildMessages", () => {
	it("puts the grounding in the system prompt between delimiters, then the last six turns and the question", () => {
		const g = buildGrounding({ notice: { title: "Pumps", description: "Quotes are due May 1, 2027." } });
		const history = Array.from({ length: 8 }, (_, i) => ({ role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant", text: `t${i}` }));
		const m = buildMessages(g, "When?", history);
		expect(m).toHaveLength(8);
		expect(m[0]!.role).toBe("system");
		expect(m[0]!.content).toMatch(/<notice_data>\n\[title\] Title: Pumps\n\[description\] Quotes are due May 1, 2027\.\n<\/notice_data>/);
		expect(m.slice(1, 7).map((x) => x.content)).toEqual(["t2", "t3", "t4", "t5", "t6", "t7"]);
		expect(m[7]).toEqual({ role: "user", content: "When?" });
	});
});

describe("retryable", () => {
	it("retries timeouts, 429 and 5xx, not refusals", () => {
		expect(retryable(new APIConnectionTimeoutError())).toBe(true);
		expect(retryable(APIError.generate(500, undefined, "boom", new Headers()))).toBe(true);
		expect(retryable(APIError.generate(429, undefined, "slow", new Headers()))).toBe(true);
		expect(retryable(APIError.generate(401, undefined, "no", new Headers()))).toBe(false);
		expect(retryable(APIError.generate(400, undefined, "bad", new Headers()))).toBe(false);
		expect(retryable(new Error("empty answer"))).toBe(false);
	});
});
