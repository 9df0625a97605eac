import { isRecord, refused } from "./assemble.ts";
import { isEformsRoot, parseEformsDocument } from "./eforms.ts";
import type { ParseResult } from "./notice.ts";
import { parseOcds } from "./ocds.ts";
import { parseSam } from "./sam.ts";
import { isTed209Root, parseTed209Document } from "./ted209.ts";
import { parseXml } from "./xml.ts";

// The single entry point: what kind of feed file this is, and its notices.
// The content decides, never the file name (a name can lie); the hint only labels messages.
//   JSON with opportunitiesData            -> sam
//   JSON with releases or records, a bare release (ocid), or an array of releases -> ocds
//   XML whose root is ContractNotice, PriorInformationNotice or ContractAwardNotice in its UBL
//   namespace                              -> ted
//   XML whose root is TED_EXPORT in TED's R2.0.9 namespace (legacy TED XML) -> ted
//   anything else                          -> unknown, with the reason as the only rejection

export type FeedFormat = "sam" | "ocds" | "ted" | "unknown";

export interface FeedParse extends ParseResult {
	format: FeedFormat;
}

/** Larger files are refused unread (a monthly OCDS bulk file should be split upstream). */
export const MAX_FEED_BYTES = 50 * 1024 * 1024;

function decode(content: string | Uint8Array): string {
	if (typeof content === "string") return content.startsWith("\ufeff") ? content.slice(1) : content;
	// UTF-16 files announce themselves with a byte-order mark; everything else is read as UTF-8.
	if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder("utf-16le").decode(content.subarray(2));
	if (content[0] === 0xfe && content[1] === 0xff) return new TextDecoder("utf-16be").decode(content.subarray(2));
	return new TextDecoder("utf-8").decode(content);
}

function sizeOf(content: string | Uint8Array): number {
	return typeof content === "string" ? content.length : content.byteLength;
}

function unknown(reason: string, hint?: { filename?: string }): FeedParse {
	return { format: "unknown", ...refused(hint?.filename ? `${hint.filename}: ${reason}` : reason) };
}

function fromJson(text: string, hint?: { filename?: string }): FeedParse {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		return unknown(`invalid JSON (${error instanceof Error ? error.message.slice(0, 120) : "parse error"})`, hint);
	}
	if (isRecord(data) && "opportunitiesData" in data) return { format: "sam", ...parseSam(data) };
	const looksOcds = isRecord(data)
		? Array.isArray(data.releases) || Array.isArray(data.records) || typeof data.ocid === "string"
		: Array.isArray(data) && data.some((r) => isRecord(r) && typeof r.ocid === "string");
	if (looksOcds) return { format: "ocds", ...parseOcds(data) };
	return unknown("JSON that is neither a SAM.gov search response (opportunitiesData) nor OCDS (releases, records or ocid)", hint);
}

function fromXml(text: string, hint?: { filename?: string }): FeedParse {
	const parsed = parseXml(text);
	if (!parsed.ok) return unknown(parsed.reason, hint);
	if (isTed209Root(parsed.root)) return { format: "ted", ...parseTed209Document(parsed.root) };
	if (!isEformsRoot(parsed.root)) {
		const { local, namespace } = parsed.root;
		const expected = "an eForms ContractNotice, PriorInformationNotice or ContractAwardNotice, nor a TED R2.0.9 TED_EXPORT";
		return unknown(`XML root ${local} (${namespace || "no namespace"}) is not ${expected}`, hint);
	}
	return { format: "ted", ...parseEformsDocument(parsed.root) };
}

/** Detects the format of a feed file's content and parses it. Never throws. */
export function parseFeed(content: string | Uint8Array, hint?: { filename?: string }): FeedParse {
	if (sizeOf(content) > MAX_FEED_BYTES) return unknown(`larger than ${MAX_FEED_BYTES} bytes`, hint);
	try {
		const text = decode(content);
		const start = text.search(/\S/);
		const head = start < 0 ? "" : text.charAt(start);
		if (head === "{" || head === "[") return fromJson(text, hint);
		if (head === "<") return fromXml(text, hint);
		return unknown(start < 0 ? "empty content" : "neither JSON nor XML", hint);
	} catch (error) {
		// The parsers contain their own failures per record; this only catches the unforeseen
		// (say, a document nested deeply enough to exhaust the stack).
		return unknown(`unreadable (${error instanceof Error ? error.message.slice(0, 120) : "error"})`, hint);
	}
}
