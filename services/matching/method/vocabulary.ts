import { stem } from "./stem.ts";

// General procurement vocabulary: abbreviations that buyers and catalogs use interchangeably
// with their long forms, across IT, laboratory, public-safety and facilities purchasing. Either
// form in a text adds the other, so "NGFW" in a notice meets "Next-Generation Firewall" in a
// catalog. This is language knowledge, not knowledge of any catalog or notice.

const ABBREVIATIONS: Record<string, string[]> = {
	ups: ["uninterruptible power supply", "uninterruptable power supply", "uninterruptible power system"],
	pdu: ["power distribution unit"],
	ngfw: ["next generation firewall"],
	utm: ["unified threat management"],
	bsc: ["biological safety cabinet", "biosafety cabinet"],
	ult: ["ultra low temperature", "ultralow temperature"],
	bwc: ["body worn camera", "body camera"],
	nvr: ["network video recorder"],
	dvr: ["digital video recorder"],
	ptz: ["pan tilt zoom"],
	cctv: ["closed circuit television"],
	hplc: ["high performance liquid chromatography", "high performance liquid chromatograph"],
	gc: ["gas chromatograph", "gas chromatography"],
	lc: ["liquid chromatograph", "liquid chromatography"],
	sem: ["scanning electron microscope"],
	tem: ["transmission electron microscope"],
	pcr: ["polymerase chain reaction"],
	poe: ["power over ethernet"],
	ap: ["access point"],
	wap: ["wireless access point"],
	wlc: ["wireless lan controller", "wireless controller"],
	lmr: ["land mobile radio"],
	mdt: ["mobile data terminal"],
	aed: ["automated external defibrillator"],
	ppe: ["personal protective equipment"],
	hvac: ["heating ventilation air conditioning"],
	nas: ["network attached storage"],
	ssd: ["solid state drive"],
	hdd: ["hard disk drive"],
	kvm: ["keyboard video mouse"],
	mfd: ["multifunction device", "multi function device"],
	mfp: ["multifunction printer", "multi function printer"],
	mri: ["magnetic resonance imaging"],
	ecg: ["electrocardiograph", "ekg"],
	uav: ["unmanned aerial vehicle"],
	lims: ["laboratory information management system"],
};

/** Single words that name the same kind of thing (written as words; compared as stems). */
const SYNONYM_WORDS: Record<string, string> = {
	notebook: "laptop",
	biosafety: "bsc",
	laboratory: "lab",
	ultracold: "ult",
	videoconferencing: "videoconference",
};

const SYNONYMS: Record<string, string> = Object.fromEntries(Object.entries(SYNONYM_WORDS).map(([from, to]) => [stem(from), stem(to)]));

const ENTRIES: { abbr: string; phrases: string[][] }[] = Object.entries(ABBREVIATIONS).map(([abbr, phrases]) => ({
	abbr,
	phrases: phrases.map((p) => p.split(" ").map(stem)),
}));

function containsPhrase(seq: string[], phrase: string[]): boolean {
	const first = phrase[0];
	if (first === undefined) return false;
	for (let i = 0; i + phrase.length <= seq.length; i++) {
		if (seq[i] !== first) continue;
		let ok = true;
		for (let j = 1; j < phrase.length && ok; j++) ok = seq[i + j] === phrase[j];
		if (ok) return true;
	}
	return false;
}

/** Extra tokens implied by a text: the abbreviation of a long form present, or the words of an abbreviation present. */
export function expandVocabulary(seq: string[], bag: ReadonlySet<string>): string[] {
	const out: string[] = [];
	for (const { abbr, phrases } of ENTRIES) {
		// An abbreviation's plural ("NGFWs", "PDUs") is no English word for the stemmer to fold.
		if (bag.has(abbr) || bag.has(`${abbr}s`)) {
			const first = phrases[0];
			if (first) out.push(...first);
		} else if (phrases.some((p) => containsPhrase(seq, p))) out.push(abbr);
	}
	for (const t of bag) {
		const syn = SYNONYMS[t];
		if (syn !== undefined) out.push(syn);
	}
	return out;
}

/** The abbreviations and synonyms a word stands with ("ups" for "ups", "laptop" for "notebook"). */
export function aliasesOf(token: string): string[] {
	const out = new Set<string>([token]);
	const syn = SYNONYMS[token];
	if (syn !== undefined) out.add(syn);
	for (const [from, to] of Object.entries(SYNONYMS)) if (to === token) out.add(from);
	return [...out];
}

/** Abbreviations whose long form ends with this word ("ap" for "point" of "access point"). */
export function abbreviationsEndingWith(word: string): string[] {
	return ENTRIES.filter((e) => e.phrases.some((p) => p[p.length - 1] === word)).map((e) => e.abbr);
}

// Attribute values that exclude each other: a notice asking for one is not met by a product that
// states the other (and not the one asked for). Only pairs that are unambiguous across domains.
const OPPOSITES: [string[], string[]][] = [
	[
		["single mode", "singlemode", "smf"],
		["multimode", "multi mode", "mmf"],
	],
	[["indoor"], ["outdoor"]],
	[["single phase"], ["three phase", "3 phase"]],
	[["corded"], ["cordless"]],
	[["upright"], ["inverted", "chest"]],
	[
		["benchtop", "bench top", "tabletop", "table top"],
		["floor model", "floor standing", "floorstanding"],
	],
	[["vhf"], ["uhf"]],
	[["lamp"], ["laser"]],
];

const OPPOSITE_PHRASES = OPPOSITES.map(([a, b]) => [a.map((x) => x.split(" ").map(stem)), b.map((x) => x.split(" ").map(stem))] as const);

const has = (seq: readonly string[], phrases: readonly string[][]) => phrases.some((p) => containsPhrase(seq as string[], p));

// Which side of each opposite pair a token sequence states, as a bit mask (bit 2k: the first
// side of pair k, bit 2k+1: the other), computed once per sequence: the same notice passages and
// product texts are compared again and again when one product meets thousands of notices.
const sidesCache = new WeakMap<readonly string[], number>();
function sides(seq: readonly string[]): number {
	let mask = sidesCache.get(seq);
	if (mask === undefined) {
		mask = 0;
		OPPOSITE_PHRASES.forEach(([a, b], k) => {
			if (has(seq, a)) mask! |= 1 << (2 * k);
			if (has(seq, b)) mask! |= 1 << (2 * k + 1);
		});
		sidesCache.set(seq, mask);
	}
	return mask;
}

/** Attribute values the passage asks for that the product states the opposite of ("single-mode" vs "multimode"). */
export function conflictingAttributes(passage: readonly string[], product: readonly string[]): string[] {
	const asked = sides(passage);
	if (asked === 0) return [];
	const stated = sides(product);
	const out: string[] = [];
	OPPOSITE_PHRASES.forEach(([a, b], k) => {
		for (const [want, other, wantBit, otherBit] of [
			[a, b, 1 << (2 * k), 1 << (2 * k + 1)],
			[b, a, 1 << (2 * k + 1), 1 << (2 * k)],
		] as const) {
			if (asked & wantBit && !(asked & otherBit) && stated & otherBit && !(stated & wantBit))
				out.push(`${want[0]?.join(" ")} vs ${other[0]?.join(" ")}`);
		}
	});
	return out;
}
