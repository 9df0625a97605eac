import { randomUUID } from "node:crypto";
import type { Stack } from "./stack.ts";

// Notices and matches written through the opportunities service's own internal actions, the
// way ingestion and matching write them (no route a client can call).

let seq = 0;
export const version = () => `${Date.now().toString(16).padStart(12, "0")}${(seq++).toString(16).padStart(12, "0")}`;

export async function notice(stack: Stack, over: Record<string, unknown> = {}): Promise<string> {
	const sid = randomUUID();
	const r = await stack.broker.call<{ id: string }, object>("opportunities.putNotice", {
		source: "ocds:test",
		source_id: sid,
		rfp_id: `RFP-${sid.slice(0, 8)}`,
		reference_number: `REF-${sid.slice(0, 8)}`,
		title: "Laboratory centrifuges",
		issuing_body: "Ministry of Health",
		description: "Supply as specified in the tender documents.",
		deadline: new Date(Date.now() + 10 * 86400_000).toISOString(),
		...over,
	});
	return r.id;
}

export async function match(stack: Stack, tenantId: string, noticeId: string, over: Record<string, unknown> = {}): Promise<string> {
	const r = await stack.broker.call<{ id: string }, object>("opportunities.recordMatch", {
		tenantId,
		noticeId,
		matchVersion: version(),
		score: 70,
		product_match: { product_id: randomUUID(), name: "Centrifuge 5430" },
		product_match_name: "Centrifuge 5430",
		rationale: [{ feature: "exact_model_mention", points: 40, detail: "5430" }],
		...over,
	});
	return r.id;
}
