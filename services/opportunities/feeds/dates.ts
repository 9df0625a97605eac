// Feed dates to UTC instants ("2020-04-03T11:00:00Z", whole seconds).
//
// Accepted shapes: "2024-03-01T17:00:00-05:00", "…Z", "2018-05-09 23:45:22+00" (SAM's short
// offset), "+0100", fractional seconds, naive "2024-03-01 17:00:00", bare "2024-03-01", and the
// eForms date with an offset "2020-04-03+01:00".
// - An explicit offset always wins.
// - A naive date-time is wall time in the source's zone (`naiveZone`): US Eastern for SAM.gov,
//   whose site shows and takes times in Eastern; UTC for OCDS and eForms, whose standards require
//   offsets, so a naive value there is a publisher slip and UTC is the least surprising guess.
// - A bare date is the start of that day when it says when something happened (published_at) and
//   the end of it (23:59:59) when it is a deadline: "responses due 2024-03-01" means by the end of
//   the 1st, and closing a notice early would hide a live opportunity.

export type DayPart = "start" | "end";

export interface DateRules {
	/** IANA zone for values without an offset, e.g. "America/New_York" or "UTC". */
	naiveZone: string;
	/** Which end of the day a bare date means. */
	dateOnly: DayPart;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?)?\s?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

const MIN_YEAR = 1900;
const MAX_YEAR = 2199;

/** Formats epoch milliseconds as a UTC instant with whole seconds. */
export function formatUtc(ms: number): string {
	return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

function offsetMinutes(spec: string): number | null {
	if (spec === "Z" || spec === "z") return 0;
	const sign = spec.startsWith("-") ? -1 : 1;
	const digits = spec.slice(1).replace(":", "");
	const hours = Number(digits.slice(0, 2));
	const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
	if (hours > 14 || minutes > 59) return null;
	return sign * (hours * 60 + minutes);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC (minutes) at the instant `ms`. */
function zoneOffset(zone: string, ms: number): number {
	let format = zoneFormats.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat("en-US", {
			timeZone: zone,
			hourCycle: "h23",
			year: "numeric",
			month: "2-digit",
			day: "2-digit",
			hour: "2-digit",
			minute: "2-digit",
			second: "2-digit",
		});
		zoneFormats.set(zone, format);
	}
	const parts = format.formatToParts(ms);
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
	return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** Wall time in `zone` to epoch ms (a wall time inside a DST gap or overlap gets one of the two offsets). */
function zonedToUtc(wallAsUtc: number, zone: string): number {
	if (zone === "UTC") return wallAsUtc;
	const first = zoneOffset(zone, wallAsUtc);
	const guess = wallAsUtc - first * 60_000;
	const second = zoneOffset(zone, guess);
	return second === first ? guess : wallAsUtc - second * 60_000;
}

/** A feed date (see the shapes above) as a UTC instant, or null when it is not a real date. */
export function parseInstant(value: unknown, rules: DateRules): string | null {
	if (typeof value !== "string") return null;
	const s = value.trim();
	if (s.length > 40) return null;
	const m = INSTANT.exec(s);
	if (!m) return null;
	const [, y, mo, d, h, mi, sec, off] = m;
	const year = Number(y);
	const month = Number(mo);
	const day = Number(d);
	if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return null;
	if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
	const dateOnly = h === undefined;
	const end = dateOnly && rules.dateOnly === "end";
	const hour = dateOnly ? (end ? 23 : 0) : Number(h);
	const minute = dateOnly ? (end ? 59 : 0) : Number(mi);
	const second = dateOnly ? (end ? 59 : 0) : Math.min(Number(sec ?? 0), 59);
	// 24:00 (ISO 8601's end of day) is accepted; Date.UTC rolls it to 00:00 of the next day.
	if (hour > 24 || (hour === 24 && (minute > 0 || second > 0)) || minute > 59) return null;
	const wall = Date.UTC(year, month - 1, day, hour, minute, second);
	if (off !== undefined) {
		const offset = offsetMinutes(off);
		return offset === null ? null : formatUtc(wall - offset * 60_000);
	}
	return formatUtc(zonedToUtc(wall, rules.naiveZone));
}

const pad2 = (n: number) => String(Math.floor(n)).padStart(2, "0");

/**
 * The same feed date as wall time with its UTC offset ("2038-01-29T13:00+02:00"): the offset the
 * source wrote, else the naive zone's at that instant. Ask shows deadlines in the buyer's time.
 */
export function parseLocal(value: unknown, rules: DateRules): string | null {
	const utc = parseInstant(value, rules);
	if (utc === null || typeof value !== "string") return null;
	const off = INSTANT.exec(value.trim())?.[7];
	const ms = Date.parse(utc);
	const minutes = off !== undefined ? (offsetMinutes(off) ?? 0) : rules.naiveZone === "UTC" ? 0 : zoneOffset(rules.naiveZone, ms);
	const abs = Math.abs(minutes);
	return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 16)}${minutes < 0 ? "-" : "+"}${pad2(abs / 60)}:${pad2(abs % 60)}`;
}

const DATE_PART = /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/;
const TIME_PART = /^(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Joins an XML Schema date and time (eForms EndDate "2020-04-03+01:00", EndTime "12:00:00+01:00")
 * into one string parseInstant reads. The time's offset wins, then the date's; without a time the
 * date (with its offset) is returned alone, so the caller's day rule applies.
 */
export function joinDateAndTime(date: string | null, time: string | null): string | null {
	const dm = date ? DATE_PART.exec(date.trim()) : null;
	if (!dm) return null;
	const tm = time ? TIME_PART.exec(time.trim()) : null;
	if (!tm) return `${dm[1]}${dm[2] ?? ""}`;
	return `${dm[1]}T${tm[1]}${tm[2] ?? dm[2] ?? ""}`;
}

/** The earlier of two instants (either may be null). */
export function earliest(a: string | null, b: string | null): string | null {
	if (a === null) return b;
	if (b === null) return a;
	return a < b ? a : b;
}
