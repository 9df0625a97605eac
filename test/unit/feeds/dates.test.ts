import { describe, expect, it } from "vitest";
import type { DateRules } from "../../../services/opportunities/feeds/dates.ts";
import { joinDateAndTime, parseInstant, parseLocal } from "../../../services/opportunities/feeds/dates.ts";

const EASTERN_START: DateRules = { naiveZone: "America/New_York", dateOnly: "start" };
const EASTERN_END: DateRules = { naiveZone: "America/New_York", dateOnly: "end" };
const UTC_START: DateRules = { naiveZone: "UTC", dateOnly: "start" };
const UTC_END: DateRules = { naiveZone: "UTC", dateOnly: "end" };

describe("parseInstant", () => {
	it("applies explicit offsets in every spelling", () => {
		expect(parseInstant("2024-03-01T17:00:00-05:00", EASTERN_END)).toBe("2024-03-01T22:00:00Z");
		expect(parseInstant("2018-05-09 23:45:22+00", EASTERN_START)).toBe("2018-05-09T23:45:22Z");
		expect(parseInstant("2024-03-01T17:00:00+0530", UTC_START)).toBe("2024-03-01T11:30:00Z");
		expect(parseInstant("2024-03-01T17:00:00.250Z", UTC_START)).toBe("2024-03-01T17:00:00Z");
	});

	it("reads naive SAM times as US Eastern, with daylight saving", () => {
		expect(parseInstant("2024-01-15 17:00:00", EASTERN_END)).toBe("2024-01-15T22:00:00Z");
		expect(parseInstant("2024-07-15 17:00:00", EASTERN_END)).toBe("2024-07-15T21:00:00Z");
		expect(parseInstant("2024-07-15T17:00", EASTERN_END)).toBe("2024-07-15T21:00:00Z");
	});

	it("reads a bare date as the end of the day for deadlines and its start otherwise", () => {
		expect(parseInstant("2024-03-01", EASTERN_END)).toBe("2024-03-02T04:59:59Z");
		expect(parseInstant("2024-07-01", EASTERN_END)).toBe("2024-07-02T03:59:59Z");
		expect(parseInstant("2024-03-01", EASTERN_START)).toBe("2024-03-01T05:00:00Z");
		expect(parseInstant("2024-03-01", UTC_END)).toBe("2024-03-01T23:59:59Z");
	});

	it("reads the eForms date-with-offset form", () => {
		expect(parseInstant("2020-04-03+01:00", UTC_END)).toBe("2020-04-03T22:59:59Z");
		expect(parseInstant("2020-04-03+01:00", UTC_START)).toBe("2020-04-02T23:00:00Z");
	});

	it("accepts 24:00 as the end of the day", () => {
		expect(parseInstant("2024-03-01T24:00:00Z", UTC_START)).toBe("2024-03-02T00:00:00Z");
	});

	it("returns null for anything that is not a real date", () => {
		for (const bad of [
			"2024-02-30",
			"2024-13-01",
			"2024-03-01T25:00:00Z",
			"2024-03-01T10:61:00Z",
			"2024-03-01T10:00:00+15:00",
			"0001-01-01",
			"not stated",
			"",
			"   ",
			null,
			20240301,
			"2024-03-01T10:00:00Z".repeat(5),
		]) {
			expect(parseInstant(bad, UTC_START)).toBeNull();
		}
	});
});

describe("joinDateAndTime", () => {
	it("joins an eForms EndDate and EndTime, the time's offset first", () => {
		expect(joinDateAndTime("2020-04-03+01:00", "12:00:00+01:00")).toBe("2020-04-03T12:00:00+01:00");
		expect(parseInstant(joinDateAndTime("2020-04-03+01:00", "12:00:00+01:00"), UTC_END)).toBe("2020-04-03T11:00:00Z");
		expect(joinDateAndTime("2024-04-10Z", "17:00:00")).toBe("2024-04-10T17:00:00Z");
		expect(joinDateAndTime("2024-04-10", "17:00:00")).toBe("2024-04-10T17:00:00");
	});

	it("leaves the date alone without a time, and gives null without a date", () => {
		expect(joinDateAndTime("2020-04-03+01:00", null)).toBe("2020-04-03+01:00");
		expect(joinDateAndTime(null, "12:00:00Z")).toBeNull();
		expect(joinDateAndTime("03/04/2020", "12:00")).toBeNull();
	});
});

describe("parseLocal", () => {
	it("keeps the wall time and offset the source wrote, or the naive zone's offset at that instant", () => {
		expect(parseLocal("2038-01-29T13:00:00+02:00", UTC_END)).toBe("2038-01-29T13:00+02:00");
		expect(parseLocal("2024-07-15 17:00:00", EASTERN_END)).toBe("2024-07-15T17:00-04:00");
		expect(parseLocal("2024-01-15 17:00:00", EASTERN_END)).toBe("2024-01-15T17:00-05:00");
		expect(parseLocal("2024-03-01", UTC_END)).toBe("2024-03-01T23:59+00:00");
		expect(parseLocal("not a date", UTC_END)).toBeNull();
	});
});
