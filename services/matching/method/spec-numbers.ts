import { normalizeText } from "./text.ts";

// Measured quantities in text ("12,000 lumens", "5 kVA", "-70 C", "8 x 25GbE", "100-200 L") and
// whether a product's figures meet a notice's. Only dimensions where the comparison is
// unambiguous are read: for most of them more is better (a 5,000-lumen projector does not meet
// a 12,000-lumen requirement, a 1.5 kVA UPS not a 20 kVA one); volumes and sizes must fall in a
// stated range; a cold temperature must be reached; a capacity (seats, ports) must hold what is asked.

export type Dimension =
	| "lumen"
	| "va"
	| "rpm"
	| "rcf"
	| "gbps"
	| "liter"
	| "temperature"
	| "megapixel"
	| "terabyte"
	| "inch"
	| "seat"
	| "port";

export interface Quantity {
	dimension: Dimension;
	min: number;
	max: number;
	text: string;
}

const NUM = String.raw`([-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d+(?:\.\d+)?)`;
const RANGE = String.raw`${NUM}(?:\s*(?:-|to)\s*${NUM})?`;

interface UnitRule {
	dimension: Dimension;
	unit: string;
	scale: (unit: string) => number;
}

const UNITS: UnitRule[] = [
	{ dimension: "lumen", unit: String.raw`(?:iso |ansi )?(?:lumens?|lm)\b`, scale: () => 1 },
	{ dimension: "va", unit: String.raw`(?:k|m)?va\b`, scale: (u) => (u.startsWith("k") ? 1e3 : u.startsWith("m") ? 1e6 : 1) },
	{ dimension: "rpm", unit: String.raw`rpm\b`, scale: () => 1 },
	{ dimension: "rcf", unit: String.raw`x\s?g\b`, scale: () => 1 },
	{
		dimension: "gbps",
		// "400G-FR4", "100G-LR4": an optic's rate before its reach code.
		unit: String.raw`(?:gbe|gbps|gb/s|mbps|g(?=\s*(?:sfp|qsfp|base|uplink|downlink|port|ethernet|mgig|/)|-(?:[fldsezc]r)\d))`,
		scale: (u) => (u.startsWith("mbps") ? 1e-3 : 1),
	},
	// Ethernet PHY names count in Mbit/s: "1000BASE-T", "100BASE-TX".
	{ dimension: "gbps", unit: String.raw`base(?=-[a-z])`, scale: () => 1e-3 },
	{
		dimension: "liter",
		unit: String.raw`(?:l|liters?|ml|cu\.? ?ft)\b`,
		scale: (u) => (u.startsWith("ml") ? 1e-3 : u.startsWith("cu") ? 28.3168 : 1),
	},
	{ dimension: "temperature", unit: String.raw`(?:c|celsius)\b`, scale: () => 1 },
	{ dimension: "megapixel", unit: String.raw`(?:mp|megapixels?)\b`, scale: () => 1 },
	{ dimension: "terabyte", unit: String.raw`tb\b`, scale: () => 1 },
	{ dimension: "inch", unit: String.raw`(?:inch|inches|")`, scale: () => 1 },
	// Capacities counted in what they hold: a 38-seat minibus does not carry 72 passengers, a 24-port switch has no 48 ports.
	{ dimension: "seat", unit: String.raw`(?:passengers?|passagers?|seats?|seater|pax)\b`, scale: () => 1 },
	{ dimension: "port", unit: String.raw`ports?\b`, scale: () => 1 },
];

const RULES = UNITS.map((u) => ({ ...u, re: new RegExp(String.raw`(?<![\w.])${RANGE}[\s-]*(${u.unit})`, "g") }));

const toNumber = (s: string) => Number(s.replace(/,/g, ""));

/** Every quantity in a text with a unit of a known dimension. */
export function extractQuantities(text: string): Quantity[] {
	const norm = normalizeText(text);
	const out: Quantity[] = [];
	for (const rule of RULES) {
		for (const m of norm.matchAll(rule.re)) {
			const a = m[1];
			const unit = m[3] ?? "";
			if (a === undefined) continue;
			// A one-letter unit glued to a number is usually part of a name ("7400L", "3310C"); a signed temperature ("-80C") is not.
			if (/^[lc]$/.test(unit) && !/\s$/.test(m[0].slice(0, m[0].length - unit.length)) && !(unit === "c" && /^[-+]/.test(a))) continue;
			const k = rule.scale(unit);
			const x = toNumber(a) * k;
			const y = m[2] !== undefined ? toNumber(m[2]) * k : x;
			if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
			out.push({ dimension: rule.dimension, min: Math.min(x, y), max: Math.max(x, y), text: m[0].trim() });
		}
	}
	return out;
}

const MORE_IS_BETTER: ReadonlySet<Dimension> = new Set(["lumen", "va", "rpm", "rcf", "gbps", "megapixel", "terabyte", "seat", "port"]);

export interface SpecCheck {
	dimension: Dimension;
	ok: boolean;
	required: string;
	offered: string;
}

const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en-US") : String(Math.round(n * 1000) / 1000));

/** Compare the product's figures with the figures of one notice passage, dimension by dimension. */
export function compareSpecs(product: readonly Quantity[], notice: readonly Quantity[]): SpecCheck[] {
	const out: SpecCheck[] = [];
	const dims = new Set(notice.map((q) => q.dimension));
	for (const dim of dims) {
		const offered = product.filter((q) => q.dimension === dim);
		if (offered.length === 0) continue;
		const asked = notice.filter((q) => q.dimension === dim);
		if (MORE_IS_BETTER.has(dim)) {
			// The passage's largest figure is the requirement (the smaller ones are options or break-outs).
			const req = Math.max(...asked.map((q) => q.min));
			const best = Math.max(...offered.map((q) => q.max));
			out.push({ dimension: dim, ok: best >= req * 0.95, required: `${fmt(req)} ${dim}`, offered: `${fmt(best)} ${dim}` });
		} else if (dim === "temperature") {
			const colds = asked.filter((q) => q.min <= -20);
			if (colds.length === 0) continue;
			const req = Math.min(...colds.map((q) => q.min));
			const best = Math.min(...offered.map((q) => q.min));
			out.push({ dimension: dim, ok: best <= req + 3, required: `${fmt(req)} C`, offered: `${fmt(best)} C` });
		} else {
			// Volumes and sizes: a stated range must contain one of the product's figures.
			const ranges = asked.filter((q) => q.max > q.min);
			if (ranges.length === 0) {
				const req = Math.max(...asked.map((q) => q.min));
				const best = Math.max(...offered.map((q) => q.max));
				out.push({ dimension: dim, ok: best >= req * 0.95, required: `${fmt(req)} ${dim}`, offered: `${fmt(best)} ${dim}` });
				continue;
			}
			const ok = ranges.some((r) => offered.some((q) => q.max >= r.min * 0.95 && q.max <= r.max * 1.05));
			const r = ranges[0];
			if (r)
				out.push({
					dimension: dim,
					ok,
					required: `${fmt(r.min)}-${fmt(r.max)} ${dim}`,
					offered: offered.map((q) => fmt(q.max)).join("/") + ` ${dim}`,
				});
		}
	}
	return out;
}
