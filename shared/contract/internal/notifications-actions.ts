import { z } from "zod";
import { TenantRef, type InternalAction } from "./common.ts";
import { SendDigestJob } from "./queue-jobs.ts";

// The notifications service's internal actions: the digest scheduler's steps, callable on their
// own (tests control time through `now`, and keep to their own company with `tenantId`), and the
// CLI's preview.

export const QueueDueQuery = z.object({ now: z.iso.datetime().optional(), tenantId: z.uuid().optional() }).strict();
export type QueueDueQuery = z.infer<typeof QueueDueQuery>;

export const DigestOutcome = z.enum(["sent", "empty", "already_sent", "uncertain"]);
export type DigestOutcome = z.infer<typeof DigestOutcome>;

/** The next digest as it would be sent now. */
export const DigestPreview = z.object({
	recipients: z.array(z.string()),
	subject: z.string(),
	html: z.string(),
	text: z.string(),
	items: z.number().int(),
	updated: z.number().int(),
});
export type DigestPreview = z.infer<typeof DigestPreview>;

export const notificationsActions = {
	/** How many digest jobs were queued. */
	"notifications.queueDueDigests": { params: QueueDueQuery, result: z.number().int() },
	"notifications.runDigest": { params: SendDigestJob, result: z.object({ outcome: DigestOutcome }) },
	/** How many companies got default settings. */
	"notifications.ensureSettings": { params: z.object({}).strict(), result: z.number().int() },
	"notifications.previewDigest": { params: TenantRef, result: DigestPreview },
} as const satisfies Record<string, InternalAction>;
