// Turning untrusted feed strings into clean, bounded text.
//
// Everything here runs in linear time on any input: markup is removed by a scanner (indexOf,
// never a backtracking regex), the only regexes have bounded or single quantifiers, and input
// is cut to RAW_MAX characters before any work so a 100 MB description costs what 2 MB does.

/** Input beyond this is ignored before cleaning (the cleaned text is capped far lower anyway). */
const RAW_MAX = 2_000_000;

// A small fixed table: the XML five, the usual typography and Latin letters seen in notices.
// Entities a document declares itself are never honoured (DTDs are refused, see xml.ts).
const NAMED_ENTITIES = new Map<string, string>(
	Object.entries({
		amp: "&",
		lt: "<",
		gt: ">",
		quot: '"',
		apos: "'",
		nbsp: "\u00a0",
		ensp: " ",
		emsp: " ",
		thinsp: " ",
		shy: "",
		ndash: "–",
		mdash: "—",
		lsquo: "‘",
		rsquo: "’",
		sbquo: "‚",
		ldquo: "“",
		rdquo: "”",
		bdquo: "„",
		hellip: "…",
		bull: "•",
		middot: "·",
		laquo: "«",
		raquo: "»",
		copy: "©",
		reg: "®",
		trade: "™",
		deg: "°",
		plusmn: "±",
		times: "×",
		divide: "÷",
		micro: "µ",
		frac12: "½",
		frac14: "¼",
		frac34: "¾",
		sup2: "²",
		sup3: "³",
		euro: "€",
		pound: "£",
		cent: "¢",
		yen: "¥",
		sect: "§",
		para: "¶",
		aacute: "á",
		agrave: "à",
		acirc: "â",
		auml: "ä",
		aring: "å",
		ccedil: "ç",
		eacute: "é",
		egrave: "è",
		ecirc: "ê",
		euml: "ë",
		iacute: "í",
		igrave: "ì",
		icirc: "î",
		iuml: "ï",
		ntilde: "ñ",
		oacute: "ó",
		ograve: "ò",
		ocirc: "ô",
		ouml: "ö",
		oslash: "ø",
		uacute: "ú",
		ugrave: "ù",
		ucirc: "û",
		uuml: "ü",
		szlig: "ß",
		Aacute: "Á",
		Eacute: "É",
		Ouml: "Ö",
		Uuml: "Ü",
		Auml: "Ä",
	}),
);

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/** Decodes character references and the named entities above; anything else stays as written. */
export function decodeEntities(s: string): string {
	if (!s.includes("&")) return s;
	return s.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
		if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
		const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? "", 16);
		const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
		return valid ? String.fromCodePoint(cp) : "\ufffd";
	});
}

// Tags whose boundaries are paragraph (or cell) boundaries in the text.
const BREAK_TAGS = new Set([
	"p",
	"div",
	"br",
	"li",
	"ul",
	"ol",
	"dl",
	"dt",
	"dd",
	"tr",
	"table",
	"thead",
	"tbody",
	"tfoot",
	"h1",
	"h2",
	"h3",
	"h4",
	"h5",
	"h6",
	"section",
	"article",
	"header",
	"footer",
	"blockquote",
	"pre",
	"hr",
	"address",
	"figure",
	"caption",
]);
const CELL_TAGS = new Set(["td", "th"]);
// Their content is code or styling, never notice text.
const DROPPED_CONTENT = new Set(["script", "style", "noscript", "template", "head", "title"]);

const TAG_START = /[A-Za-z/!?]/;
const TAG_NAME = /^\/?([A-Za-z][A-Za-z0-9-]{0,30})/;

/**
 * Removes markup. `<` starts a tag only when a letter, `/`, `!` or `?` follows and a `>` closes it,
 * so "a < b" and "x<5" survive. Block tags become line breaks, cells become spaces.
 */
export function stripHtml(s: string): string {
	if (!s.includes("<")) return s;
	const out: string[] = [];
	let lower: string | undefined;
	let i = 0;
	while (i < s.length) {
		const lt = s.indexOf("<", i);
		if (lt < 0) {
			out.push(s.slice(i));
			break;
		}
		out.push(s.slice(i, lt));
		if (s.startsWith("<!--", lt)) {
			const end = s.indexOf("-->", lt + 4);
			i = end < 0 ? s.length : end + 3;
			continue;
		}
		if (!TAG_START.test(s.charAt(lt + 1))) {
			out.push("<");
			i = lt + 1;
			continue;
		}
		const gt = s.indexOf(">", lt + 1);
		if (gt < 0) {
			// Never closed: not markup, keep it as text.
			out.push(s.slice(lt));
			break;
		}
		const head = s.slice(lt + 1, Math.min(gt, lt + 40));
		const name = TAG_NAME.exec(head)?.[1]?.toLowerCase() ?? "";
		const closing = head.startsWith("/");
		i = gt + 1;
		if (!closing && DROPPED_CONTENT.has(name) && !s.slice(lt, gt).endsWith("/")) {
			lower ??= s.toLowerCase();
			const end = lower.indexOf(`</${name}`, i);
			const endGt = end < 0 ? -1 : s.indexOf(">", end);
			i = endGt < 0 ? s.length : endGt + 1;
			continue;
		}
		out.push(BREAK_TAGS.has(name) ? "\n" : CELL_TAGS.has(name) ? " " : "");
	}
	return out.join("");
}

