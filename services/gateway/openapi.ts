import { z } from "zod";
import { config } from "../../shared/config.ts";
import { ErrorBody } from "../../shared/contract/common.ts";
import { operationByAction } from "../../shared/contract/index.ts";
import type { Operation } from "../../shared/contract/operation.ts";
import { SCOPES } from "../../shared/contract/scopes.ts";
import { ERROR_STATUS, type ErrorCode } from "../../shared/errors.ts";
import { API_PREFIX, contractPathOf, UPLOAD_ROUTES } from "./routes.ts";

// The OpenAPI 3.1 document, generated from the gateway's route table and the same zod
// schemas the actions validate with. Nothing here is written by hand but prose.

type Json = Record<string, any>;

const TAG_DESCRIPTIONS: Record<string, string> = {
	Session: "Signing in and out, the caller's identity, the scope vocabulary and this document",
	"API keys": "Scoped keys for programmatic access, managed from a browser session",
	Opportunities: "Matched solicitations: list, read, archive, feedback and questions",
	Dashboard: "Counts by status and score band, upcoming deadlines, last ingestion",
	Partners: "Manufacturers (OEMs) the company resells",
	Products: "The product catalog that matching works from",
	"Company profile": "Who the company is: certifications, set-asides, NAICS codes, places served",
	Settings: "The notification digest and learned decision rules",
};
const ref = (id: string) => `#/components/schemas/${id}`;

/** A schema inline, its registered sub-schemas as references to components. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
	const raw = JSON.stringify(z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }));
	const s = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
	delete s.$schema;
	delete s.$id;
	delete s.$defs;
	return s;
}

/**
 * Every schema with a `.meta({id})`, as components; requests in their input form. Sorted by
 * id: the registry's order is the order modules were imported in, which differs between a
 * process with every service and a gateway alone, and the document must not.
 */
function components(): Record<string, Json> {
	const pass = (io: "input" | "output") =>
		z.toJSONSchema(z.globalRegistry, { io, target: "draft-2020-12", unrepresentable: "any", uri: ref }).schemas as Record<string, Json>;
	const out = pass("output");
	const inp = pass("input");
	const all: Record<string, Json> = {};
	for (const id of Object.keys(out).sort()) {
		const s = { ...(id.endsWith("Request") ? inp[id] : out[id]) };
		delete s.$schema;
		delete s.$id;
		all[id] = s;
	}
	return all;
}

/** Only the components that the paths reach, directly or through other components. */
function usedComponents(paths: Json, all: Record<string, Json>): Record<string, Json> {
	const used = new Set<string>(["Error"]);
	const visit = (node: unknown) => {
		for (const m of JSON.stringify(node).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
			if (!used.has(m[1]!) && all[m[1]!]) {
				used.add(m[1]!);
				visit(all[m[1]!]);
			}
		}
	};
	visit(paths);
	visit(all.Error);
	return Object.fromEntries(Object.entries(all).filter(([id]) => used.has(id)));
}

/** Errors every operation of a kind can answer, beside the ones it lists itself. */
function errorCodes(op: Operation): ErrorCode[] {
	const codes = new Set<ErrorCode>(op.errors ?? []);
	codes.add("internal");
	codes.add("rate_limited");
	if (op.access !== "public") codes.add("unauthorized");
	// The gateway checks X-Service-Tenant and the body's encoding and depth before any call.
	if (op.pathParams || op.query || op.body || op.access !== "public") codes.add("validation_failed");
	// Any body may be compressed, and its limit counts the decompressed bytes. The contract lists
	// the API key endpoints' codes exhaustively, so they are documented as it lists them.
	if (op.body && op.operationId !== "createApiKey") codes.add("unsupported_type").add("file_too_large");
	if (op.pathParams) codes.add("not_found");
	if (op.access === "session") codes.add("forbidden");
	if (op.access !== "public" && op.access !== "id_token" && op.access !== "credential" && op.access !== "session")
		codes.add("insufficient_scope");
	return [...codes];
}

function security(op: Operation): Json[] | undefined {
	switch (op.access) {
		case "public":
			return [];
		case "id_token":
			return [{ oidcIdToken: [] }];
		case "credential":
			return [{ apiKey: [] }, { session: [] }];
		case "session":
			return [{ session: [] }];
		default:
			return [{ apiKey: [op.access] }, { session: [] }];
	}
}

