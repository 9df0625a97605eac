import type { ServiceSchema } from "moleculer";
import { notBuiltYet } from "../../shared/actions.ts";
import { getNotificationSettings, updateNotificationSettings } from "../../shared/contract/settings-operations.ts";

// Notifications: digest settings and the scheduled digest email.
// A stub: every action validates its input and answers not_found; issue 6 builds the behaviour.

export const NotificationsService: ServiceSchema = {
	name: "notifications",
	actions: {
		getSettings: notBuiltYet(getNotificationSettings),
		updateSettings: notBuiltYet(updateNotificationSettings),
	},
};

export default NotificationsService;
