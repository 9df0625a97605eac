import type { SignalsInput } from "../../../services/matching/signals/input.ts";

/** A notice built from a few composed sentences; the fields a test does not care about stay empty. */
export function notice(parts: Partial<SignalsInput> & { title?: string; description?: string }): SignalsInput {
	return {
		title: parts.title ?? "",
		description: parts.description ?? "",
		items: parts.items ?? [],
		issuing_body: parts.issuing_body ?? "Example Agency",
		set_aside_text: parts.set_aside_text ?? null,
		set_aside_code: parts.set_aside_code ?? null,
		categories: parts.categories ?? [],
		procedure: parts.procedure ?? null,
		procurement_category: parts.procurement_category ?? null,
	};
}

/** A plain goods notice around a sentence under test. */
export function goods(sentence: string, title = "Laboratory Refrigerators"): SignalsInput {
	return notice({
		title,
		description: `The agency requests quotes for twelve laboratory refrigerators for its research wing. ${sentence} Delivery is required within 45 days of award.`,
		items: [{ description: "Laboratory refrigerator, 23 cu ft", quantity: 12, unit: "each" }],
		categories: [{ scheme: "UNSPSC", code: "41103000" }],
	});
}
