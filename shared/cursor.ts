import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "./config.ts";
import { validationFailed } from "./errors.ts";

// Opaque list cursors: the sort key and id of the last item, signed so a tampered or
// foreign cursor is a validation_failed rather than a silently wrong page.
// `s` names the listing the cursor was made for (the company, the order and whatever else the
// list binds it to; listingKey): another company's cursor, or one of another order, is refused.
const Payload = z.object({ k: z.union([z.string(), z.number(), z.null()]), id: z.string().max(100), s: z.string().max(50) });
export type CursorPayload = z.infer<typeof Payload>;

function secret(): string {
	return config().CURSOR_SECRET || "oms-development-cursor-secret";
}
const sign = (data: string) => createHmac("sha256", secret()).update(data).digest("base64url").slice(0, 22);

export function encodeCursor(p: CursorPayload): string {
	const data = Buffer.from(JSON.stringify(p)).toString("base64url");
	return `${data}.${sign(data)}`;
}

/** The listing a cursor belongs to: always the company, then the order (and filters) it binds. */
export function listingKey(tenantId: string, ...parts: unknown[]): string {
	return createHash("sha256")
		.update(JSON.stringify([tenantId, ...parts]))
		.digest("base64url")
		.slice(0, 22);
}

export function decodeCursor(cursor: string, listing: string, path = "cursor"): CursorPayload {
	const bad = (message = "Invalid cursor") => validationFailed([{ path, code: "invalid_cursor", message }]);
	const [data, mac, extra] = cursor.split(".");
	if (!data || !mac || extra !== undefined) throw bad();
	const expected = Buffer.from(sign(data));
	const given = Buffer.from(mac);
	if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
	let p: CursorPayload;
	try {
		p = Payload.parse(JSON.parse(Buffer.from(data, "base64url").toString("utf8")));
	} catch {
		throw bad();
	}
	if (p.s !== listing)
		throw bad(
			"This cursor belongs to another listing: send it with the same credential's company, sort and filters as the page it came from",
		);
	return p;
}
