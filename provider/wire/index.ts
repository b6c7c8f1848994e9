/** The wire layer: schemas and the one codec. Imports nothing else of ours. */
export * from "./webhook";
export * from "./apiVersion";
export * from "./messages";
export * from "./schemas";
export * from "./codec";
export * from "./enumNames";
export * from "./responses";
