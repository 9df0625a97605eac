import { authOperations } from "./auth-operations.ts";
import type { Operation } from "./operation.ts";

/** Every operation of the contract, in the order the OpenAPI document lists them. */
export const OPERATIONS: readonly Operation[] = [...authOperations];

export const operationByAction = new Map(OPERATIONS.map((op) => [op.action, op]));
