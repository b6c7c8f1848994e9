/**
 * What a request is answered with, decided before anything is written. Keeping the answer a
 * value lets the fault layer drop it (reset after commit) and lets one place count statuses.
 */
import type { FastifyReply } from "fastify";
import { z } from "zod";

/** A JSON or plain-text answer with its status. */
export type Outcome = { status: number; json: unknown } | { status: number; text: string };

/**
 * The body of every error that is not a validation envelope: `{"Error": "..."}`. It has no
 * `Messages` array, which is how the spec tells "unreadable" 400s from rule failures.
 */
export const ErrorBody = z.strictObject({ Error: z.string() });

/** An error answer with an `ErrorBody`. */
export function errorOutcome(status: number, message: string): Outcome {
  return { status, json: { Error: message } satisfies z.infer<typeof ErrorBody> };
}

/** Writes an outcome; plain text is sent as `text/plain`, everything else as JSON. */
export function sendOutcome(reply: FastifyReply, outcome: Outcome): FastifyReply {
  reply.code(outcome.status);
  if ("text" in outcome) return reply.type("text/plain; charset=utf-8").send(outcome.text);
  return reply.type("application/json; charset=utf-8").send(JSON.stringify(outcome.json));
}

/** Drops the connection without an answer, with a TCP reset so the client sees ECONNRESET at once. */
export function resetConnection(reply: FastifyReply): void {
  reply.hijack();
  const socket = reply.request.raw.socket;
  if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
  else socket.destroy();
}