function parameters(op: Operation): Json[] {
	const params: Json[] = [];
	const add = (obj: z.ZodObject | undefined, where: "path" | "query") => {
		if (!obj) return;
		const schema = jsonSchema(obj, "input");
		const required = new Set<string>(schema.required ?? []);
		for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
			const { description, ...rest } = prop;
			const p: Json = { name, in: where, required: where === "path" || required.has(name), schema: rest };
			if (description) p.description = description;
			if (rest.type === "array" || rest.anyOf?.some((s: Json) => s.type === "array")) {
				p.style = "form";
				p.explode = true;
			}
			params.push(p);
		}
	};
	add(op.pathParams, "path");
	add(op.query, "query");
	return params;
}

function responses(op: Operation): Json {
	const status = String(op.status ?? 200);
	const headers: Json = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
	for (const [name, description] of Object.entries(op.responseHeaders ?? {})) headers[name] = { description, schema: { type: "string" } };
	const r: Json = {
		[status]:
			status === "204" || !op.response
				? { description: "No content", headers }
				: { description: "Success", headers, content: { "application/json": { schema: jsonSchema(op.response, "output") } } },
	};
	const byStatus = new Map<number, ErrorCode[]>();
	for (const code of errorCodes(op)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
	for (const [st, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
		r[String(st)] = {
			description: `Error: ${codes.join(", ")}`,
			headers: st === 429 ? { ...headers, "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } : headers,
			content: {
				"application/json": {
					schema: { $ref: ref("Error") },
					examples: Object.fromEntries(codes.map((c) => [c, { value: { error: c, message: "…", requestId: "…" } }])),
				},
			},
		};
	}
	return r;
}

export function buildOpenApi(routes: Record<string, string>): Json {
	void ErrorBody; // registers the Error component
	const paths: Json = {};
	for (const [route, action] of Object.entries(routes)) {
		const op = operationByAction.get(action);
		if (!op) throw new Error(`Route ${route} names ${action}, which no contract operation declares`);
		const { method, path } = contractPathOf(route);
		const operation: Json = {
			operationId: op.operationId,
			summary: op.summary,
			tags: [op.tag],
			security: security(op),
			parameters: parameters(op),
			responses: responses(op),
		};
		if (op.description) operation.description = op.description;
		if (typeof op.access === "string" && op.access.includes(":")) operation["x-required-scope"] = op.access;
		if (op.body) {
			const content: Json = { "application/json": { schema: jsonSchema(op.body, "input") } };
			for (const type of UPLOAD_ROUTES[route]?.mediaTypes ?? []) {
				if (type === "text/csv")
					content[type] = { schema: { type: "string", description: "CSV text with a header line naming the columns" } };
			}
			operation.requestBody = { required: op.bodyRequired !== false, content };
			if (UPLOAD_ROUTES[route]) operation["x-body-limit"] = UPLOAD_ROUTES[route].limit;
		}
		if (!operation.parameters.length) delete operation.parameters;
		paths[`${API_PREFIX}${path}`] ??= {};
		paths[`${API_PREFIX}${path}`][method.toLowerCase()] = operation;
	}
	const tags = [...new Set([...operationByAction.values()].map((o) => o.tag))].map((name) => ({
		name,
		description: TAG_DESCRIPTIONS[name] ?? name,
	}));
	return {
		openapi: "3.1.0",
		info: {
			title: "Opportunity Matching Service",
			version: "1.0.0",
			description:
				"Finds public procurement solicitations and matches them to a company's product catalog. " +
				"Every path is scoped to the caller's company. " +
				"Authenticate with `Authorization: Bearer <API key>` (scoped) or a browser session cookie (every scope). " +
				"Errors share one body: `{error, message, requestId}`.\n\nScopes:\n" +
				SCOPES.map((s) => `- \`${s.value}\` (${s.label}): ${s.description}`).join("\n"),
			license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
		},
		servers: [{ url: config().PUBLIC_URL }],
		tags,
		paths,
		components: {
			schemas: usedComponents(paths, components()),
			headers: {
				"X-Request-Id": { description: "Identifies the request in logs; echoed from the request when given", schema: { type: "string" } },
			},
			securitySchemes: {
				apiKey: {
					type: "http",
					scheme: "bearer",
					description: "An API key: `oms_live_` followed by 43 base64url characters. Its scopes limit what it can do.",
				},
				session: {
					type: "apiKey",
					in: "cookie",
					name: config().SESSION_COOKIE,
					description:
						"A browser session from POST /api/v1/session; holds every scope in its company. Mutations need an allowed Origin header.",
				},
				oidcIdToken: {
					type: "http",
					scheme: "bearer",
					bearerFormat: "JWT",
					description: "An OpenID Connect ID token from the portal's identity provider (only for POST /api/v1/session).",
				},
			},
		},
	};
}
