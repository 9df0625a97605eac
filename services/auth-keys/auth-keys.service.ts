import { Redis } from "ioredis";
import type { Connection } from "mongoose";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { z } from "zod";
import { internalAction, operationAction, type OpContext } from "../../shared/actions.ts";
import { requireAuth } from "../../shared/auth-context.ts";
import { config } from "../../shared/config.ts";
import {
	createApiKey,
	createSession,
	deleteSession,
	getMe,
	listApiKeys,
	listScopes,
	revokeApiKey,
} from "../../shared/contract/auth-operations.ts";
import type { CreateApiKeyBody } from "../../shared/contract/auth.ts";
import { SCOPES } from "../../shared/contract/scopes.ts";
import { ApiError } from "../../shared/errors.ts";
import { connectServiceDb, syncIndexes } from "../../shared/mongo.ts";
import { every, type Periodic } from "../../shared/periodic.ts";
import { redisOptions } from "../../shared/queue.ts";
import { createKey, listKeys, revokeKey, verifyKey } from "./api-keys.ts";
import { contactEmail, createTenant, emailOf, membershipsOf, setMembership, tenantName } from "./directory.ts";
import { AuthMemory } from "./auth-memory.ts";
import { authStampKey } from "../../shared/auth-stamp.ts";
import { SIGN_IN_SETUP, signInConfigured, verifyIdToken } from "./id-tokens.ts";
import { authModels, type AuthModels } from "./models.ts";
import { clearedCookie, endSession, purgeExpiredSessions, sessionCookie, signIn, verifySession } from "./sessions.ts";

// auth-keys: tenants, users, memberships, browser sessions and API keys.

interface State extends Record<string, any> {
	conn: Connection;
	m: AuthModels;
	/** What authentication read, remembered until a change makes every process read it again. */
	memory: AuthMemory;
	redis?: Redis;
	purge?: Periodic;
}

export const AuthKeysService: ServiceSchema<ServiceSettingSchema, Record<string, any>, State> = {
	name: "auth-keys",

	actions: {
		// --- Public contract operations
		listScopes: operationAction(listScopes, () => ({ scopes: SCOPES.map((s) => ({ ...s })) })),

		createSession: operationAction(createSession, async function (this: State, ctx: OpContext) {
			const meta = ctx.meta as { idToken?: string; selectTenant?: string };
			if (!meta.idToken) throw new ApiError("unauthorized", "An ID token is required");
			const identity = await verifyIdToken(meta.idToken);
			const s = await signIn(this.m, identity, meta.selectTenant);
			ctx.meta.$responseHeaders = { "Set-Cookie": sessionCookie(config().SESSION_COOKIE, s.token, s.maxAgeSeconds) };
			return s.record;
		}),

		deleteSession: operationAction(deleteSession, async function (this: State, ctx: OpContext) {
			const auth = requireAuth(ctx);
			if (auth.sessionId) await endSession(this.m, this.memory, auth.sessionId);
			ctx.meta.$responseHeaders = { "Set-Cookie": clearedCookie(config().SESSION_COOKIE) };
		}),

		me: operationAction(getMe, async function (this: State, ctx: OpContext) {
			const auth = requireAuth(ctx);
			const remembered = { memory: this.memory, stamp: await this.memory.stamp() };
			const [email, name, memberships] = await Promise.all([
				auth.email !== undefined ? auth.email : emailOf(this.m, remembered, auth.userId),
				tenantName(this.m, auth.tenantId),
				membershipsOf(this.m, auth.userId, remembered),
			]);
			return {
				user: { id: auth.userId, email: email ?? null },
				tenant: { id: auth.tenantId, name },
				memberships,
				credential: { kind: auth.kind, api_key_id: auth.apiKeyId ?? null, scopes: auth.scopes },
			};
		}),

		listKeys: operationAction(listApiKeys, async function (this: State, ctx: OpContext) {
			return { keys: await listKeys(this.m, requireAuth(ctx).tenantId) };
		}),

		createKey: operationAction(createApiKey, async function (this: State, ctx: OpContext<{ body: CreateApiKeyBody }>) {
			return createKey(this.m, requireAuth(ctx), ctx.params.body);
		}),

		revokeKey: operationAction(revokeApiKey, async function (this: State, ctx: OpContext<{ id: string }>) {
			await revokeKey(this.m, this.memory, requireAuth(ctx).tenantId, ctx.params.id);
		}),

		// --- Internal: the gateway's credential check on every request
		authenticate: internalAction("auth-keys.authenticate", async function (this: State, ctx) {
			const { kind, hash, tenantId } = ctx.params;
			if (kind === "api_key") return verifyKey(this.m, this.memory, hash);
			if (tenantId !== undefined && !z.uuid().safeParse(tenantId).success)
				throw new ApiError("no_membership", "X-Service-Tenant names no company of this account");
			return verifySession(this.m, this.memory, hash, tenantId);
		}),

		// --- Internal: administration from the CLI and tests (never routed)
		createTenant: internalAction("auth-keys.createTenant", function (this: State, ctx) {
			return createTenant(this.m, this.memory, ctx.params.name, ctx.params.ownerEmail);
		}),
		contactEmail: internalAction("auth-keys.contactEmail", async function (this: State, ctx) {
			const [email, name] = await Promise.all([contactEmail(this.m, ctx.params.tenantId), tenantName(this.m, ctx.params.tenantId)]);
			return { email, name };
		}),
		tenantIds: internalAction("auth-keys.tenantIds", async function (this: State, ctx) {
			const rows = await this.m.tenants
				.find({ _id: { $gt: ctx.params.after } }, { _id: 1 })
				.sort({ _id: 1 })
				.limit(ctx.params.limit)
				.lean();
			return { ids: rows.map((r) => r._id) };
		}),
		setMembership: internalAction("auth-keys.setMembership", async function (this: State, ctx) {
			const ms = await setMembership(this.m, this.memory, ctx.params.tenantId, ctx.params.email, ctx.params.status);
			return { membershipId: ms._id, status: ms.status };
		}),
	},

	async started(this: State) {
		this.conn = await connectServiceDb("auth");
		this.m = authModels(this.conn);
		await syncIndexes(this.conn);
		const c = config();
		// Commands fail at once while Redis is away: authentication then reads the database.
		this.redis = new Redis(c.REDIS_URL, { ...redisOptions(false), commandTimeout: 1000 });
		this.redis.on("error", () => undefined);
		this.memory = new AuthMemory(this.redis, authStampKey(c.REDIS_PREFIX), c.AUTH_CACHE_MS);
		if (!signInConfigured()) this.logger.warn(`no OpenID Connect issuer is configured, so nobody can sign in: ${SIGN_IN_SETUP}`);
		this.purge = every(
			3600_000,
			() => purgeExpiredSessions(this.m),
			(e) => this.logger.warn({ err: e }, "expired session purge failed"),
		);
	},

	async stopped(this: State) {
		await this.purge?.stop();
		this.memory?.close();
		this.redis?.disconnect();
		await this.conn?.close();
	},
};
