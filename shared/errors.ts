import { Errors } from "moleculer";

// One list of error codes, the contract's, each with the HTTP status DESIGN.md gives it.
export const ERROR_STATUS = {
	unauthorized: 401,
	forbidden: 403,
	no_membership: 403,
	membership_disabled: 403,
	unverified_email: 403,
	identity_conflict: 409,
	insufficient_scope: 403,
	validation_failed: 400,
	not_found: 404,
	missing_file: 400,
	unsupported_type: 415,
	file_too_large: 413,
	empty_document: 422,
	unreadable_document: 422,
	context_doc_cap_reached: 409,
	rule_cap_reached: 409,
	already_reverted: 409,
	superseded: 409,
	already_exists: 409,
	partner_not_authorized: 409,
	invalid_import: 422,
	rate_limited: 429,
	internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export interface Issue {
	path: string;
	code: string;
	message: string;
}

export interface ApiErrorData {
	issues?: Issue[];
	/** Extra response headers (e.g. Retry-After); never put secrets here. */
	headers?: Record<string, string>;
	/** Overrides the code's usual status, e.g. 503 for an unavailable dependency. */
	status?: number;
}

/**
 * The one error type services throw for anything a client should see. It is a
 * MoleculerClientError so it crosses the transporter intact and is never retried.
 */
export class ApiError extends Errors.MoleculerClientError {
	constructor(code: ErrorCode, message: string, data: ApiErrorData = {}) {
		super(message, data.status ?? ERROR_STATUS[code], code, data);
		this.name = "ApiError";
	}
}

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found`);

export const validationFailed = (issues: Issue[], message?: string) =>
	new ApiError(
		"validation_failed",
		message ?? `Request validation failed: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`.slice(0, 500),
		{ issues },
	);

export interface ErrorBody {
	error: ErrorCode;
	message: string;
	requestId: string;
	issues?: Issue[];
	issue_count?: number;
}

export interface FormattedError {
	status: number;
	body: ErrorBody;
	headers: Record<string, string>;
	/** True when the cause is ours (a bug or a dead dependency): log it with its stack. */
	internal: boolean;
}

const isErrorCode = (v: unknown): v is ErrorCode => typeof v === "string" && v in ERROR_STATUS;

/**
 * Turns anything thrown anywhere into the contract's error body. Only ApiErrors (and the
 * few framework errors mapped below) keep their message; everything else becomes
 * `internal` with a fixed message, so no stack or internal detail reaches a client.
 */
export function reformatError(err: unknown, requestId: string): FormattedError {
	const e = err as { type?: unknown; code?: unknown; message?: unknown; data?: ApiErrorData; name?: string };
	if (e && isErrorCode(e.type) && typeof e.message === "string") {
		const status = typeof e.code === "number" && e.code >= 400 && e.code < 600 ? e.code : ERROR_STATUS[e.type];
		const body: ErrorBody = { error: e.type, message: e.message, requestId };
		const issues = e.data?.issues;
		if (Array.isArray(issues)) {
			body.issues = issues;
			body.issue_count = issues.length;
		}
		return { status, body, headers: { ...(e.data?.headers ?? {}) }, internal: status >= 500 };
	}
	if (
		e?.name === "ServiceNotFoundError" ||
		e?.name === "ServiceNotAvailableError" ||
		e?.name === "RequestTimeoutError" ||
		e?.name === "BrokerDisconnectedError" ||
		e?.name === "QueueIsFullError"
	) {
		return {
			status: 503,
			body: { error: "internal", message: "A service is temporarily unavailable; retry shortly", requestId },
			headers: { "Retry-After": "5" },
			internal: true,
		};
	}
	return {
		status: 500,
		body: { error: "internal", message: "Internal error", requestId },
		headers: {},
		internal: true,
	};
}
