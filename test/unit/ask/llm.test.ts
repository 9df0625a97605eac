// Why: the language-model path of ask: its settings, the messages it sends (the notice's fields and
// the sentences retrieved for the question, as data), its retry rule, and the check that discards an
// answer stating facts the data does not hold. The model is a local HTTP server in this process
// speaking the OpenAI chat completions protocol (no third party is called).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { APIConnectionTimeoutError, APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer } from "../../../services/ask/ask.ts";
import { buildGrounding } from "../../../services/ask/context.ts";
import { EXTRACTIVE_MODEL } from "../../../services/ask/extractive.ts";
import { buildMessages, LlmAnswerer, llmConfigFromEnv, retryable, unsupportedFacts } from "../../../services/ask/llm.ts";
import { askRatePerMinute } from "../../../services/ask/rate-limit.ts";

describe("llmConfigFromEnv", () => {
	it("is off unless base URL, key and model are all set", () => {
		expect(llmConfigFromEnv({})).toBeNull();
		expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1", LLM_API_KEY: "k" })).toBeNull();
		const expected = { baseURL: "http://x/v1", apiKey: "k", model: "m", timeoutMs: 8000, retries: 2, backoffMs: 250 };
		expect(llmConfigFromEnv({ LLM_BASE_URL: "http://x/v1/", LLM_API_KEY: "k", LLM_MODEL: "m" })).toEqual(expected);
		expect(
			llmConfigFromEnv({ LLM_BASE_URL: "http://x", LLM_API_KEY: "k", LLM_MODEL: "m", LLM_TIMEOUT_MS: "1500", LLM_RETRIES: "junk" }),
		).toMatchObject({ timeoutMs: 1500, retries: 2 });
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
		const history = Array.from({ length: 8 }, (_, i) => ({
			role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
			text: `t${i}`,
		}));
		const m = buildMessages(g, "When?", history);
		expect(m).toHaveLength(8);
		expect(m[0]!.role).toBe("system");
		expect(m[0]!.content).toMatch(/<notice_data>\n\[title\] Pumps\n\[description\] Quotes are due May 1, 2027\.\n<\/notice_data>/);
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

describe("unsupportedFacts", () => {
	const g = buildGrounding({
		notice: {
			title: "Pumps",
			description: "Quotes are due May 1, 2027 at 14:00 to buyer@city.example. Quantity: 1,200 units.",
			deadline: "2027-05-01T12:00:00Z",
		},
	});
	it("accepts numbers, dates, e-mails and codes the data holds, however the model writes the numbers", () => {
		expect(unsupportedFacts("Quotes are due 1 May 2027 at 14:00 (email buyer@city.example); 1200 units.", g)).toEqual([]);
	});
	it("names the ones it does not hold", () => {
		expect(unsupportedFacts("Quotes are due June 14, 2027; send them to sales@pumps.example; model XP-500.", g)).toEqual(
			expect.arrayContaining(["sales@pumps.example", "xp-500"]),
		);
	});
});

describe("answer with a language model", () => {
	let server: Server;
	let reply = "";
	const bodies: { messages: { role: string; content: string }[] }[] = [];
	const warnings: unknown[] = [];
	const log = { warn: (obj: unknown) => void warnings.push(obj) };
	let llm: LlmAnswerer;

	beforeAll(async () => {
		server = createServer((req, res) => {
			let raw = "";
			req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
			req.on("end", () => {
				bodies.push(JSON.parse(raw));
				res.writeHead(200, { "Content-Type": "application/json" });
				const choices = [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }];
				res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "local-model-7b", choices }));
			});
		});
		await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
		const port = (server.address() as AddressInfo).port;
		llm = new LlmAnswerer({
			baseURL: `http://127.0.0.1:${port}/v1`,
			apiKey: "k",
			model: "configured-model",
			timeoutMs: 2_000,
			retries: 0,
			backoffMs: 0,
		});
	});
	afterAll(() => new Promise<void>((r) => server.close(() => r())));

	const filler = Array.from({ length: 30 }, (_, i) => `Clause ${i + 1} of the general conditions applies to the supplier.`);
	const g = buildGrounding({
		notice: {
			title: "Pumps for the water works",
			description: ["Quotes are due May 1, 2027 at 14:00.", ...filler, "The pumps must be delivered to Harbour Road 9, Porttown."].join(
				"\n",
			),
			deadline: "2027-05-01T12:00:00Z",
			details: { deadline_local: "2027-05-01T14:00+02:00", items: [{ description: "Submersible pump", quantity: 6, unit: "each" }] },
		},
	});

	it("sends the fields and the sentences retrieved for the question, and names the model that answered", async () => {
		reply = "Quotes are due 1 May 2027 at 14:00 (field deadline).";
		const a = await answer(g, "When are quotes due?", [], llm, 5_000, log);
		expect(a).toEqual({ answer: reply, model: "local-model-7b" });
		const system = bodies.at(-1)!.messages[0]!.content;
		expect(system).toContain("[field deadline] 2027-05-01 14:00 (UTC+02:00; 2027-05-01 12:00 UTC)");
		expect(system).toContain("[field items[1]] Submersible pump; quantity 6 each");
		expect(system).toContain("Quotes are due May 1, 2027 at 14:00.");
		expect((system.match(/Clause \d+ of the general conditions/g) ?? []).length).toBeLessThan(filler.length);
	});

	it("discards an answer stating a fact the data does not hold and answers offline", async () => {
		reply = "Quotes are due 14 June 2027 at 16:00.";
		const a = await answer(g, "When are quotes due?", [], llm, 5_000, log);
		expect(a.model).toBe(EXTRACTIVE_MODEL);
		expect(a.answer).toContain("2027-05-01 14:00");
		expect(warnings.at(-1)).toMatchObject({ model: "local-model-7b", unsupported: expect.arrayContaining(["16"]) });
	});
});
