import { createHash } from "node:crypto";
import { z } from "zod";
import { earliest } from "./dates.ts";
import type { NoticeVersion } from "./notice.ts";
import { LIMITS, NormalizedNotice, UtcInstant } from "./notice.ts";
import { truncate } from "./text.ts";

// Amendments: applying an incoming version of a notice to what is stored. Pure: the caller loads
// the stored notice by (source, source_id), calls mergeVersion and writes `notice` back only when
// the action is created or updated.
//
// Order of versions (per notice): if the incoming version names the stored one as the version it
// replaces (eForms ChangedNoticeIdentifier), it is newer; if the stored one names the incoming one,
// it is older. Otherwise version.sort_key decides, which each parser builds so that plain string
// comparison orders the source's versions:
//   OCDS    release date (UTC), then release id
//   eForms  issue date-time (UTC), then VersionID, then notice id
//   SAM     postedDate (UTC), then notice type (presolicitation, solicitation, award), then noticeId
//
// Sameness is a SHA-256 over the normalized content (every field but `version` and
// `published_at`, keys sorted), so re-ingesting a file changes nothing even though every parse
// builds new objects. Outcomes:
//   created    nothing stored yet
//   updated    a newer version whose content differs, or the stored version restated with other
//              content (the source corrected it in place); the notice is replaced in place, keeps
//              the earliest published_at, and its history gains an entry saying what changed
//   unchanged  the stored version again, a version already in the history with the same content,
//              or a newer version that changes nothing normalized
//   stale      a version older than the stored one (ignored; `reason` says why)
//   renormalized  the stored version again, read by a newer normalizer (NORMALIZER_VERSION) into
//              other content: stored anew without a history entry or a change
// A cancellation or award arrives as a newer version whose status is cancelled or awarded, which
// closes the notice; the change names it.

export const CHANGE_FIELDS = ["deadline", "description", "documents", "status", "title", "value", "items", "categories", "other"] as const;
export const ChangeField = z.enum(CHANGE_FIELDS);
export type ChangeField = z.infer<typeof ChangeField>;

export const MAX_HISTORY = 50;

/**
 * The parsers' output version. Raise it whenever a parser reads the same source document into other
 * normalized content (a field newly kept, codes put in another order): a notice stored by an older
 * reading is then read again quietly when its source next serves the same version ("renormalized":
 * stored anew and matched again, with no history entry and no "updated" for its opportunities),
 * instead of telling users of a change the source never made. Notices stored before the stamp count as 0.
 */
export const NORMALIZER_VERSION = 1;
const MAX_SUMMARY = 2_000;

export const VersionEntry = z.object({
	version: z.string().max(LIMITS.id),
	sort_key: z.string().max(LIMITS.sortKey),
	at: UtcInstant.nullable(),
	content_hash: z.string(),
	action: z.enum(["created", "updated"]),
	fields: z.array(ChangeField),
	summary: z.string().max(MAX_SUMMARY),
});
export type VersionEntry = z.infer<typeof VersionEntry>;

/** A notice as kept: the latest version's content, its hash, and the versions applied so far (newest last). */
export const StoredNotice = NormalizedNotice.extend({
	content_hash: z.string(),
	/** NORMALIZER_VERSION of the reading stored; absent on notices stored before it was kept. */
	normalizer: z.number().int().min(0).optional(),
	history: z.array(VersionEntry).max(MAX_HISTORY),
});
export type StoredNotice = z.infer<typeof StoredNotice>;

export interface NoticeChange {
	version: string;
	at: string | null;
	fields: ChangeField[];
	summary: string;
}

export type MergeAction = "created" | "updated" | "unchanged" | "stale" | "renormalized";

export interface MergeResult {
	action: MergeAction;
	/** The notice to store (created, updated, renormalized) or the stored one untouched (unchanged, stale). */
	notice: StoredNotice;
	change?: NoticeChange;
	/** Why nothing changed (unchanged, stale). */
	reason?: string;
}

