import type { ServiceSchema } from "moleculer";
import { notBuiltYet } from "../../shared/actions.ts";
import { listRules, updateRule } from "../../shared/contract/settings-operations.ts";

// Matching: staged matching, scores, signals and the learned decision rules.
// A stub: every action validates its input and answers not_found; issue 5 builds the behaviour.

export const MatchingService: ServiceSchema = {
	name: "matching",
	actions: {
		listRules: notBuiltYet(listRules),
		updateRule: notBuiltYet(updateRule),
	},
};

export default MatchingService;
