import type { LoggerConfig } from "moleculer";
import type { Config } from "./config.ts";
import { currentRequestId } from "./request-context.ts";

// Header and field names whose values must never reach a log line.
export const REDACT_PATHS = [
	"req.headers.authorization",
	"req.headers.cookie",
	"headers.authorization",
	"headers.cookie",
	"*.secret",
	"*.token",
	"*.password",
	"secret",
	"token",
];

/** Moleculer's Pino logger: JSON lines (always in production), pretty in a development terminal. */
export function loggerConfig(c: Config): LoggerConfig {
	const pretty = c.LOG_PRETTY === "true" || (c.LOG_PRETTY === "auto" && c.NODE_ENV !== "production" && process.stdout.isTTY);
	return {
		type: "Pino",
		options: {
			level: c.LOG_LEVEL,
			pino: {
				options: {
					redact: { paths: REDACT_PATHS, censor: "[redacted]" },
					// Every line written while handling a request names it (shared/request-context.ts).
					mixin: () => {
						const requestId = currentRequestId();
						return requestId ? { requestId } : {};
					},
					...(pretty ? { transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l" } } } : {}),
				},
			},
		},
	} as LoggerConfig;
}
