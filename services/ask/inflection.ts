// A question's word in the notice's own language that the notice writes in another inflection the stemmer does not
// bring together (issue 18): Snowball's Romanian stemmer cuts endings but leaves the stem's own alternations, so a
// plural asked ("Câte măști ...?", stem "mast") misses the singular written ("Masca de oxigen", "masc"). Both stems are
// read back to one key by undoing the regular alternations of Romanian inflection (shared/text stays the plain stemmer).
import type { TextLanguage } from "../../shared/text/index.ts";

/** A Romanian folded stem with its inflectional alternations undone: sc/șt, d/z, ea/e, oa/o, a/ă/e, the plural -ur(i). */
function romanianKey(stem: string): string {
	let k = stem.length > 4 ? stem.replace(/ur$/, "") : stem;
	if (k.length > 2) k = k.replace(/[aeiu]$/, "");
	return k.replace(/st$/, "sc").replace(/z$/, "d").replace(/ea/g, "e").replace(/oa/g, "o").replace(/e/g, "a");
}

const KEYS: Partial<Record<TextLanguage, (stem: string) => string>> = { ro: romanianKey };
const indexes = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

/**
 * The notice's stems (from `vocabulary`) that are another inflection of `stem` in `lang`, the stem itself excluded;
 * empty for a language whose stemmer already brings its inflections together.
 */
export function otherInflections(stem: string, lang: TextLanguage, vocabulary: ReadonlySet<string>): string[] {
	const key = KEYS[lang];
	if (!key || stem.length < 3 || /\d/.test(stem)) return [];
	let index = indexes.get(vocabulary);
	if (!index) {
		index = new Map();
		for (const w of vocabulary) {
			if (w.length < 3 || /\d/.test(w)) continue;
			const k = key(w);
			const list = index.get(k);
			if (list) list.push(w);
			else index.set(k, [w]);
		}
		indexes.set(vocabulary, index);
	}
	return (index.get(key(stem)) ?? []).filter((w) => w !== stem);
}
