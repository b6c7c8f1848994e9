/** The wire layer: schemas, the one codec and the shared predicates. Imports nothing else of ours. */
export * from "./webhook";
export * from "./apiVersion";
export * from "./messages";
export * from "./schemas";
export * from "./codec";
export * from "./predicates";
export * from "./clock";
export * from "./enumNames";
export * from "./responses";
