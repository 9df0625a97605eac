import type { NoticeView, ProductView } from "../types.ts";

// Generated catalogs and notices for the scale check: a small vocabulary of product kinds,
// makers and model numbers, so that many products share words and codes, the way real catalogs
// of one trade do. Deterministic for a given seed.

export function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const KINDS: { head: string; modifiers: string[]; code: string }[] = [
	{ head: "switch", modifiers: ["access", "poe", "core", "industrial"], code: "43222612" },
	{ head: "router", modifiers: ["edge", "branch", "core"], code: "43222609" },
	{ head: "firewall", modifiers: ["branch", "datacenter", "desktop"], code: "43222501" },
	{ head: "camera", modifiers: ["dome", "ptz", "bullet", "thermal"], code: "46171610" },
	{ head: "radio", modifiers: ["portable", "mobile", "digital"], code: "43191510" },
	{ head: "laptop", modifiers: ["rugged", "business", "convertible"], code: "43211503" },
	{ head: "printer", modifiers: ["label", "desktop", "mobile"], code: "43212116" },
	{ head: "centrifuge", modifiers: ["benchtop", "refrigerated", "micro"], code: "41103902" },
	{ head: "freezer", modifiers: ["upright", "chest", "ult"], code: "41103013" },
	{ head: "microscope", modifiers: ["stereo", "inverted", "compound"], code: "41111701" },
	{ head: "balance", modifiers: ["analytical", "precision"], code: "41111503" },
	{ head: "projector", modifiers: ["laser", "classroom", "venue"], code: "45111609" },
	{ head: "ups", modifiers: ["online", "rackmount", "tower"], code: "39121011" },
	{ head: "monitor", modifiers: ["patient", "vital", "desktop"], code: "42181801" },
	{ head: "pipette", modifiers: ["electronic", "manual", "multichannel"], code: "41121503" },
];
const MAKERS = [
	"Arcton",
	"Bellweather",
	"Corvane",
	"Dunmore",
	"Elstree",
	"Fenwick",
	"Galloway",
	"Harwell",
	"Ilford",
	"Jarrow",
	"Kestrel",
	"Lindqvist",
];
const FILLER = [
	"Deliveries are due within ninety days of award to the receiving dock.",
	"Offers must include a completed pricing schedule and technical data sheets.",
	"The buyer reserves the right to award on a best-value basis.",
	"All items must be new and in the original packaging.",
	"Questions must be submitted in writing before the closing date.",
	"Warranty of at least twelve months is required for every line.",
];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const modelOf = (r: () => number) =>
	`${String.fromCharCode(65 + Math.floor(r() * 26))}${String.fromCharCode(65 + Math.floor(r() * 26))}${100 + Math.floor(r() * 9000)}` +
	`-${Math.floor(r() * 90) + 10}${pick(r, ["A", "B", "E", "LE", "X"])}`;

export function syntheticProducts(tenantId: string, count: number, seed: number): ProductView[] {
	const r = rng(seed);
	const out: ProductView[] = [];
	for (let i = 0; i < count; i++) {
		const kind = pick(r, KINDS);
		const maker = pick(r, MAKERS);
		const modifier = pick(r, kind.modifiers);
		const model = modelOf(r);
		out.push({
			tenantId,
			productId: `${tenantId}-p${i}`,
			partnerId: maker,
			oemName: `${maker} Systems`,
			partnerAuthorized: r() > 0.02,
			name: `${maker} ${model.split("-")[0]} ${modifier} ${kind.head}`,
			model,
			description: `A ${modifier} ${kind.head} with ${pick(r, ["redundant power", "remote management", "extended warranty", "a touch display", "network monitoring"])}.`,
			commodityCodes: [kind.code],
			specs: [{ key: "rating", value: pick(r, ["IP65", "IP30", "MIL-STD-810H", "UL listed"]) }],
			repStatus: r() > 0.3 ? "carried" : "catalog",
			status: r() > 0.05 ? "active" : "discontinued",
		});
	}
	return out;
}

/** The kind a generated product belongs to (its name ends with the kind's head word). */
const kindOf = (p: Pick<ProductView, "name">) => KINDS.find((k) => p.name.endsWith(` ${k.head}`));

/**
 * Notices of the generated kinds; one in ten names the model of one of `named` (as "<model> or
 * equal" on a line of that product's kind, the way a buyer cites a reference model).
 */
export function syntheticNotices(count: number, seed: number, named: readonly Pick<ProductView, "name" | "model">[] = []): NoticeView[] {
	const r = rng(seed);
	const out: NoticeView[] = [];
	for (let i = 0; i < count; i++) {
		const reference = named.length > 0 && r() < 0.1 ? pick(r, named) : null;
		const kind = (reference && kindOf(reference)) || pick(r, KINDS);
		const modifier = pick(r, kind.modifiers);
		const service = r() < 0.2;
		const model = reference?.model ?? null;
		const lines = 1 + Math.floor(r() * 3);
		const items = Array.from({ length: lines }, (_, j) => {
			const k = j === 0 ? kind : pick(r, KINDS);
			return {
				description:
					`${service ? "Maintenance of" : ""} ${pick(r, k.modifiers)} ${k.head}${model && j === 0 ? ` ${model} or equal` : ""}`.trim(),
				quantity: 1 + Math.floor(r() * 50),
				unit: service ? "month" : "each",
				classification: { scheme: "UNSPSC", code: service ? "81111812" : k.code },
			};
		});
		out.push({
			noticeId: `syn-${String(i).padStart(6, "0")}`,
			title: `${service ? "Maintenance services for" : "Supply of"} ${modifier} ${kind.head}s${r() < 0.3 ? ` - ${pick(r, MAKERS)} or equal` : ""}`,
			description: [pick(r, FILLER), pick(r, FILLER), `The requirement covers ${lines} line items.`, pick(r, FILLER)].join(" "),
			items,
			categories: items.map((it) => ({ scheme: it.classification.scheme, code: it.classification.code })),
			issuingBody: `Agency ${Math.floor(r() * 500)}`,
		});
	}
	return out;
}
