import { createHash } from "node:crypto";

/** Hex SHA-256: how secrets (API keys, session ids) are stored and looked up. */
export const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");
