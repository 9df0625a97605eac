import { authOperations } from "./auth-operations.ts";
import { catalogOperations } from "./catalog-operations.ts";
import type { Operation } from "./operation.ts";
import { opportunitiesOperations } from "./opportunities-operations.ts";
import { settingsOperations } from "./settings-operations.ts";

/** Every operation of the contract, in the order the OpenAPI document lists them. */
export const OPERATIONS: readonly Operation[] = [
	...authOperations,
	...opportunitiesOperations,
	...catalogOperations,
	...settingsOperations,
];

export const operationByAction = new Map(OPERATIONS.map((op) => [op.action, op]));
