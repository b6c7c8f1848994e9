/**
 * What the generated module (messages.ts) says of each gRPC method, enough for grpc-js's service
 * definition, and what it holds for each message: its codec, protobufjs's generated functions as
 * static code.
 */
import type { IConversionOptions, Writer } from "protobufjs/minimal";

/** One method of a service. */
export interface MethodDescriptor {
  /** The request and response messages' full names (`tfplugin6.GetMetadata.Request`). */
  readonly request: string;
  readonly response: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
}

/** The methods of each service, by service full name, then method name. */
export type ServiceTable = Readonly<Record<string, Readonly<Record<string, MethodDescriptor>>>>;

/** A message type's codec: what protobufjs's reflection generates for a `Type`, with the same signatures. */
export interface MessageCodec {
  /** A message from a plain object (snake_case field names), as `Type.fromObject`. */
  fromObject(object: object): object;
  /** The message's bytes, as `Type.encode`. */
  encode(message: object): Writer;
  /** A message from its bytes, as `Type.decode`. */
  decode(bytes: Uint8Array): object;
  /** The message as a plain object, as `Type.toObject`. */
  toObject(message: object, options: IConversionOptions): Record<string, unknown>;
}