/** JSON with object keys sorted and undefined members left out: equal content, equal string. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
	if (value !== null && typeof value === "object") {
		const entries = Object.entries(value)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
	}
	return JSON.stringify(value) ?? "null";
}

export function contentHash(notice: NormalizedNotice): string {
	// The declared language says nothing new about the solicitation, and notices stored before it was kept are not new versions for it.
	const { version: _version, published_at: _published, language: _language, ...content } = notice;
	return createHash("sha256").update(canonical(content)).digest("hex");
}

/** true when `incoming` is newer than `current`, false when older, null when they sort equal. */
export function isNewer(current: NoticeVersion, incoming: NoticeVersion): boolean | null {
	if (incoming.supersedes !== null && incoming.supersedes === current.label) return true;
	if (current.supersedes !== null && current.supersedes === incoming.label) return false;
	if (incoming.sort_key === current.sort_key) return null;
	return incoming.sort_key > current.sort_key;
}

// Fields compared one by one for the change description; the rest count as "other".
const DESCRIBED = new Set([
	"deadline",
	"deadline_local",
	"description",
	"documents",
	"status",
	"title",
	"estimated_value",
	"currency",
	"items",
	"categories",
]);
const NOT_CONTENT = new Set(["version", "published_at", "dedupe_keys"]);

const STATUS_WORDS: Record<string, string> = {
	cancelled: "cancelled at the source",
	awarded: "awarded",
	closed: "closed at the source",
};

function listed(values: string[]): string {
	const shown = values.slice(0, 5).map((v) => truncate(v, 120));
	return values.length > 5 ? `${shown.join(", ")} (+${values.length - 5} more)` : shown.join(", ");
}

function difference<T>(a: T[], b: T[], key: (x: T) => string): T[] {
	const keys = new Set(b.map(key));
	return a.filter((x) => !keys.has(key(x)));
}

function money(value: number | null, currency: string | null): string {
	return value === null ? "none" : `${currency ?? ""} ${value}`.trim();
}

/** Which fields differ between two versions, and a readable summary ("deadline moved from … to …"). */
export function describeChange(before: NormalizedNotice, after: NormalizedNotice): { fields: ChangeField[]; summary: string } {
	const fields = new Set<ChangeField>();
	const parts: string[] = [];
	if (before.deadline !== after.deadline || (before.deadline_local ?? null) !== (after.deadline_local ?? null)) {
		fields.add("deadline");
		if (before.deadline && after.deadline) parts.push(`deadline moved from ${before.deadline} to ${after.deadline}`);
		else parts.push(after.deadline ? `deadline set to ${after.deadline}` : `deadline removed (was ${before.deadline})`);
	}
	if (before.status !== after.status) {
		fields.add("status");
		parts.push(STATUS_WORDS[after.status] ?? `reopened (was ${before.status})`);
	}
	if (before.title !== after.title) {
		fields.add("title");
		parts.push(`title changed to "${truncate(after.title, 120)}"`);
	}
	if (before.description !== after.description || before.description_url !== after.description_url) {
		fields.add("description");
		parts.push("description changed");
	}
	const added = difference(after.documents, before.documents, (d) => d.url);
	const removed = difference(before.documents, after.documents, (d) => d.url);
	if (added.length || removed.length || canonical(before.documents) !== canonical(after.documents)) {
		fields.add("documents");
		if (added.length) parts.push(`documents added: ${listed(added.map((d) => d.title ?? d.url))}`);
		if (removed.length) parts.push(`documents removed: ${listed(removed.map((d) => d.title ?? d.url))}`);
		if (!added.length && !removed.length) parts.push("document titles changed");
	}
	if (before.estimated_value !== after.estimated_value || before.currency !== after.currency) {
		fields.add("value");
		parts.push(
			`estimated value changed from ${money(before.estimated_value, before.currency)} to ${money(after.estimated_value, after.currency)}`,
		);
	}
	if (canonical(before.items) !== canonical(after.items)) {
		fields.add("items");
		parts.push(`items changed (${before.items.length} before, ${after.items.length} now)`);
	}
	const code = (c: { scheme: string; code: string }) => `${c.scheme} ${c.code}`;
	const newCodes = difference(after.categories, before.categories, code).map(code);
	const goneCodes = difference(before.categories, after.categories, code).map(code);
	if (newCodes.length || goneCodes.length) {
		fields.add("categories");
		parts.push(
			["categories", newCodes.length ? ` added: ${listed(newCodes)}` : "", goneCodes.length ? ` removed: ${listed(goneCodes)}` : ""].join(
				"",
			),
		);
	}
	const others = Object.keys(after).filter(
		(k) =>
			!DESCRIBED.has(k) &&
			!NOT_CONTENT.has(k) &&
			canonical((before as Record<string, unknown>)[k]) !== canonical((after as Record<string, unknown>)[k]),
	);
	if (others.length) {
		fields.add("other");
		parts.push(`other details changed: ${others.join(", ")}`);
	}
	if (after.version.note) parts.push(`source note: ${after.version.note}`);
	return {
		fields: CHANGE_FIELDS.filter((f) => fields.has(f)),
		summary: truncate(parts.join("; ") || "restated by the source", MAX_SUMMARY),
	};
}

