import { uniqueCategories } from "./codes.ts";
import { dedupeKeys } from "./dedupe.ts";
import type { Category, Contact, ContractPeriod, NoticeDocument, NormalizedNotice, ParseResult, Place, Rejection } from "./notice.ts";
import { LIMITS, NormalizedNotice as NoticeSchema } from "./notice.ts";
import { cleanLine } from "./text.ts";

// What every parser does after mapping its format: cap and de-duplicate the lists, compute the
// dedupe keys, validate against the schema, and collect the records it had to skip.

/** A parser's mapping of one record, before caps, de-duplication and validation. */
export type NoticeDraft = Omit<NormalizedNotice, "dedupe_keys" | "categories"> & {
	categories: (Category | null)[];
};

function uniqueBy<T>(list: T[], key: (x: T) => string): T[] {
	const seen = new Set<string>();
	return list.filter((x) => {
		const k = key(x);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

function contactsOf(list: Contact[]): Contact[] {
	const real = list.filter((c) => c.name !== null || c.email !== null || c.phone !== null);
	return uniqueBy(real, (c) => `${c.name ?? ""}|${c.email?.toLowerCase() ?? ""}|${c.phone ?? ""}`).slice(0, LIMITS.contacts);
}

function documentsOf(list: NoticeDocument[]): NoticeDocument[] {
	return uniqueBy(list, (d) => d.url).slice(0, LIMITS.documents);
}

export type Finished = { ok: true; notice: NormalizedNotice } | { ok: false; reason: string };

/** The validated notice, or the first schema problem as a readable reason. */
export function finishNotice(draft: NoticeDraft): Finished {
	const candidate = {
		...draft,
		items: draft.items.slice(0, LIMITS.items),
		categories: uniqueCategories([...draft.categories, ...draft.items.map((i) => i.classification)]).slice(0, LIMITS.categories),
		contacts: contactsOf(draft.contacts),
		documents: documentsOf(draft.documents),
		dedupe_keys: dedupeKeys(draft),
	};
	const parsed = NoticeSchema.safeParse(candidate);
	if (parsed.success) return { ok: true, notice: parsed.data };
	const issue = parsed.error.issues[0];
	const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
	return { ok: false, reason: `${where}${issue?.message ?? "invalid notice"}` };
}

const MAX_REJECTIONS = 1_000;
/** Records read from one feed document; a bigger file should be split (or streamed) upstream. */
export const MAX_RECORDS = 50_000;

/** Collects rejections, keeping at most MAX_REJECTIONS and counting the rest in a final entry. */
class Rejections {
	private readonly list: Rejection[] = [];
	private dropped = 0;

	add(rejection: Rejection): void {
		if (this.list.length < MAX_REJECTIONS) this.list.push({ ...rejection, reason: rejection.reason.slice(0, 500) });
		else this.dropped++;
	}

	toArray(): Rejection[] {
		return this.dropped === 0 ? [...this.list] : [...this.list, { reason: `${this.dropped} further rejections not listed` }];
	}
}

/**
 * Orders notices so that the versions of one notice come oldest first (by version.sort_key), each
 * notice at the position of its first appearance: merging the list in order then creates each
 * notice once and applies its amendments in sequence, whatever order the feed listed them in.
 */
export function orderVersions(notices: NormalizedNotice[]): NormalizedNotice[] {
	const groups = new Map<string, NormalizedNotice[]>();
	for (const n of notices) {
		const key = `${n.source}\u0000${n.source_id}`;
		const group = groups.get(key);
		if (group) group.push(n);
		else groups.set(key, [n]);
	}
	const bySortKey = (a: NormalizedNotice, b: NormalizedNotice) =>
		a.version.sort_key < b.version.sort_key ? -1 : a.version.sort_key > b.version.sort_key ? 1 : 0;
	return [...groups.values()].flatMap((group) => group.sort(bySortKey));
}

/**
 * A parser's output under construction. `record` maps one feed record: whatever it returns or
 * throws, the record ends up either as a notice or as a rejection, and the next record goes on.
 */
export class Collector {
	private readonly notices: NormalizedNotice[] = [];
	private readonly rejected = new Rejections();
	private seen = 0;

	record(where: Omit<Rejection, "reason">, build: () => NoticeDraft | string): void {
		if (++this.seen > MAX_RECORDS) return;
		try {
			const draft = build();
			const done: Finished = typeof draft === "string" ? { ok: false, reason: draft } : finishNotice(draft);
			if (done.ok) this.notices.push(done.notice);
			else this.reject({ ...where, reason: done.reason });
		} catch (error) {
			const reason = error instanceof Error ? `unreadable record: ${error.message.slice(0, 200)}` : "unreadable record";
			this.reject({ ...where, reason });
		}
	}

	reject(rejection: Rejection): void {
		this.rejected.add(rejection);
	}

	result(): ParseResult {
		const over = this.seen - MAX_RECORDS;
		if (over > 0) this.reject({ reason: `${over} records beyond the limit of ${MAX_RECORDS} per feed were not read` });
		return { notices: orderVersions(this.notices), rejected: this.rejected.toArray() };
	}
}

/** The result of a document that could not be read at all. */
export function refused(reason: string): ParseResult {
	return { notices: [], rejected: [{ reason }] };
}

/** A single-line field (names, codes, short labels), LIMITS.line characters unless told. */
export function line(value: unknown, max: number = LIMITS.line): string | null {
	return cleanLine(value, max);
}

/** The place, or null when the source gave none of its parts. */
export function placeOrNull(place: Place): Place | null {
	return Object.values(place).some((v) => v !== null) ? place : null;
}

/** Narrowing helpers for untrusted JSON. */
export function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function asArray(v: unknown): unknown[] {
	return Array.isArray(v) ? v : [];
}

/** A finite non-negative number from a number or numeric string ("00000.00000000", "350567.00"). */
export function asAmount(v: unknown): number | null {
	const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d{1,15}(\.\d{1,10})?\s*$/.test(v) ? Number(v) : Number.NaN;
	return Number.isFinite(n) && n >= 0 ? n : null;
}

/** An ISO 4217 code or null. */
export function asCurrency(v: unknown): string | null {
	const s = typeof v === "string" ? v.trim().toUpperCase() : "";
	return /^[A-Z]{3}$/.test(s) ? s : null;
}

const DURATION_UNITS: Record<string, string> = { DAY: "day", WEEK: "week", MONTH: "month", YEAR: "year" };

/** A duration as TED and eForms publish it (a number and a unit code: 48, MONTH) in words: "48 months"; null when unreadable. */
export function durationWords(amount: string | null | undefined, unit: string | null | undefined): string | null {
	const n = asAmount(amount);
	const word = DURATION_UNITS[(unit ?? "").trim().toUpperCase()];
	return n === null || n <= 0 || !word ? null : `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The contract period of a notice whose lots each state theirs (TED OBJECT_DESCR, eForms ProcurementProjectLot): one
 * duration when all lots agree, else each lot's; the start and end when all lots that state one agree. Empty when none does.
 */
export function lotPeriods(lots: { id: string | null; duration: string | null; start: string | null; end: string | null }[]): {
	contract_period?: ContractPeriod;
} {
	const stated = lots.filter((l) => l.duration || l.start || l.end);
	if (!stated.length) return {};
	const one = <K extends "duration" | "start" | "end">(k: K) => {
		const values = [...new Set(stated.map((l) => l[k]).filter((v): v is string => !!v))];
		return values.length === 1 ? values[0]! : null;
	};
	const durations = [...new Set(stated.map((l) => l.duration).filter((d): d is string => !!d))];
	const duration =
		durations.length <= 1
			? (durations[0] ?? null)
			: stated
					.filter((l) => l.duration)
					.map((l) => `${l.id ? `lot ${l.id}: ` : ""}${l.duration}`)
					.join("; ")
					.slice(0, LIMITS.line);
	const start = one("start");
	const end = one("end");
	return start || end || duration ? { contract_period: { start, end, duration_days: null, duration } } : {};
}
