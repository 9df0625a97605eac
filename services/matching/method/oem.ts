import { compactKey } from "./model-number.ts";
import { normalizeText } from "./text.ts";

// The ways a manufacturer is named in notices: "Vantor by Helmfield Electric" is also "Vantor" and
// "Helmfield Electric"; "Lumeo (Kestrel)" is also "Kestrel"; corporate suffixes
// ("Networks", "Technologies", "Inc") are dropped because buyers usually drop them.

const CORPORATE = new Set(
	(
		"inc incorporated llc ltd limited corp corporation company co gmbh ag sa nv bv plc pty group holdings technologies technology " +
		"networks solutions systems communications electronics international industries scientific instruments medical enterprises " +
		"labs laboratories products brands the"
	).split(" "),
);

/** Compact keys of the names a manufacturer goes by (longest first). */
export function oemAliases(oemName: string): string[] {
	const out = new Set<string>();
	const norm = normalizeText(oemName);
	const full = compactKey(norm);
	if (full.length >= 3) out.add(full);
	for (const part of norm.split(/\s+by\s+|[()/&,;]|\s+-\s+/)) {
		const words = part.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
		if (words.length === 0) continue;
		const whole = words.join("");
		if (whole.length >= 3) out.add(whole);
		const core = words.filter((w) => !CORPORATE.has(w));
		const coreKey = core.join("");
		if (coreKey.length >= 3) out.add(coreKey);
		// The leading word alone ("Helmfield" of "Helmfield Electric"), when long enough to be a name.
		const lead = core[0];
		if (lead !== undefined && core.length > 1 && lead.length >= 4) out.add(lead);
	}
	return [...out].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** Lower-case words of the manufacturer's name, suffixes included (left out when judging what a product is). */
export function oemWords(oemName: string): Set<string> {
	return new Set(
		normalizeText(oemName)
			.split(/[^a-z0-9]+/)
			.filter((w) => w.length > 0 && w !== "by" && w !== "the"),
	);
}
