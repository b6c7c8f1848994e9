/** Counted nouns for the review's lines: `1 managed subscription`, `3 managed subscriptions`. */

/** `n` with `one` or `many`, as `n` asks. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
