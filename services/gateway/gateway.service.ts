import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Redis } from "ioredis";
import type { ActionSchema, Context, Service, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { callInternal } from "../../shared/actions.ts";
import type { AuthContext, RequestMeta } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import { operationByAction } from "../../shared/contract/index.ts";
import { actionInput, type Operation } from "../../shared/contract/operation.ts";
import { ApiError } from "../../shared/errors.ts";
import { addReadinessCheck, checkReadiness, pingRedis } from "../../shared/readiness.ts";
import { withRequestId } from "../../shared/request-context.ts";
import { checkAccess, checkOrigin } from "./access.ts";
import { bodyReader } from "./bodies.ts";
import { clientAddress, type ClientAddress } from "./client-address.ts";
import { CredentialMemory } from "./credential-memory.ts";
import { authStampKey } from "../../shared/auth-stamp.ts";
import { presentedCredential, selectedTenant } from "./credentials.ts";
import { sendError, undecodablePathParam, type AliasPattern } from "./http-errors.ts";
import { buildOpenApi } from "./openapi.ts";
import { RateLimits } from "./rate-limit.ts";
import { API_PREFIX, API_ROUTES, UPLOAD_ROUTES } from "./routes.ts";

type Req = IncomingMessage & {
	$ctx?: Context<unknown, RequestMeta>;
	$params?: any;
	$rateHeaders?: Record<string, string>;
	$requestId?: string;
	body?: unknown;
};
type Res = ServerResponse;

// A client's X-Request-Id is kept when it is short and plain; otherwise we mint one.
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,64}$/;
const requestIdFor = (given: string | string[] | undefined) =>
	typeof given === "string" && REQUEST_ID_RE.test(given) ? given : randomUUID();
const requestIdOf = (req: Req) => req.$requestId ?? (req.$ctx?.requestID as string | undefined) ?? randomUUID();

/** The services the API routes to: the gateway is ready only while each has a live instance. */
const ROUTED_SERVICES = [...new Set(Object.values(API_ROUTES).map((action) => action.split(".")[0]!))]
	.filter((s) => s !== "gateway")
	.sort();
const gatewayMethods = (ApiGateway as unknown as { methods: Record<"httpHandler" | "resolveAlias", (...args: any[]) => any> }).methods;

type RequestContext = Context<unknown, RequestMeta & Record<string, unknown>>;

/** The gateway's own state and the moleculer-web parts it uses: what `this` is in its handlers. */
interface Gateway extends Service {
	redis: Redis;
	rateLimits: RateLimits;
	credentials: CredentialMemory;
	clientAddress: ClientAddress;
	removeChecks: Array<() => void>;
	openapiDoc?: Record<string, unknown>;
	aliases: AliasPattern[];
	authenticate(ctx: RequestContext, req: Req, op: Operation): Promise<AuthContext | null>;
}

function opFor(action: string): Operation {
	const op = operationByAction.get(action);
	if (!op) throw new Error(`No contract operation for action ${action}`);
	return op;
}

function without(routes: Record<string, string>, drop: Record<string, unknown>): Record<string, string> {
	return Object.fromEntries(Object.entries(routes).filter(([r]) => !(r in drop)));
}

/**
 * One moleculer-web route over /api/v1 for a group of aliases sharing a body limit and the
 * media types they accept. Every route authenticates, then reads the body, reshapes params for
 * the action and answers errors in the contract's body.
 */
