import type { Issue } from "../errors.ts";

// What a client may put in text. PostgreSQL (under the stand-in store) cannot hold a NUL, and
// BSON stores a lone UTF-16 surrogate as U+FFFD, so such input was answered with a 500 or
// echoed with one value and stored with another. MongoDB could hold a NUL, so the contract
// decides: text sent to the API may not carry control characters (C0 other than tab, line feed
// and carriage return; DEL; C1), lone surrogates or the non-characters U+FFFE and U+FFFF.
// Object keys are text too (product specs). Notices from feeds are not client input and are
// not checked here.

// eslint-disable-next-line no-control-regex
const UNSAFE =
	/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The issue for a text that holds an unsafe character, naming the first one and where it stands. */
function issue(path: string, s: string, what: string): Issue {
	const m = UNSAFE.exec(s)!;
	const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
	const found = code >= "D800" && code <= "DFFF" ? `a lone surrogate (U+${code})` : `the control character U+${code}`;
	const message = `${what} holds ${found} at position ${m.index}; text may not contain control characters or lone surrogates`;
	return { path, code: "invalid_string", message };
}

/** Every string (and object key) in `value` that holds unsafe characters, as contract issues. */
export function unsafeTextIssues(value: unknown, path: string[] = [], out: Issue[] = [], depth = 0): Issue[] {
	if (out.length >= 20 || depth > 64) return out;
	if (typeof value === "string") {
		if (UNSAFE.test(value)) out.push(issue(path.join("."), value, "The text"));
	} else if (Array.isArray(value)) {
		value.forEach((v, i) => unsafeTextIssues(v, [...path, String(i)], out, depth + 1));
	} else if (value !== null && typeof value === "object") {
		for (const [k, v] of Object.entries(value)) {
			if (UNSAFE.test(k)) out.push(issue([...path, k].join("."), k, "The key"));
			unsafeTextIssues(v, [...path, k], out, depth + 1);
		}
	}
	return out;
}
