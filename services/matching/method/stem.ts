// Plural folding and British/US spelling, shared by every comparison in the method.

// British spellings folded to one form so a UK notice and a US catalog agree.
export const SPELLING: Record<string, string> = {
	centre: "center",
	centres: "centers",
	litre: "liter",
	litres: "liters",
	metre: "meter",
	metres: "meters",
	fibre: "fiber",
	colour: "color",
	analyser: "analyzer",
	analysers: "analyzers",
	programme: "program",
	catalogue: "catalog",
	modernisation: "modernization",
	authorisation: "authorization",
	authorised: "authorized",
	aluminium: "aluminum",
	sterilisation: "sterilization",
	sterilising: "sterilizing",
	organisation: "organization",
	licence: "license",
	licences: "licenses",
	tonne: "ton",
	tonnes: "tons",
};

const STEM_KEEP = new Set([
	"series", "species", "gas", "lens", "chassis", "plus", "status", "bus", "campus", "virus", "analysis", "basis", "axis", "its", "this",
	"mbps", "gbps", "kbps", "fps", "ips", "gps", "ups", "os", "ios", "dns", "news", "physics", "optics", "electronics", "diagnostics",
	"analytics", "logistics", "always", "various", "previous", "serious", "numerous", "yes", "less", "unless", "across", "process",
	"access", "wireless", "stainless", "glass", "mass", "class", "pass", "address", "thickness", "brightness", "hardness",
]);

/** Plural and a few inflections folded: "switches" -> "switch", "batteries" -> "battery". */
export function stem(token: string): string {
	let t = SPELLING[token] ?? token;
	if (t.length <= 3 || /\d/.test(t) || STEM_KEEP.has(t)) return t;
	if (t === "optics") return "optic";
	if (t.endsWith("ies") && t.length > 4) return `${t.slice(0, -3)}y`;
	if (/(ss|x|ch|sh|z)es$/.test(t)) return t.slice(0, -2);
	if (t.endsWith("ss") || t.endsWith("us") || t.endsWith("is")) return t;
	if (t.endsWith("s")) t = t.slice(0, -1);
	return t;
}