function apiRoute(name: string, aliases: Record<string, string>, bodyLimit: string, mediaTypes: string[]) {
	const readBody = bodyReader(bodyLimit, mediaTypes);
	return {
		name,
		path: API_PREFIX,
		aliases,
		mappingPolicy: "restrict",
		mergeParams: false,
		// moleculer-web parses bodies before any hook and authenticates after onBeforeCall; both
		// happen in onBeforeCall instead, the credential first.
		authentication: false,
		autoAliases: false,
		bodyParsers: false,
		callOptions: { timeout: config().REQUEST_TIMEOUT_MS },
		async onBeforeCall(this: Gateway, ctx: RequestContext, _route: unknown, req: Req, res: Res, alias: { action: string }) {
			const op = opFor(alias.action);
			await this.authenticate(ctx, req, op);
			const raw = req.$params as { query: Record<string, unknown>; params: Record<string, string> };
			const params: Record<string, unknown> = { ...raw.query, ...raw.params };
			if (op.body) {
				const body = await readBody(req, res);
				if (body !== undefined) params.body = body;
			}
			// The action receives {...path, ...query, body}; replace in place, moleculer-web calls with this object.
			for (const k of Object.keys(raw)) delete (raw as Record<string, unknown>)[k];
			Object.assign(raw, params);
		},
		onAfterCall(this: Gateway, _ctx: Context, _route: unknown, req: Req, res: Res, data: unknown) {
			for (const [k, v] of Object.entries(req.$rateHeaders ?? {})) res.setHeader(k, v);
			res.setHeader("Cache-Control", "no-store");
			return data;
		},
		onError(this: Gateway, req: Req, res: Res, err: unknown) {
			for (const [k, v] of Object.entries(req.$rateHeaders ?? {})) res.setHeader(k, v);
			sendError(req, res, err, requestIdOf(req), bodyLimit, this.logger);
		},
	};
}

