import { randomBytes } from "node:crypto";
import { resetConfig } from "../../shared/config.ts";

// Each test file (its own process) gets databases and Redis keys nobody else uses.
const run = randomBytes(4).toString("hex");
process.env.NODE_ENV = "test";
process.env.MONGO_DB_PREFIX = `t${run}`;
process.env.REDIS_PREFIX = `oms-test-${run}`;
process.env.PORT ??= "0";
process.env.HOST = "127.0.0.1";
process.env.LOG_LEVEL ??= "warn";
process.env.LOG_PRETTY = "false";
process.env.DEV_ISSUER_DIR ??= ".data/dev-issuer";
// Tests sign in with ID tokens of the local development issuer, which is off unless enabled.
process.env.DEV_ISSUER = "on";
// Every broker a test starts (in this process or as a child) gets an ops server on a free port.
process.env.OPS_PORT = "0";
resetConfig();
// The environment before the test file's own code runs: a file that changes it (even before it
// imports the test helpers) configures services of its own (test/support/cluster.ts).
(globalThis as { omsEnvAtStart?: NodeJS.ProcessEnv }).omsEnvAtStart = { ...process.env };
