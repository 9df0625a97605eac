import { z } from "zod";
import { ApiKeyIdPath, ApiKeyList, CreateApiKeyBody, CreatedApiKey, Me, SessionRecord } from "./auth.ts";
import { defineOperation } from "./operation.ts";
import { ScopeList } from "./scopes.ts";

// Session, identity, scopes and API keys: the auth-keys service.

export const listScopes = defineOperation({
	operationId: "listScopes",
	method: "GET",
	path: "/scopes",
	action: "auth-keys.listScopes",
	access: "public",
	tag: "Session",
	summary: "List the scope vocabulary (public)",
	response: ScopeList,
});

export const createSession = defineOperation({
	operationId: "createSession",
	method: "POST",
	path: "/session",
	action: "auth-keys.createSession",
	access: "id_token",
	tag: "Session",
	summary: "Sign in with an OpenID Connect ID token",
	description:
		"Send the identity provider's ID token as `Authorization: Bearer <jwt>`; no body. " +
		"The token's signature, issuer, audience and expiry are verified and its email must be verified. " +
		"`X-Service-Tenant` selects the company; without it the most recently used one is chosen. " +
		"Answers the session record and sets an HttpOnly, Secure, SameSite=Lax session cookie; " +
		"mutations made with that cookie must carry an allowed `Origin` header.\n\n" +
		"An account holds at most 20 live sessions (the service's default; an operator may set another limit). " +
		"A sign-in beyond that answers 403 `forbidden` and creates no session, until one of them is signed out (DELETE /session) or expires.",
	response: SessionRecord,
	errors: ["forbidden", "unverified_email", "identity_conflict", "no_membership", "membership_disabled"],
	responseHeaders: { "Set-Cookie": "The session cookie (HttpOnly; Secure; SameSite=Lax)" },
});

export const deleteSession = defineOperation({
	operationId: "deleteSession",
	method: "DELETE",
	path: "/session",
	action: "auth-keys.deleteSession",
	access: "session",
	tag: "Session",
	summary: "Sign out (ends the browser session)",
	status: 204,
	errors: ["forbidden"],
});

export const getMe = defineOperation({
	operationId: "getMe",
	method: "GET",
	path: "/me",
	action: "auth-keys.me",
	access: "credential",
	tag: "Session",
	summary: "The caller's account, company, memberships and credential",
	response: Me,
});

export const listApiKeys = defineOperation({
	operationId: "listApiKeys",
	method: "GET",
	path: "/api-keys",
	action: "auth-keys.listKeys",
	access: "session",
	tag: "API keys",
	summary: "List the company's API keys (never their secrets)",
	response: ApiKeyList,
	errors: ["forbidden"],
});

export const createApiKey = defineOperation({
	operationId: "createApiKey",
	method: "POST",
	path: "/api-keys",
	action: "auth-keys.createKey",
	access: "session",
	tag: "API keys",
	summary: "Create a scoped API key (browser session only); the secret is shown only in this response",
	description:
		"A company holds at most 50 active API keys, neither revoked nor expired (the service's default; an operator may set another limit). " +
		"Creating one more answers 403 `forbidden` and creates nothing; revoking a key, or its expiry, frees a place. The limit holds for concurrent requests too. " +
		"An API key can never create a key: that answers 403 `forbidden` as well.",
	body: CreateApiKeyBody,
	response: CreatedApiKey,
	status: 201,
	errors: ["forbidden", "validation_failed"],
});

export const revokeApiKey = defineOperation({
	operationId: "revokeApiKey",
	method: "DELETE",
	path: "/api-keys/{id}",
	action: "auth-keys.revokeKey",
	access: "session",
	tag: "API keys",
	summary: "Revoke an API key; effective on the very next request",
	description: "Idempotent: revoking a revoked key answers 204 again and keeps the first revocation time.",
	pathParams: ApiKeyIdPath,
	status: 204,
	errors: ["forbidden", "validation_failed", "not_found"],
});

export const getOpenApi = defineOperation({
	operationId: "getOpenApi",
	method: "GET",
	path: "/openapi.json",
	action: "gateway.openapi",
	access: "credential",
	tag: "Session",
	summary: "This OpenAPI 3.1 document",
	response: z.record(z.string(), z.unknown()).describe("An OpenAPI 3.1.0 document"),
});

export const authOperations = [listScopes, createSession, deleteSession, getMe, listApiKeys, createApiKey, revokeApiKey, getOpenApi];
