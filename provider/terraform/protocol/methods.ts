/**
 * What the generated descriptor (descriptor.ts) says of each gRPC method besides the message
 * declarations: enough for grpc-js's service definition without building any message type, and
 * the declarations its messages need, so a launch builds only those of the methods it is called on.
 */

/** One method of a service. */
export interface MethodDescriptor {
  /** The request and response messages' full names (`tfplugin6.GetMetadata.Request`). */
  readonly request: string;
  readonly response: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  /**
   * The top-level declarations (full names, `tfplugin6.Schema`) holding both messages and every
   * type they refer to, transitively: each taken whole, with its nested types.
   */
  readonly declarations: readonly string[];
}

/** The methods of each service, by service full name, then method name. */
export type ServiceTable = Readonly<Record<string, Readonly<Record<string, MethodDescriptor>>>>;
