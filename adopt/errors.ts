/** An adoption that cannot go on: bad input, a source that could not be read, a failed verification. Exit 1. */
export class AdoptError extends Error {
  override readonly name = "AdoptError";
}
