import type { AskAnswer, AskTurn } from "../../shared/contract/opportunities.ts";
import type { Grounding } from "./context.ts";
import { answerExtractive, groundingFor } from "./extractive.ts";
import { buildMessages, unsupportedFacts, type LlmAnswerer } from "./llm.ts";

// Which answerer answers: the configured language model when there is one, it succeeds and every
// fact its answer states is in the data it was given; otherwise the offline extractive answerer.
// The model gets the notice's structured fields and the sentences retrieved for the question; an
// answer stating a number, code, e-mail or link found in neither is discarded. `model` always
// names the answerer that composed the text.

export interface Warn {
	warn(obj: unknown, msg?: string): void;
}

export async function answer(
	g: Grounding,
	question: string,
	history: AskTurn[],
	llm: LlmAnswerer | null,
	budgetMs: number,
	log: Warn,
): Promise<AskAnswer> {
	if (llm) {
		const given = groundingFor(g, question, history);
		try {
			const a = await llm.answer(buildMessages(given, question, history), budgetMs);
			const unsupported = unsupportedFacts(a.answer, given);
			if (!unsupported.length) return { answer: a.answer, model: a.model };
			log.warn(
				{ model: a.model, unsupported: unsupported.slice(0, 10) },
				"the model stated facts that are not in the notice; answering offline",
			);
		} catch (err) {
			log.warn(
				{ err: err instanceof Error ? { name: err.name, message: err.message } : String(err) },
				"language model failed; answering offline",
			);
		}
	}
	const a = answerExtractive(g, question, history);
	return { answer: a.answer, model: a.model };
}
