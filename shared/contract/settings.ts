import { z } from "zod";
import { DateTime } from "./common.ts";

// Notification digest settings (notifications service) and learned decision rules (matching).

const nonEmpty = (o: object) => Object.keys(o).length > 0;
/** Run a refinement only when nothing else is wrong (an unknown key alone is not "empty"). */
const cleanSoFar = (payload: { issues: readonly unknown[] }) => payload.issues.length === 0;

// ---------------------------------------------------------------------------------------------
// Time zones

let canonicalZones: Map<string, string> | undefined;
/** Lower-cased zone name -> its canonical spelling, for the zones Intl lists plus UTC. */
function zoneSpellings(): Map<string, string> {
	canonicalZones ??= new Map([...Intl.supportedValuesOf("timeZone"), "UTC"].map((zone) => [zone.toLowerCase(), zone]));
	return canonicalZones;
}

/**
 * Whether `name` is an IANA time zone name this runtime knows (aliases such as `US/Eastern`
 * included, case-insensitively). UTC offsets such as `+01:00`, which Intl also accepts, are not
 * zone names and are refused.
 */
export function isIanaTimeZone(name: string): boolean {
	if (!/^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(name)) return false;
	try {
		new Intl.DateTimeFormat("en-US", { timeZone: name });
		return true;
	} catch {
		return false;
	}
}

export const TimeZoneName = z
	.string()
	.min(1)
	.max(64)
	.refine(isIanaTimeZone, { message: "Not an IANA time zone name, e.g. America/New_York or Europe/Berlin", when: cleanSoFar })
	.overwrite((name) => zoneSpellings().get(name.toLowerCase()) ?? name)
	.describe("An IANA time zone name, 1 to 64 characters, e.g. `America/New_York`, `Europe/Berlin` or `UTC`");

// ---------------------------------------------------------------------------------------------
// Notification settings

export const AmendmentPolicy = z.enum(["all", "positive_only", "none"]).meta({
	id: "AmendmentNotificationPolicy",
	description:
		"Which amendments of already notified opportunities the next digest reports: `all`; `positive_only` (only when the match still scores at or above digest_min_score); `none`",
});
export type AmendmentPolicy = z.infer<typeof AmendmentPolicy>;

export const MAX_NOTIFICATION_EMAILS = 10;
export const MAX_SUBMITTED_NOTIFICATION_EMAILS = 200;

export const NotificationSettings = z
	.object({
		digest_days: z
			.array(z.number().int().min(1).max(7))
			.describe("ISO weekdays, 1 (Monday) to 7 (Sunday), ascending; empty pauses the digest"),
		digest_hour: z.number().int().min(0).max(23).describe("Local hour of the digest in digest_tz, 0 to 23"),
		digest_tz: z.string().describe("IANA time zone name"),
		digest_min_score: z.number().int().min(0).max(100).describe("Only opportunities scoring at least this are sent"),
		digest_max_items: z.number().int().min(3).max(15).describe("At most this many opportunities per digest, best first"),
		notification_emails: z.array(z.string()).describe("Configured recipients (lower-cased, distinct); may be empty"),
		amendment_notification_policy: AmendmentPolicy,
		effective_recipients: z
			.array(z.string())
			.describe("The addresses actually used: notification_emails, or the account contact email when that list is empty"),
		last_digest_sent_at: DateTime.nullable().describe("When the last digest was sent; null if never"),
		next_digest_at: DateTime.nullable().describe(
			"The next digest slot (UTC), honouring daylight-saving changes in digest_tz; null while digest_days is empty",
		),
	})
	.meta({ id: "NotificationSettings" });
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** The settings of a company that has never changed them. */
export const DEFAULT_NOTIFICATION_SETTINGS: Readonly<
	Omit<NotificationSettings, "effective_recipients" | "last_digest_sent_at" | "next_digest_at">
> = {
	digest_days: [1, 2, 3, 4, 5],
	digest_hour: 7,
	digest_tz: "UTC",
	digest_min_score: 60,
	digest_max_items: 10,
	notification_emails: [],
	amendment_notification_policy: "positive_only",
};

export const UpdateNotificationSettingsBody = z
	.object({
		digest_days: z
			.array(z.number().int().min(1).max(7))
			.max(7)
			.refine((days) => new Set(days).size === days.length, "digest_days must not repeat a weekday")
			.overwrite((days) => [...days].sort((a, b) => a - b))
			.optional()
			.describe("ISO weekdays 1 (Monday) to 7 (Sunday), unique, at most 7; stored sorted ascending; an empty list pauses the digest"),
		digest_hour: z.number().int().min(0).max(23).optional().describe("0 to 23"),
		digest_tz: TimeZoneName.optional(),
		digest_min_score: z.number().int().min(0).max(100).optional().describe("0 to 100"),
		digest_max_items: z.number().int().min(3).max(15).optional().describe("3 to 15"),
		notification_emails: z
			.array(
				z
					.string()
					.trim()
					.toLowerCase()
					.max(254)
					.meta({ format: "email" })
					.pipe(z.email({ message: "Not a valid email address" })),
			)
			.max(MAX_SUBMITTED_NOTIFICATION_EMAILS)
			.overwrite((emails) => [...new Set(emails)])
			.refine(
				(emails) => emails.length <= MAX_NOTIFICATION_EMAILS,
				`At most ${MAX_NOTIFICATION_EMAILS} distinct addresses after trimming, lower-casing and de-duplication`,
			)
			.optional()
			.describe(
				"At most 200 entries submitted, each a valid address; " +
					"entries are trimmed, lower-cased and de-duplicated (first occurrence kept), then at most 10 distinct addresses are allowed. " +
					"Replaces the list; an empty list falls back to the account contact email (see effective_recipients).",
			),
		amendment_notification_policy: AmendmentPolicy.optional(),
	})
	.strict()
	.refine(nonEmpty, { message: "Send at least one setting to change", when: cleanSoFar })
	.meta({
		id: "UpdateNotificationSettingsRequest",
		minProperties: 1,
		description: "Any non-empty subset of the settings; absent settings are left alone; unknown fields are refused.",
	});
export type UpdateNotificationSettingsBody = z.infer<typeof UpdateNotificationSettingsBody>;

// ---------------------------------------------------------------------------------------------
// Learned rules

export const RuleType = z.enum(["issuing_body", "category_code", "phrase", "set_aside", "services_nature"]).meta({
	id: "RuleType",
	description:
		"The feature repeated negative feedback shares: an issuing body, a category code, a phrase, a set-aside kind, or the services nature of a notice",
});
export type RuleType = z.infer<typeof RuleType>;

export const LearnedRule = z
	.object({
		id: z.string(),
		rule_type: RuleType,
		description: z.string().describe("What the rule does, in words"),
		evidence_count: z.number().int().min(0).describe("How many feedback verdicts support it"),
		created_at: DateTime,
		active: z.boolean().describe("Only active rules change scores; switching a rule off restores the scores it changed"),
	})
	.meta({ id: "LearnedRule" });
export type LearnedRule = z.infer<typeof LearnedRule>;

export const LearnedRuleList = z.object({ rules: z.array(LearnedRule).describe("Newest first") }).meta({ id: "LearnedRuleList" });
export type LearnedRuleList = z.infer<typeof LearnedRuleList>;

export const UpdateRuleBody = z
	.object({ active: z.boolean().describe("true switches the rule on, false off") })
	.strict()
	.meta({ id: "UpdateRuleRequest" });
export type UpdateRuleBody = z.infer<typeof UpdateRuleBody>;
