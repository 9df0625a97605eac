import { describe, expect, it } from "vitest";
import { nextDigestAt } from "../../services/notifications/schedule.ts";

const weekdays = [1, 2, 3, 4, 5];
const next = (tz: string, hour: number, after: string, days = weekdays) =>
	nextDigestAt({ digest_days: days, digest_hour: hour, digest_tz: tz }, new Date(after))?.toISOString() ?? null;

describe("next digest slot", () => {
	it("keeps the local hour across daylight-saving changes (New York)", () => {
		// Before 14 March 2027 New York is UTC-5, after it UTC-4.
		expect(next("America/New_York", 7, "2027-03-05T13:00:00Z")).toBe("2027-03-08T12:00:00.000Z");
		expect(next("America/New_York", 7, "2027-03-12T13:00:00Z")).toBe("2027-03-15T11:00:00.000Z");
		// Back to UTC-5 on 7 November 2027.
		expect(next("America/New_York", 7, "2027-11-05T10:00:00Z")).toBe("2027-11-05T11:00:00.000Z");
		expect(next("America/New_York", 7, "2027-11-05T11:00:00Z")).toBe("2027-11-08T12:00:00.000Z");
	});

	it("moves a slot in the spring-forward gap past the gap, and takes a repeated hour once", () => {
		expect(next("America/New_York", 2, "2027-03-13T12:00:00Z", [7])).toBe("2027-03-14T07:00:00.000Z");
		expect(next("America/New_York", 1, "2027-11-06T12:00:00Z", [7])).toBe("2027-11-07T05:00:00.000Z");
	});

	it("uses the company's zone, not UTC, to decide the weekday", () => {
		// 23:30 UTC on Sunday is already Monday 09:30 in Sydney (UTC+10 in June).
		expect(next("Australia/Sydney", 8, "2027-06-06T23:30:00Z", [1])).toBe("2027-06-13T22:00:00.000Z");
		expect(next("Australia/Sydney", 10, "2027-06-06T23:30:00Z", [1])).toBe("2027-06-07T00:00:00.000Z");
		expect(next("Asia/Kolkata", 9, "2027-01-01T00:00:00Z", [5])).toBe("2027-01-01T03:30:00.000Z");
	});

	it("is strictly after the given instant and null while paused", () => {
		expect(next("UTC", 7, "2027-01-04T07:00:00Z")).toBe("2027-01-05T07:00:00.000Z");
		expect(next("UTC", 7, "2027-01-04T06:59:59Z")).toBe("2027-01-04T07:00:00.000Z");
		expect(next("UTC", 7, "2027-01-04T07:00:00Z", [])).toBeNull();
		expect(next("Europe/Berlin", 0, "2027-01-03T23:30:00Z", [1, 2, 3, 4, 5, 6, 7])).toBe("2027-01-04T23:00:00.000Z");
	});
});