function entryOf(
	notice: NormalizedNotice,
	hash: string,
	action: "created" | "updated",
	fields: ChangeField[],
	summary: string,
): VersionEntry {
	return {
		version: notice.version.label,
		sort_key: notice.version.sort_key,
		at: notice.version.released_at,
		content_hash: hash,
		action,
		fields,
		summary,
	};
}

/** Applies one incoming version to the stored notice (null when there is none yet). */
export function mergeVersion(existing: StoredNotice | null, incoming: NormalizedNotice): MergeResult {
	const hash = contentHash(incoming);
	if (!existing) {
		const entry = entryOf(incoming, hash, "created", [], "first seen");
		return { action: "created", notice: { ...incoming, content_hash: hash, normalizer: NORMALIZER_VERSION, history: [entry] } };
	}
	if (existing.source !== incoming.source || existing.source_id !== incoming.source_id) {
		throw new Error(`mergeVersion: ${incoming.source}/${incoming.source_id} is not ${existing.source}/${existing.source_id}`);
	}
	const label = incoming.version.label;
	const current = existing.version;
	const unchanged = (reason: string): MergeResult => ({ action: "unchanged", notice: existing, reason });
	const stale = (reason: string): MergeResult => ({ action: "stale", notice: existing, reason });
	const readBefore = (existing.normalizer ?? 0) < NORMALIZER_VERSION;

	if (label === current.label) {
		if (hash === existing.content_hash) return unchanged(`version ${label} is already stored`);
		if (readBefore) return renormalized(existing, incoming, hash);
	} else {
		const known = existing.history.find((h) => h.version === label);
		if (known) {
			if (known.content_hash === hash) return unchanged(`version ${label} was applied before; ${current.label} is newer`);
			return readBefore
				? unchanged(`version ${label} was applied before (read then by an older normalizer); ${current.label} is newer`)
				: stale(`version ${label} was applied before with other content; ${current.label} is newer`);
		}
		if (isNewer(current, incoming.version) !== true) return stale(`version ${label} is older than the stored version ${current.label}`);
		if (hash === existing.content_hash) return unchanged(`version ${label} changes nothing`);
	}

	const { fields, summary } = describeChange(existing, incoming);
	const notice: StoredNotice = {
		...incoming,
		published_at: earliest(existing.published_at, incoming.published_at),
		content_hash: hash,
		normalizer: NORMALIZER_VERSION,
		history: [...existing.history, entryOf(incoming, hash, "updated", fields, summary)].slice(-MAX_HISTORY),
	};
	return { action: "updated", notice, change: { version: label, at: incoming.version.released_at, fields, summary } };
}

/** The stored version read again by a newer normalizer: its new reading replaces the old, and the history keeps its entries. */
function renormalized(existing: StoredNotice, incoming: NormalizedNotice, hash: string): MergeResult {
	const label = incoming.version.label;
	const notice: StoredNotice = {
		...incoming,
		published_at: earliest(existing.published_at, incoming.published_at),
		content_hash: hash,
		normalizer: NORMALIZER_VERSION,
		history: existing.history.map((h) => (h.version === label ? { ...h, content_hash: hash } : h)),
	};
	return { action: "renormalized", notice, reason: `version ${label} read again by normalizer ${NORMALIZER_VERSION}` };
}
