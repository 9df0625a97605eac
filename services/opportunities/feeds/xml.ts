import { XMLParser, XMLValidator } from "fast-xml-parser";
import { decodeEntities } from "./text.ts";

// Safe XML reading for untrusted documents, into a small namespace-resolved tree.
//
// - Any DOCTYPE or ENTITY declaration refuses the document before parsing: no external entities
//   (XXE), no entity expansion (billion laughs), no DTD processing at all. eForms notices never
//   carry a DTD, so nothing legitimate is lost.
// - The parser runs with entity processing off; text is decoded afterwards by decodeEntities,
//   which knows only the predefined entities and character references.
// - Nesting is capped (MAX_DEPTH) and malformed documents are refused by the validator.
// - Element names are rewritten to canonical prefixes from the namespaces in scope (cbc, cac, ext,
//   efext, efac, efbc; ted and nuts for TED's legacy R2.0.9 export), so a document that binds other
//   prefixes to the same namespaces reads the same.

export interface XmlElement {
	/** Canonical name: "cbc:ID", "efac:Changes"; `{uri}Local` for other namespaces; bare for none. */
	name: string;
	local: string;
	namespace: string;
	attrs: Readonly<Record<string, string>>;
	text: string;
	children: XmlElement[];
}

const MAX_DEPTH = 64;

export const NAMESPACES = {
	cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
	cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
	ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
	efext: "http://data.europa.eu/p27/eforms-ubl-extensions/1",
	efac: "http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1",
	efbc: "http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1",
} as const;

const CANONICAL = new Map<string, string>(Object.entries(NAMESPACES).map(([prefix, uri]) => [uri, prefix]));

const DTD = /<!\s*(?:DOCTYPE|ENTITY)/i;

const ATTRS = "@";
const TEXT = "#text";
const CDATA = "#cdata";

const parser = new XMLParser({
	ignoreAttributes: false,
	attributeNamePrefix: "",
	attributesGroupName: ATTRS,
	textNodeName: TEXT,
	cdataPropName: CDATA,
	commentPropName: false,
	alwaysCreateTextNode: true,
	isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
	processEntities: false,
	htmlEntities: false,
	parseTagValue: false,
	parseAttributeValue: false,
	trimValues: true,
	ignoreDeclaration: true,
	ignorePiTags: true,
	maxNestedTags: MAX_DEPTH,
});

export type XmlParse = { ok: true; root: XmlElement } | { ok: false; reason: string };

type RawNode = Record<string, unknown>;

function textOf(v: unknown): string {
	if (typeof v === "string") return v;
	if (Array.isArray(v)) return v.map(textOf).join("");
	return "";
}

// TED's legacy R2.0.9 export names its namespace in a long and a short form, with or without the
// schema's sub-release ("ted/R2.0.9.S02/publication"), and its NUTS codes likewise.
const TED_R209 = /^(http:\/\/publications\.europa\.eu\/resource\/schema\/)?ted\/R2\.0\.9(\.S\d{2})?\/publication$/;
const TED_NUTS = /^(http:\/\/publications\.europa\.eu\/resource\/schema\/)?ted\/20\d\d\/nuts$/;

function canonicalPrefix(namespace: string): string | undefined {
	return CANONICAL.get(namespace) ?? (TED_R209.test(namespace) ? "ted" : TED_NUTS.test(namespace) ? "nuts" : undefined);
}

function qualify(raw: string, scope: ReadonlyMap<string, string>): { name: string; local: string; namespace: string } {
	const colon = raw.indexOf(":");
	const prefix = colon < 0 ? "" : raw.slice(0, colon);
	const local = colon < 0 ? raw : raw.slice(colon + 1);
	const namespace = scope.get(prefix) ?? "";
	const canonical = canonicalPrefix(namespace);
	const name = canonical ? `${canonical}:${local}` : namespace ? `{${namespace}}${local}` : raw;
	return { name, local, namespace };
}

function convert(rawName: string, node: RawNode, parentScope: ReadonlyMap<string, string>): XmlElement {
	const rawAttrs = (node[ATTRS] ?? {}) as Record<string, unknown>;
	let scope = parentScope;
	// No prototype: an attribute named __proto__ is then just a name.
	const attrs: Record<string, string> = Object.create(null);
	for (const [key, value] of Object.entries(rawAttrs)) {
		const v = decodeEntities(String(value));
		if (key === "xmlns" || key.startsWith("xmlns:")) {
			if (scope === parentScope) scope = new Map(parentScope);
			(scope as Map<string, string>).set(key === "xmlns" ? "" : key.slice(6), v);
		} else {
			attrs[key] = v;
		}
	}
	const children: XmlElement[] = [];
	for (const [key, value] of Object.entries(node)) {
		if (key === ATTRS || key === TEXT || key === CDATA || !Array.isArray(value)) continue;
		for (const child of value) {
			if (typeof child === "object" && child !== null) children.push(convert(key, child as RawNode, scope));
		}
	}
	const text = (decodeEntities(textOf(node[TEXT])) + textOf(node[CDATA])).trim();
	return { ...qualify(rawName, scope), attrs, text, children };
}

/** Parses an untrusted XML document (see the rules above) into its root element. */
export function parseXml(xml: string): XmlParse {
	if (DTD.test(xml)) {
		return { ok: false, reason: "XML with a DOCTYPE or ENTITY declaration is refused (no DTD processing, no external entities)" };
	}
	const valid = XMLValidator.validate(xml);
	if (valid !== true) return { ok: false, reason: `malformed XML at line ${valid.err.line}: ${valid.err.msg}`.slice(0, 300) };
	let doc: RawNode;
	try {
		doc = parser.parse(xml) as RawNode;
	} catch (error) {
		return { ok: false, reason: `unreadable XML: ${error instanceof Error ? error.message.slice(0, 200) : "parse error"}` };
	}
	const roots = Object.entries(doc).filter(([, v]) => Array.isArray(v));
	const first = roots[0]?.[1];
	if (roots.length !== 1 || !Array.isArray(first) || first.length !== 1)
		return { ok: false, reason: "XML must have exactly one root element" };
	return { ok: true, root: convert(roots[0]?.[0] ?? "", first[0] as RawNode, new Map([["xml", "http://www.w3.org/XML/1998/namespace"]])) };
}

// Navigation: paths are canonical names joined by "/", e.g. "cac:ProcurementProject/cbc:Name".

/** Every element reached by following `path` from `el` (all branches). */
export function all(el: XmlElement | undefined, path: string): XmlElement[] {
	if (!el) return [];
	let level: XmlElement[] = [el];
	for (const step of path.split("/")) level = level.flatMap((e) => e.children.filter((c) => c.name === step));
	return level;
}

/** The first element reached by `path`. */
export function first(el: XmlElement | undefined, path: string): XmlElement | undefined {
	return all(el, path)[0];
}

/** The text of the first element reached by `path`, or null when absent or empty. */
export function textAt(el: XmlElement | undefined, path: string): string | null {
	const t = first(el, path)?.text;
	return t ? t : null;
}
