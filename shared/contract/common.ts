import { z } from "zod";
import { ERROR_CODES } from "../errors.ts";

// Building blocks every resource schema uses.

/** UTC date-time with a trailing Z, seconds optional (the contract's convention). */
export const DateTime = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/, "Expected a UTC date-time with a trailing Z, e.g. 2026-01-31T17:00:00Z")
	.refine((s) => !Number.isNaN(Date.parse(s)), "Not a real date-time")
	.meta({ format: "date-time" });
export type DateTime = z.infer<typeof DateTime>;

export const Uuid = z.uuid({ message: "Expected a UUID" });
export const IdPath = z.object({ id: Uuid }).strict();

export const Cursor = z.string().min(1).max(512).describe("Opaque continuation value taken from nextCursor");
export const Limit = z.coerce.number().int().min(1).max(100).default(25).describe("Page size, 1 to 100 (default 25)");

export const Issue = z.object({ path: z.string(), code: z.string(), message: z.string() });
export const ErrorBody = z
	.object({
		error: z.enum(ERROR_CODES),
		message: z.string(),
		requestId: z.string(),
		issues: z.array(Issue).optional(),
		issue_count: z.number().int().optional(),
	})
	.meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Serializes a Date (or null) the way every response does: ISO 8601 UTC with Z. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