export const GatewayService: ServiceSchema<any, Record<string, any>, Record<string, any>, Gateway> = {
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
			...Object.entries(UPLOAD_ROUTES).map(([route, u]) =>
				apiRoute(`upload ${route}`, { [route]: API_ROUTES[route]! }, u.limit, u.mediaTypes),
			),
			{
				name: "health",
				path: "/",
				aliases: { "GET healthz": "gateway.health", "GET readyz": "gateway.ready" },
				mappingPolicy: "restrict",
				bodyParsers: { json: false },
				authentication: false,
			},
		],
		onError(this: Gateway, req: Req, res: Res, err: unknown) {
			sendError(req, res, err, requestIdOf(req), config().BODY_LIMIT, this.logger);
		},
	},

	actions: {
		// Retrying the HTTP handler would replay a half-consumed request; the calls it makes
		// to other services are retried by the broker on their own.
		rest: { retryPolicy: { enabled: false } },
		health: { visibility: "published", handler: () => ({ status: "ok" }) },
		// Ready = this process's checks pass (shared/readiness.ts): NATS, Redis, and every service
		// the API routes to has an instance up. Anyone can ask this port, so the answer names no
		// check and no error; the ops port's /readyz, which is not public, has them.
		ready: {
			visibility: "published",
			async handler(this: Gateway) {
				const readiness = await checkReadiness(this.broker);
				if (!readiness.ready) {
					throw new ApiError("internal", "Not ready: a service this gateway depends on is unavailable", {
						status: 503,
						headers: { "Retry-After": "5" },
					});
				}
				return { status: "ready" };
			},
		},
		openapi: {
			visibility: "published",
			// Strict like every operation's input: an unknown query parameter is validation_failed.
			input: () => actionInput(opFor("gateway.openapi")),
			handler(this: Gateway) {
				this.openapiDoc ??= buildOpenApi(API_ROUTES);
				return this.openapiDoc;
			},
		} as ActionSchema<Gateway>,
	},

	methods: {
		/**
		 * Every HTTP request, before moleculer-web routes it: its request id is chosen here, sent
		 * back on whatever answer follows (404s and errors included), and is the id of every log
		 * line written while it is handled.
		 */
		httpHandler(this: Gateway, req: Req, res: Res, next?: unknown) {
			const requestId = requestIdFor(req.headers["x-request-id"]);
			req.$requestId = requestId;
			res.setHeader("X-Request-Id", requestId);
			// Every answer, 404s and errors included, is only ever what its Content-Type says.
			res.setHeader("X-Content-Type-Options", "nosniff");
			return withRequestId(requestId, () => gatewayMethods.httpHandler.call(this, req, res, next));
		},

		/** moleculer-web's, except that an undecodable path parameter is a 400 naming it, not a 500. */
		resolveAlias(this: Gateway, url: string, method = "GET") {
			try {
				return gatewayMethods.resolveAlias.call(this, url, method);
			} catch (err) {
				if ((err as { type?: unknown })?.type === "UNABLE_DECODE_PARAM") throw undecodablePathParam(this.aliases, url, method);
				throw err;
			}
		},

		/**
		 * Establishes who calls (API key or browser session), spends their rate budget and
		 * checks the operation's access rule. Runs for every /api/v1 request, before its body is
		 * read. Whatever can be refused without asking auth-keys is refused first.
		 */
		async authenticate(this: Gateway, ctx: RequestContext, req: Req, op: Operation): Promise<AuthContext | null> {
			const c = config();
			ctx.meta.requestId = ctx.requestID ?? undefined;
			const spend = async (key: string, anonymous: boolean) => {
				req.$rateHeaders = await this.rateLimits.consume(key, anonymous);
			};
			const address = `ip:${this.clientAddress(req)}`;

			if (op.access === "public") {
				await spend(address, true);
				return null;
			}
			const presented = presentedCredential(req, c.SESSION_COOKIE);
			if (op.access === "id_token") {
				await spend(address, true);
				const token = req.headers.authorization?.match(/^Bearer (\S{1,16384})$/)?.[1];
				if (!token) throw new ApiError("unauthorized", "Send the identity provider's ID token as Authorization: Bearer <jwt>");
				const tenant = selectedTenant(req);
				ctx.meta.idToken = token;
				if (tenant !== undefined) ctx.meta.selectTenant = tenant;
				return null;
			}
			if (presented.kind !== "api_key" && presented.kind !== "session") {
				await spend(address, true);
				throw new ApiError("unauthorized", "Missing or invalid credential");
			}
			let tenantId: string | undefined;
			try {
				// Only a session chooses its company; an API key has one and ignores the header.
				tenantId = presented.kind === "session" ? selectedTenant(req) : undefined;
			} catch (err) {
				await spend(address, true);
				throw err;
			}
			let auth: AuthContext;
			try {
				const asked = { kind: presented.kind, hash: presented.hash, tenantId };
				auth = await this.credentials.authenticate(asked, () => callInternal(ctx, "auth-keys.authenticate", asked));
			} catch (err) {
				// Failed credentials spend the caller's address budget, which slows down guessing.
				if ((err as ApiError)?.type === "unauthorized") await spend(address, true);
				throw err;
			}
			await spend(auth.kind === "api_key" ? `key:${auth.apiKeyId}` : `session:${auth.sessionId}`, false);
			if (auth.kind === "session") checkOrigin(req.method ?? "GET", req.headers.origin, c.allowedOrigins);
			checkAccess(op.access, auth);
			ctx.meta.auth = auth;
			return auth;
		},
	},

	created(this: Gateway) {
		const c = config();
		// Idle keep-alive connections outlive the proxies' and clients' own (an ingress keeps its
		// upstream ones 60 s): a server that closes first races a request sent on the same socket,
		// which the client sees as a reset connection. moleculer-web made the server just before.
		const server = (this as unknown as { server?: import("node:http").Server }).server;
		if (server) {
			server.keepAliveTimeout = 65_000;
			server.headersTimeout = 66_000;
		}
		this.clientAddress = clientAddress(c.trustedProxies);
		this.redis = new Redis(c.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
		this.redis.on("error", () => {
			/* reconnects on its own; /readyz reports it */
		});
		this.removeChecks = [
			addReadinessCheck("redis:rate-limits", () => pingRedis(this.redis)),
			addReadinessCheck("routed-services", async () => {
				const up = new Set(this.broker.registry.getServiceList({ onlyAvailable: true }).map((s: { name: string }) => s.name));
				const missing = ROUTED_SERVICES.filter((s) => !up.has(s));
				if (missing.length) throw new Error(`no instance available of ${missing.join(", ")}`);
			}),
		];
		this.rateLimits = new RateLimits(
			this.redis,
			c.REDIS_PREFIX,
			{ points: c.RATE_LIMIT_POINTS, windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS },
			{ points: c.RATE_LIMIT_ANON_POINTS, windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS },
		);
		this.credentials = new CredentialMemory(this.redis, authStampKey(c.REDIS_PREFIX), c.AUTH_CACHE_MS);
	},

	async stopped(this: Gateway) {
		for (const remove of this.removeChecks ?? []) remove();
		this.redis?.disconnect();
	},
};
