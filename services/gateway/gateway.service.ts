import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Redis } from "ioredis";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import type { AuthContext, RequestMeta } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import { operationByAction } from "../../shared/contract/index.ts";
import type { Operation } from "../../shared/contract/operation.ts";
import { ApiError } from "../../shared/errors.ts";
import { addReadinessCheck, checkReadiness, failingChecks, pingRedis } from "../../shared/readiness.ts";
import { withRequestId } from "../../shared/request-context.ts";
import { checkAccess, checkOrigin } from "./access.ts";
import { presentedCredential } from "./credentials.ts";
import { sendError } from "./http-errors.ts";
import { buildOpenApi } from "./openapi.ts";
import { RateLimits } from "./rate-limit.ts";
import { API_PREFIX, API_ROUTES, UPLOAD_ROUTES } from "./routes.ts";

type Req = IncomingMessage & { $ctx?: Context<unknown, RequestMeta>; $params?: any; $rateHeaders?: Record<string, string>; $requestId?: string; body?: unknown };
type Res = ServerResponse;

// A client's X-Request-Id is kept when it is short and plain; otherwise we mint one.
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,64}$/;
const requestIdFor = (given: string | string[] | undefined) => (typeof given === "string" && REQUEST_ID_RE.test(given) ? given : randomUUID());
const requestIdOf = (req: Req) => req.$requestId ?? (req.$ctx?.requestID as string | undefined) ?? randomUUID();

/** The services the API routes to: the gateway is ready only while each has a live instance. */
const ROUTED_SERVICES = [...new Set(Object.values(API_ROUTES).map((action) => action.split(".")[0]!))].filter((s) => s !== "gateway").sort();
const httpHandlerOf = (ApiGateway as unknown as { methods: { httpHandler(req: Req, res: Res, next?: unknown): Promise<unknown> } }).methods.httpHandler;

const clientIp = (req: Req) => req.socket.remoteAddress ?? "unknown";

function opFor(action: string): Operation {
	const op = operationByAction.get(action);
	if (!op) throw new Error(`No contract operation for action ${action}`);
	return op;
}

function without(routes: Record<string, string>, drop: Record<string, unknown>): Record<string, string> {
	return Object.fromEntries(Object.entries(routes).filter(([r]) => !(r in drop)));
}

