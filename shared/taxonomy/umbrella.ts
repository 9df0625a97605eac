// Why: a notice often names a class of goods ("AUDIO VISUAL EQUIPMENT", "Multimedia equipment") whose
// CPV label sits in one branch while the kinds a reseller sells under it are filed in others
// (microphones 32341000, loudspeakers 32342000, projectors 38652100). No CPV prefix joins them, but
// UNSPSC files them together: its family "Audio and visual presentation and composing equipment" holds
// projectors beside classes the crosswalk reads as audio-visual equipment, and its class "Audio and
// visual equipment" holds microphones and speakers. Read through the committed crosswalk, the UNSPSC
// classes and families filed under a CPV class label say which kinds that label covers (issue 16).
import { cpvDepth, cpvInLine } from "./codes.ts";
import { cpvEntries, crosswalkBest } from "./index.ts";
import { goodsDivision, isClassNoun, labelHeadCount } from "./label-index.ts";

/** Heads that name what serves other goods, not a class of them: "Audio equipment accessories" cover no microphone. */
const SERVING_HEADS = new Set(["part", "accessori"]);
/** A UNSPSC family is filed under a CPV label when at least this share of its classes (and two) map there. */
const FAMILY_SHARE = 0.5;
const FAMILY_MIN_CLASSES = 2;
/** Share of a UNSPSC class's or family's kinds that must lie in the label's own CPV group for its grouping to be read. */
const AGREEING_SHARE = 0.5;
/** A kind outside the label's CPV group is its member when at least this many UNSPSC codes file it there. */
const MIN_SUPPORT = 2;
/** A CPV group of at most this many codes is one field of goods (sound and video apparatus); a larger one is many. */
const NARROW_GROUP = 128;
/** The widest CPV label (digits) that takes on what a narrower class label covers: a class, not a group of many. */
const INHERIT_MIN_DEPTH = 4;
/** A member is a kind: a CPV class (4 digits) or narrower. */
const MEMBER_MIN_DEPTH = 4;

let members: Map<string, Set<string>> | null = null;
let covering: Map<string, string[]> | null = null;

/** Whether a CPV code's English label names a class of goods (its head is a class noun: label-index's isClassNoun; not "parts" or "accessories"). */
export function namesClassOfGoods(code: string): boolean {
	const head = labelHeadCount(code);
	return head !== null && isClassNoun(head.stem) && !SERVING_HEADS.has(head.stem);
}

