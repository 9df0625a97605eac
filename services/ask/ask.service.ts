import type { ServiceSchema } from "moleculer";
import { notBuiltYet } from "../../shared/actions.ts";
import { askOpportunity } from "../../shared/contract/opportunities-operations.ts";

// Ask: grounded answers to questions about one solicitation.
// A stub: the action validates its input and answers not_found; issue 7 builds the behaviour.

export const AskService: ServiceSchema = {
	name: "ask",
	actions: {
		ask: notBuiltYet(askOpportunity),
	},
};

export default AskService;
