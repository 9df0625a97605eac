import { buildOpenApi } from "../services/gateway/openapi.ts";
import { API_ROUTES } from "../services/gateway/routes.ts";

// Prints the OpenAPI document the gateway serves at /api/v1/openapi.json (for linting and
// client generation without a running service).
process.stdout.write(`${JSON.stringify(buildOpenApi(API_ROUTES), null, 2)}\n`);
