import { IdPath } from "./common.ts";
import { defineOperation } from "./operation.ts";
import {
	AskAnswer,
	AskBody,
	Dashboard,
	Feedback,
	FeedbackBody,
	OpportunityDetail,
	OpportunityList,
	OpportunityListQuery,
	OpportunitySummary,
} from "./opportunities.ts";

// Opportunities, feedback and the dashboard (opportunities service); questions (ask service).

export const listOpportunities = defineOperation({
	operationId: "listOpportunities",
	method: "GET",
	path: "/opportunities",
	action: "opportunities.list",
	access: "opportunities:read",
	tag: "Opportunities",
	summary: "List the company's matched opportunities, with filters, sort and cursor paging",
	description:
		"Archived opportunities are left out unless archived=true (which lists only archived ones). " +
		"Default sort -score (best first), ties broken by id. " +
		"Pass nextCursor as cursor, with the same filters and sort, for the following page: " +
		"pages neither repeat nor skip items when new ones arrive meanwhile. " +
		"A cursor that was tampered with or belongs to another listing is validation_failed.",
	query: OpportunityListQuery,
	response: OpportunityList,
	errors: ["validation_failed"],
});

export const getOpportunity = defineOperation({
	operationId: "getOpportunity",
	method: "GET",
	path: "/opportunities/{id}",
	action: "opportunities.get",
	access: "opportunities:read",
	tag: "Opportunities",
	summary: "Read one opportunity with its signals, eligibility, product match and score rationale",
	pathParams: IdPath,
	response: OpportunityDetail,
	errors: ["validation_failed", "not_found"],
});

export const archiveOpportunity = defineOperation({
	operationId: "archiveOpportunity",
	method: "POST",
	path: "/opportunities/{id}/archive",
	action: "opportunities.archive",
	access: "opportunities:write",
	tag: "Opportunities",
	summary: "Archive an opportunity (idempotent)",
	description:
		"No body. Answers the summary with archived_at set; archiving an archived opportunity keeps the first archived_at. Archive state survives re-matching and amendments.",
	pathParams: IdPath,
	response: OpportunitySummary,
	status: 200,
	errors: ["validation_failed", "not_found"],
});

export const unarchiveOpportunity = defineOperation({
	operationId: "unarchiveOpportunity",
	method: "DELETE",
	path: "/opportunities/{id}/archive",
	action: "opportunities.unarchive",
	access: "opportunities:write",
	tag: "Opportunities",
	summary: "Unarchive an opportunity (idempotent)",
	description: "No body. Answers the summary with archived_at null, also when it was not archived.",
	pathParams: IdPath,
	response: OpportunitySummary,
	status: 200,
	errors: ["validation_failed", "not_found"],
});

export const sendFeedback = defineOperation({
	operationId: "sendFeedback",
	method: "POST",
	path: "/opportunities/{id}/feedback",
	action: "opportunities.sendFeedback",
	access: "opportunities:write",
	tag: "Opportunities",
	summary: "Give a verdict on an opportunity",
	description:
		"Records the verdict as a new feedback record (201) that supersedes any earlier one, " +
		"which stays in the history with superseded_at set. " +
		"relevant moves the opportunity to interested; " +
		"not_relevant, not_eligible and wrong_product move it to dismissed and durably feed learned rules.",
	pathParams: IdPath,
	body: FeedbackBody,
	response: Feedback,
	status: 201,
	errors: ["validation_failed", "not_found"],
});

export const askOpportunity = defineOperation({
	operationId: "askOpportunity",
	method: "POST",
	path: "/opportunities/{id}/ask",
	action: "ask.ask",
	access: "opportunities:read",
	tag: "Opportunities",
	summary: "Ask a free-text question about one solicitation",
	description:
		"The answer is grounded in the notice (text, items, amendments), its extracted signals and the company profile and matched products; " +
		"text inside the notice or catalog is treated as data, never as instructions. " +
		"history holds earlier turns, oldest first, alternating user and assistant and starting with user (at most 50); " +
		"only the most recent six turns are used. " +
		"model names what composed the answer (the built-in offline answerer, or a configured language model). " +
		"Rate limited per company.",
	pathParams: IdPath,
	body: AskBody,
	response: AskAnswer,
	errors: ["validation_failed", "not_found"],
});

export const getDashboard = defineOperation({
	operationId: "getDashboard",
	method: "GET",
	path: "/dashboard",
	action: "opportunities.dashboard",
	access: "dashboard:read",
	tag: "Dashboard",
	summary: "Opportunity counts by status and score band, upcoming deadlines and last ingestion per source",
	response: Dashboard,
});

export const opportunitiesOperations = [
	listOpportunities,
	getOpportunity,
	archiveOpportunity,
	unarchiveOpportunity,
	sendFeedback,
	askOpportunity,
	getDashboard,
];
