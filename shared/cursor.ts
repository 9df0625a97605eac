import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "./config.ts";
import { validationFailed } from "./errors.ts";

// Opaque list cursors: the sort key and id of the last item, signed so a tampered or
// foreign cursor is a validation_failed rather than a silently wrong page.
const Payload = z.object({ k: z.union([z.string(), z.number(), z.null()]), id: z.string().max(100) });
export type CursorPayload = z.infer<typeof Payload>;

function secret(): string {
	return config().CURSOR_SECRET || "oms-development-cursor-secret";
}
const sign = (data: string) => createHmac("sha256", secret()).update(data).digest("base64url").slice(0, 22);

export function encodeCursor(p: CursorPayload): string {
	const data = Buffer.from(JSON.stringify(p)).toString("base64url");
	return `${data}.${sign(data)}`;
}

export function decodeCursor(cursor: string, path = "cursor"): CursorPayload {
	const bad = () => validationFailed([{ path, code: "invalid_cursor", message: "Invalid cursor" }]);
	const [data, mac, extra] = cursor.split(".");
	if (!data || !mac || extra !== undefined) throw bad();
	const expected = Buffer.from(sign(data));
	const given = Buffer.from(mac);
	if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
	try {
		return Payload.parse(JSON.parse(Buffer.from(data, "base64url").toString("utf8")));
	} catch {
		throw bad();
	}
}