/** Collapses spaces within lines, trims lines and keeps one "\n" between non-empty lines. */
export function normalizeWhitespace(s: string): string {
	const flat = s
		.replace(/\r\n?/g, "\n")
		.replace(/[\u200b\u200c\u200d\u2060\ufeff\u00ad]/g, "")
		.replace(/[\t\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g, " ")
		.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "");
	return flat
		.split("\n")
		.map((line) => line.replace(/ {2,}/g, " ").trim())
		.filter((line) => line !== "")
		.join("\n");
}

/** Cuts at `max` characters (on a word boundary when one is near), marking the cut with "…". */
export function truncate(s: string, max: number): string {
	if (s.length <= max) return s;
	let cut = s.slice(0, Math.max(0, max - 1));
	const last = cut.charCodeAt(cut.length - 1);
	if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
	const space = Math.max(cut.lastIndexOf(" "), cut.lastIndexOf("\n"));
	if (space > 0 && cut.length - space < 40) cut = cut.slice(0, space);
	return `${cut.trimEnd()}…`;
}

function asString(v: unknown): string | null {
	if (typeof v === "string") return v;
	if (typeof v === "number" && Number.isFinite(v)) return String(v);
	return null;
}

export interface TextOptions {
	/** The value may hold HTML (SAM, OCDS descriptions): strip markup before decoding entities. */
	html?: boolean;
}

function clean(value: unknown, options: TextOptions): string | null {
	const raw = asString(value);
	if (raw === null) return null;
	let s = raw.length > RAW_MAX ? raw.slice(0, RAW_MAX) : raw;
	if (options.html) s = stripHtml(s);
	s = normalizeWhitespace(decodeEntities(s));
	return s === "" || s === "null" ? null : s;
}

/**
 * Multi-line clean text, or null when nothing is left. With `html`, markup is stripped first and
 * entities decoded after, so an escaped `&lt;b&gt;` stays visible text rather than becoming markup.
 * The literal string "null" (SAM.gov writes it) counts as absent.
 */
export function cleanText(value: unknown, max: number, options: TextOptions = {}): string | null {
	const s = clean(value, options);
	return s === null ? null : truncate(s, max);
}

/** Single-line clean text (names, titles, codes): entities decoded, all whitespace collapsed. */
export function cleanLine(value: unknown, max: number): string | null {
	const s = clean(value, {});
	return s === null ? null : truncate(s.replace(/\n/g, " "), max);
}

/** An http(s) URL (trimmed, at most `max` characters) or null: other schemes never reach a page. */
export function safeUrl(value: unknown, max = 2_048): string | null {
	const raw = asString(value)?.trim();
	if (!raw || raw.length > max * 2 || raw === "null") return null;
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return null;
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return null;
	return url.href.length <= max ? url.href : null;
}

/** A plausible e-mail address (one @, no spaces), or null. */
export function cleanEmail(value: unknown): string | null {
	const s = cleanLine(value, 300)?.replace(/^mailto:/i, "");
	if (!s || s.length > 254 || /\s/.test(s)) return null;
	const at = s.indexOf("@");
	return at > 0 && at === s.lastIndexOf("@") && at < s.length - 1 ? s : null;
}

/** Lower-case ASCII tokens without diacritics or punctuation: the basis of comparison keys. */
export function tokens(value: string): string[] {
	return value
		.normalize("NFKD")
		.replace(/\p{M}/gu, "")
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((t) => t !== "");
}

const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/**
 * A language a feed declares ("en-GB", "ES", "nob", eForms' "SPA") as the ISO 639-1 code OCDS `language` uses,
 * through the runtime's CLDR aliases rather than a table of our own; undefined for a tag that names no ISO 639-1 language.
 */
export function isoLanguage(tag: unknown): string | undefined {
	if (typeof tag !== "string" || !tag.trim() || tag.length > 35) return undefined;
	try {
		const code = new Intl.Locale(Intl.getCanonicalLocales(tag.trim())[0]!).language;
		return /^[a-z]{2}$/.test(code) && languageNames.of(code) !== undefined ? code : undefined;
	} catch {
		return undefined; // not a language tag at all
	}
}

/** The notice's `language` field from a declared tag: absent when the tag names no language, like every optional field. */
export function languageField(tag: unknown): { language?: string } {
	const language = isoLanguage(tag);
	return language ? { language } : {};
}