function build(): Map<string, Set<string>> {
	/** Each UNSPSC class's codes (its own and its commodities') with the CPV kind each is read as. */
	const classes = new Map<string, { code: string; cpv: string }[]>();
	const header = new Map<string, string>();
	for (const { code, cpv, inherited } of crosswalkBest("unspsc")) {
		// A commodity with no match of its own repeats its class's candidates: it says nothing more.
		if (inherited) continue;
		const cls = code.slice(0, 6);
		if (code.endsWith("00")) header.set(cls, cpv);
		classes.set(cls, [...(classes.get(cls) ?? []), { code, cpv }]);
	}
	// The UNSPSC codes that file each kind under each label: one alone may be the crosswalk's slip.
	const support = new Map<string, Map<string, Set<string>>>();
	const add = (umbrella: string, held: readonly { code: string; cpv: string }[]) => {
		if (!goodsDivision(umbrella) || !namesClassOfGoods(umbrella)) return;
		// The UNSPSC grouping is read only where CPV agrees with it as far as CPV can tell: most of what it holds lies in the
		// label's own CPV group. A class header the crosswalk misread ("microscopes" filed as surface observing apparatus) is not.
		const group = umbrella.slice(0, 3);
		if (held.filter((h) => h.cpv.startsWith(group)).length < AGREEING_SHARE * held.length) return;
		const kinds = support.get(umbrella) ?? new Map<string, Set<string>>();
		// Kinds in a line of descent with the label are already its own (or wider than it): only other branches are added;
		// kinds of the label's own CPV class are left to CPV's own structure (siblings there are near kinds already); a
		// UNSPSC code read as a whole CPV group ("computer equipment") is too vague to be one kind.
		for (const { code, cpv } of held)
			if (goodsDivision(cpv) && cpvDepth(cpv) >= MEMBER_MIN_DEPTH && !cpvInLine(cpv, umbrella) && cpv.slice(0, 4) !== umbrella.slice(0, 4))
				kinds.set(cpv, (kinds.get(cpv) ?? new Set<string>()).add(code));
		support.set(umbrella, kinds);
	};
	// A UNSPSC class filed under a class label: its commodities are kinds of that class.
	for (const [cls, cpv] of header) add(cpv, classes.get(cls) ?? []);
	// A UNSPSC family most of whose classes are filed under one class label: all its classes' kinds are.
	const families = new Map<string, string[]>();
	for (const cls of header.keys()) families.set(cls.slice(0, 4), [...(families.get(cls.slice(0, 4)) ?? []), cls]);
	for (const members of families.values()) {
		const counts = new Map<string, number>();
		for (const cls of members) counts.set(header.get(cls) ?? "", (counts.get(header.get(cls) ?? "") ?? 0) + 1);
		for (const [cpv, n] of counts)
			if (n >= FAMILY_MIN_CLASSES && n >= FAMILY_SHARE * members.length)
				add(
					cpv,
					members.flatMap((cls) => classes.get(cls) ?? []),
				);
	}
	const groupSize = new Map<string, number>();
	for (const e of cpvEntries()) groupSize.set(e.code.slice(0, 3), (groupSize.get(e.code.slice(0, 3)) ?? 0) + 1);
	const out = new Map<string, Set<string>>();
	for (const [umbrella, kinds] of support) {
		// A kind in the label's own CPV group, when that group is a narrow one, is near it by CPV's own word; any other needs two
		// UNSPSC codes filing it so ("medical equipments", some 350 codes, is no such word).
		const near = (k: string) => k.startsWith(umbrella.slice(0, 3)) && (groupSize.get(umbrella.slice(0, 3)) ?? 0) <= NARROW_GROUP;
		const kept = [...kinds].filter(([k, codes]) => codes.size >= MIN_SUPPORT || near(k)).map(([k]) => k);
		if (kept.length > 0) out.set(umbrella, new Set(kept));
	}
	// What a class covers, the classes CPV puts it in cover too: "Television and audio-visual equipment" (32320000) covers
	// the projectors "Audio-visual equipment" covers. Not a group or a division ("Office machinery, equipment and supplies").
	for (const [umbrella, kinds] of [...out]) {
		// Only in one field of goods (a narrow group): in "medical equipments" (some 350 codes) a class holding a class label is
		// many other kinds ("Diagnostic devices" holds "Diagnostic supplies", which the crosswalk gives catheters).
		if ((groupSize.get(umbrella.slice(0, 3)) ?? 0) > NARROW_GROUP) continue;
		for (let d = cpvDepth(umbrella) - 1; d >= INHERIT_MIN_DEPTH; d--) {
			const wider = umbrella.slice(0, d).padEnd(8, "0");
			if (wider === umbrella || !namesClassOfGoods(wider)) continue;
			const set = out.get(wider) ?? new Set<string>();
			for (const k of kinds) if (!cpvInLine(k, wider) && k.slice(0, 4) !== wider.slice(0, 4)) set.add(k);
			if (set.size > 0) out.set(wider, set);
		}
	}
	return out;
}

/** The kinds (CPV codes in other branches) a class label covers, as UNSPSC files them under it; empty for any other code. */
export function umbrellaMembers(code: string): ReadonlySet<string> {
	members ??= build();
	return members.get(code) ?? EMPTY;
}

const EMPTY: ReadonlySet<string> = new Set();

/** The member of a class label's kinds that a CPV code is (or falls under), if any: a microphone under audio-visual equipment. */
export function coveringMember(umbrella: string, code: string): string | undefined {
	const kinds = umbrellaMembers(umbrella);
	if (kinds.size === 0) return undefined;
	for (let d = cpvDepth(code); d >= 2; d--) {
		const m = code.slice(0, d).padEnd(8, "0");
		if (kinds.has(m)) return m;
	}
	return undefined;
}

/** The class labels that cover a CPV code (itself or an ancestor of it a member), for index keys: the reverse of umbrellaMembers. */
export function umbrellasCovering(code: string): readonly string[] {
	if (!covering) {
		covering = new Map();
		members ??= build();
		for (const [u, kinds] of members) for (const k of kinds) covering.set(k, [...(covering.get(k) ?? []), u]);
	}
	const out = new Set<string>();
	for (let d = cpvDepth(code); d >= 2; d--) for (const u of covering.get(code.slice(0, d).padEnd(8, "0")) ?? []) out.add(u);
	return [...out].sort();
}
