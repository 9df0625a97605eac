import { DateTime } from "luxon";

// Digest slots: the company's weekdays at its local hour, in its own time zone. Slots are
// computed on local wall time, so they stay at the same local hour across daylight-saving
// changes; a local hour that does not exist that day (spring forward) moves to the first
// instant after the gap, and an hour that happens twice (fall back) is taken the first time.

export interface DigestSchedule {
	digest_days: number[];
	digest_hour: number;
	digest_tz: string;
}

/** The first slot strictly after `after`, or null while no weekday is chosen. */
export function nextDigestAt(s: DigestSchedule, after: Date): Date | null {
	if (s.digest_days.length === 0) return null;
	const days = new Set(s.digest_days);
	const start = DateTime.fromJSDate(after, { zone: s.digest_tz }).startOf("day");
	for (let i = 0; i <= 8; i++) {
		const day = start.plus({ days: i });
		if (!days.has(day.weekday)) continue;
		const slot = localSlot(day.year, day.month, day.day, s.digest_hour, s.digest_tz);
		if (slot > after.getTime()) return new Date(slot);
	}
	return null;
}

const HOUR = 3600_000;

/** The instant of a local wall-clock hour: the first of two in a repeated hour, past the gap in a skipped one. */
function localSlot(year: number, month: number, day: number, hour: number, zone: string): number {
	const wall = Date.UTC(year, month - 1, day, hour);
	const offsetAt = (t: number) => DateTime.fromMillis(t, { zone }).offset * 60_000;
	const wallOf = (t: number) => {
		const d = DateTime.fromMillis(t, { zone });
		return Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute);
	};
	const candidates = [...new Set([offsetAt(wall - 12 * HOUR), offsetAt(wall + 12 * HOUR)])]
		.map((o) => wall - o)
		.filter((t) => wallOf(t) === wall);
	if (candidates.length) return Math.min(...candidates);
	return DateTime.fromObject({ year, month, day, hour }, { zone }).toMillis();
}

/** A stable name for a slot, for the delivery record that makes each slot send at most once. */
export const slotKey = (slot: Date) => slot.toISOString();