const mediaType = (req: Req) => (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
const isJson = (type: string) => /^application\/(.+\+)?json$/.test(type);

/**
 * One moleculer-web route over /api/v1 for a group of aliases sharing a body limit and the
 * media types they accept. Every route authenticates, reshapes params for the action and
 * answers errors in the contract's body.
 */
function apiRoute(name: string, aliases: Record<string, string>, bodyLimit: string, mediaTypes: string[]) {
	const textTypes = mediaTypes.filter((t) => !isJson(t));
	return {
		name,
		path: API_PREFIX,
		aliases,
		mappingPolicy: "restrict",
		mergeParams: false,
		authentication: true,
		autoAliases: false,
		bodyParsers: {
			json: { strict: true, limit: bodyLimit },
			...(textTypes.length ? { text: { type: textTypes, limit: bodyLimit } } : {}),
		},
		callOptions: { timeout: config().REQUEST_TIMEOUT_MS },
		onBeforeCall(this: any, _ctx: Context, _route: unknown, req: Req, _res: Res, alias: { action: string }) {
			const op = opFor(alias.action);
			const raw = req.$params as { body: unknown; query: Record<string, unknown>; params: Record<string, string> };
			const params: Record<string, unknown> = { ...raw.query, ...raw.params };
			if (op.body && hasBody(req)) {
				const type = mediaType(req);
				if (!mediaTypes.some((t) => (isJson(t) ? isJson(type) : t === type))) {
					throw new ApiError("unsupported_type", `Send the request body as ${mediaTypes.join(" or ")}`);
				}
				params.body = raw.body;
			}
			// The action receives {...path, ...query, body}; replace in place, moleculer-web calls with this object.
			for (const k of Object.keys(raw)) delete (raw as Record<string, unknown>)[k];
			Object.assign(raw, params);
		},
		onAfterCall(this: any, _ctx: Context, _route: unknown, req: Req, res: Res, data: unknown) {
			for (const [k, v] of Object.entries(req.$rateHeaders ?? {})) res.setHeader(k, v);
			res.setHeader("Cache-Control", "no-store");
			return data;
		},
		onError(this: any, req: Req, res: Res, err: unknown) {
			for (const [k, v] of Object.entries(req.$rateHeaders ?? {})) res.setHeader(k, v);
			sendError(req, res, err, requestIdOf(req), bodyLimit, this.logger);
		},
	};
}

/** True when the request carries body bytes (as opposed to an absent body). */
const hasBody = (req: Req) => Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

export const GatewayService: ServiceSchema<any> = {
	name: "gateway",
	mixins: [ApiGateway as unknown as ServiceSchema],

	settings: {
		port: config().PORT,
		ip: config().HOST,
		// The request id chosen in httpHandler becomes the context's, which Moleculer passes on.
		rootCallOptions(options: { requestID?: string }, req: Req) {
			options.requestID = req.$requestId ?? requestIdFor(req.headers["x-request-id"]);
		},
		logRequest: "debug",
		logResponse: "debug",
		routes: [
			apiRoute("api", without(API_ROUTES, UPLOAD_ROUTES), config().BODY_LIMIT, ["application/json"]),
			...Object.entries(UPLOAD_ROUTES).map(([route, u]) => apiRoute(`upload ${route}`, { [route]: API_ROUTES[route]! }, u.limit, u.mediaTypes)),
			{
				name: "health",
				path: "/",
				aliases: { "GET healthz": "gateway.health", "GET readyz": "gateway.ready" },
				mappingPolicy: "restrict",
				bodyParsers: { json: false },
				authentication: false,
			},
		],
		onError(this: any, req: Req, res: Res, err: unknown) {
			sendError(req, res, err, requestIdOf(req), config().BODY_LIMIT, this.logger);
		},
	},

	actions: {
		// Retrying the HTTP handler would replay a half-consumed request; the calls it makes
		// to other services are retried by the broker on their own.
		rest: { retryPolicy: { enabled: false } },
		health: { visibility: "published", handler: () => ({ status: "ok" }) },
		// Ready = this process's backing services answer (NATS, Redis; shared/readiness.ts) and
		// every service the API routes to has an instance up.
		ready: {
			visibility: "published",
			async handler(this: any) {
				const readiness = await checkReadiness(this.broker);
				const up = new Set(this.broker.registry.getServiceList({ onlyAvailable: true }).map((s: { name: string }) => s.name));
				const problems = [...failingChecks(readiness), ...ROUTED_SERVICES.filter((s) => !up.has(s)).map((s) => `${s} (no instance available)`)];
				if (problems.length) throw new ApiError("internal", `Not ready: ${problems.join(", ")}`, { status: 503, headers: { "Retry-After": "5" } });
				return { status: "ready" };
			},
		},
		openapi: {
			visibility: "published",
			handler(this: any) {
				this.openapiDoc ??= buildOpenApi(API_ROUTES);
				return this.openapiDoc;
			},
		},
	},

	methods: {
		/**
		 * Every HTTP request, before moleculer-web routes it: its request id is chosen here, sent
		 * back on whatever answer follows (404s and errors included), and is the id of every log
		 * line written while it is handled.
		 */
		httpHandler(this: any, req: Req, res: Res, next?: unknown) {
			const requestId = requestIdFor(req.headers["x-request-id"]);
			req.$requestId = requestId;
			res.setHeader("X-Request-Id", requestId);
			return withRequestId(requestId, () => httpHandlerOf.call(this, req, res, next));
		},

		/**
		 * Establishes who calls (API key or browser session), spends their rate budget and
		 * checks the operation's access rule. Runs for every /api/v1 request.
		 */
		async authenticate(this: any, ctx: Context<unknown, RequestMeta & Record<string, unknown>>, _route: unknown, req: Req, _res: Res, alias: { action: string }) {
			const op = opFor(alias.action);
			const c = config();
			ctx.meta.requestId = ctx.requestID ?? undefined;
			const spend = async (key: string, anonymous: boolean) => {
				req.$rateHeaders = await this.rateLimits.consume(key, anonymous);
			};

			if (op.access === "public") {
				await spend(`ip:${clientIp(req)}`, true);
				return null;
			}
			const presented = presentedCredential(req, c.SESSION_COOKIE);
			if (op.access === "id_token") {
				await spend(`ip:${clientIp(req)}`, true);
				const token = req.headers.authorization?.match(/^Bearer (\S{1,16384})$/)?.[1];
				if (!token) throw new ApiError("unauthorized", "Send the identity provider's ID token as Authorization: Bearer <jwt>");
				ctx.meta.idToken = token;
				const tenant = req.headers["x-service-tenant"];
				if (typeof tenant === "string") ctx.meta.selectTenant = tenant;
				return null;
			}
			if (presented.kind !== "api_key" && presented.kind !== "session") {
				await spend(`ip:${clientIp(req)}`, true);
				throw new ApiError("unauthorized", "Missing or invalid credential");
			}
			const tenantHeader = req.headers["x-service-tenant"];
			let auth: AuthContext;
			try {
				auth = await ctx.call("auth-keys.authenticate", {
					kind: presented.kind,
					hash: presented.hash,
					tenantId: presented.kind === "session" && typeof tenantHeader === "string" ? tenantHeader : undefined,
				});
			} catch (err) {
				// Failed credentials spend the caller's address budget, which slows down guessing.
				if ((err as ApiError)?.type === "unauthorized") await spend(`ip:${clientIp(req)}`, true);
				throw err;
			}
			await spend(auth.kind === "api_key" ? `key:${auth.apiKeyId}` : `session:${auth.sessionId}`, false);
			if (auth.kind === "session") checkOrigin(req.method ?? "GET", req.headers.origin, c.allowedOrigins);
			checkAccess(op.access, auth);
			ctx.meta.auth = auth;
			return auth;
		},
	},

	created(this: any) {
		const c = config();
		this.redis = new Redis(c.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
		this.redis.on("error", () => {
			/* reconnects on its own; /readyz reports it */
		});
		this.removeRedisCheck = addReadinessCheck("redis:rate-limits", () => pingRedis(this.redis));
		this.rateLimits = new RateLimits(
			this.redis,
			c.REDIS_PREFIX,
			{ points: c.RATE_LIMIT_POINTS, windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS },
			{ points: c.RATE_LIMIT_ANON_POINTS, windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS },
		);
	},

	async stopped(this: any) {
		this.removeRedisCheck?.();
		this.redis?.disconnect();
	},
};
