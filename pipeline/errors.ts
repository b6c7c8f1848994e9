/**
 * The two ways a pipeline command fails: bad input, found before any request (exit 1, naming the
 * flag or variable and what to set), and an API that answered with an error (the operation, the
 * status, the API's own message and what to check). Neither ever holds a token.
 */

/** A flag, a variable or a report that cannot be used; the message names it and what to set. */
export class PipelineInputError extends Error {
  override readonly name = "PipelineInputError";
}

/** A request the platform's API refused or could not answer. */
export class PipelineApiError extends Error {
  override readonly name = "PipelineApiError";
  constructor(
    message: string,
    /** The HTTP status, or undefined when the API could not be reached. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** `text` with every occurrence of `secret` replaced: a token never reaches a message, however it got there. */
export function redact(text: string, secret: string): string {
  return secret.length === 0 ? text : text.split(secret).join("***");
}
