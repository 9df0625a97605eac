import type { AskAnswer, AskTurn } from "../../shared/contract/opportunities.ts";
import type { Grounding } from "./context.ts";
import { answerExtractive } from "./extractive.ts";
import { buildMessages, type LlmAnswerer } from "./llm.ts";

// Which answerer answers: the configured language model when there is one and it succeeds,
// otherwise the offline extractive answerer. `model` always names the one that composed the text.

export interface Warn {
	warn(obj: unknown, msg?: string): void;
}

export async function answer(g: Grounding, question: string, history: AskTurn[], llm: LlmAnswerer | null, budgetMs: number, log: Warn): Promise<AskAnswer> {
	if (llm) {
		try {
			const a = await llm.answer(buildMessages(g, question, history), budgetMs);
			return { answer: a.answer, model: a.model };
		} catch (err) {
			log.warn({ err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, "language model failed; answering offline");
		}
	}
	const a = answerExtractive(g, question, history);
	return { answer: a.answer, model: a.model };
}
