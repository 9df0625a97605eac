import type { ServiceSchema } from "moleculer";
import { notBuiltYet } from "../../shared/actions.ts";
import {
	archiveOpportunity,
	getDashboard,
	getOpportunity,
	listOpportunities,
	sendFeedback,
	unarchiveOpportunity,
} from "../../shared/contract/opportunities-operations.ts";

// Opportunities: notice ingestion, the company's opportunities, archive, feedback, dashboard.
// A stub: every action validates its input and answers not_found; issue 4 builds the behaviour.

export const OpportunitiesService: ServiceSchema = {
	name: "opportunities",
	actions: {
		list: notBuiltYet(listOpportunities),
		get: notBuiltYet(getOpportunity),
		archive: notBuiltYet(archiveOpportunity),
		unarchive: notBuiltYet(unarchiveOpportunity),
		sendFeedback: notBuiltYet(sendFeedback),
		dashboard: notBuiltYet(getDashboard),
	},
};

export default OpportunitiesService;
