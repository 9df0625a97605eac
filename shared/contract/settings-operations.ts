import { IdPath } from "./common.ts";
import { defineOperation } from "./operation.ts";
import {
	DEFAULT_NOTIFICATION_SETTINGS,
	LearnedRule,
	LearnedRuleList,
	NotificationSettings,
	UpdateNotificationSettingsBody,
	UpdateRuleBody,
} from "./settings.ts";

// Notification digest settings (notifications service) and learned decision rules (matching).

const d = DEFAULT_NOTIFICATION_SETTINGS;

export const getNotificationSettings = defineOperation({
	operationId: "getNotificationSettings",
	method: "GET",
	path: "/settings/notifications",
	action: "notifications.getSettings",
	access: "settings:read",
	tag: "Settings",
	summary: "Read the digest schedule, minimum score, item count, recipients and amendment policy",
	description:
		`A company that never changed them has the defaults: digest_days [${d.digest_days.join(", ")}], digest_hour ` +
		`${d.digest_hour}, digest_tz ${d.digest_tz}, digest_min_score ${d.digest_min_score}, digest_max_items ` +
		`${d.digest_max_items}, notification_emails [] (so the account contact email is used) and ` +
		`amendment_notification_policy ${d.amendment_notification_policy}.`,
	response: NotificationSettings,
});

export const updateNotificationSettings = defineOperation({
	operationId: "updateNotificationSettings",
	method: "PATCH",
	path: "/settings/notifications",
	action: "notifications.updateSettings",
	access: "settings:write",
	tag: "Settings",
	summary: "Change any non-empty subset of the notification settings",
	description:
		"Unknown fields are refused. digest_days is stored sorted ascending (an empty list pauses the digest); " +
		"digest_tz must be an IANA zone name; notification_emails entries are trimmed, lower-cased and de-duplicated " +
		"before the cap of 10 distinct addresses is applied, and an empty list falls back to the account contact email " +
		"(effective_recipients). next_digest_at is recomputed.",
	body: UpdateNotificationSettingsBody,
	response: NotificationSettings,
	errors: ["validation_failed"],
});

export const listRules = defineOperation({
	operationId: "listRules",
	method: "GET",
	path: "/settings/rules",
	action: "matching.listRules",
	access: "settings:read",
	tag: "Settings",
	summary: "List the decision rules learned from feedback",
	response: LearnedRuleList,
});

export const updateRule = defineOperation({
	operationId: "updateRule",
	method: "PATCH",
	path: "/settings/rules/{id}",
	action: "matching.updateRule",
	access: "settings:write",
	tag: "Settings",
	summary: "Switch a learned rule on or off",
	description:
		"An active rule changes the scores of the opportunities it applies to (score_source rule); " +
		"switching it off restores them. Switching a rule on when the company already has the maximum number of active " +
		"rules is rule_cap_reached.",
	pathParams: IdPath,
	body: UpdateRuleBody,
	response: LearnedRule,
	errors: ["validation_failed", "not_found", "rule_cap_reached"],
});

export const settingsOperations = [getNotificationSettings, updateNotificationSettings, listRules, updateRule];
