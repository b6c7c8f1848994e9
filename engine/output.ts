/**
 * The engine's output as people read it: streamed as it comes, each distinct error line printed
 * once (the engine repeats a resource's error in its progress, its diagnostics and its summary),
 * and a failed operation summed up in one line instead of its whole output again.
 */

/** Where text goes (process.stdout, process.stderr, or a test's buffer). */
export interface Sink {
  write(text: string): unknown;
}

/** A line that reports an error: the engine's `error: …`, or a thrown error the provider logged (`UnauthorizedError: …`). */
const ERROR_LINE = /(^|\s)(error|[A-Za-z]*Error):\s/;

/** A stack frame of a logged error (`    at fn (file.js:1:2)`). */
const STACK_FRAME = /\sat\s.+:\d+:\d+\)?\s*$/;

/**
 * Streams output to the sinks line by line. An error already printed is not printed again: its
 * later lines keep their place (so every resource still shows it failed) but say "same error as above".
 */
export function engineOutput(out: Sink, err: Sink) {
  const printedErrors = new Set<string>();
  const lineWriter = (sink: Sink) => {
    let pending = "";
    // After a repeated error, its stack frames are repeats too.
    let repeatedFrames = false;
    return (text: string) => {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (repeatedFrames && STACK_FRAME.test(line)) continue;
        const key = errorKey(line);
        repeatedFrames = key !== undefined && printedErrors.has(key);
        if (repeatedFrames && key !== undefined) {
          sink.write(`${line.slice(0, line.length - key.length)}(same error as above)\n`);
          continue;
        }
        if (key !== undefined) printedErrors.add(key);
        sink.write(`${line}\n`);
      }
    };
  };
  return {
    /** The Automation API callbacks of an operation. */
    callbacks: { onOutput: lineWriter(out), onError: lineWriter(err) },
    /** The error lines printed so far (normalised). */
    printedErrors: printedErrors as ReadonlySet<string>,
  };
}

/** The error an output line reports, normalised so that the same error in different framings matches. */
function errorKey(line: string): string | undefined {
  const match = ERROR_LINE.exec(line);
  if (!match) return undefined;
  return line.slice(match.index + match[0].length).trim();
}

/** One line about a failed operation: its first error not printed yet, else a pointer to the output above. */
export function failureLine(err: unknown, printedErrors: ReadonlySet<string>): string {
  const stderr = commandStderr(err);
  const lines = stderr === undefined ? [err instanceof Error ? err.message : String(err)] : engineErrorLines(stderr);
  const fresh = lines.find((line) => !printedErrors.has(line.trim()));
  if (fresh !== undefined) return fresh;
  return printedErrors.size > 0 ? "see the errors above" : failureDetail(err);
}

/** The lines of an engine's stderr that carry the error, without the CLI's framing. */
export function engineErrorLines(stderr: string): string[] {
  return stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^error:/i.test(line) && !/^error: preview failed$/i.test(line))
    .map((line) => line.replace(/^error:\s*/i, ""));
}

/** The stderr of an Automation API CommandError (its field is private in the typings). */
export function commandStderr(err: unknown): string | undefined {
  const result = (err as { commandResult?: { stderr?: unknown } } | null)?.commandResult;
  return typeof result?.stderr === "string" ? result.stderr : undefined;
}

/** What went wrong, in one line: an engine's error lines, or the error's message. */
export function failureDetail(err: unknown): string {
  const stderr = commandStderr(err);
  if (stderr !== undefined) return engineErrorLines(stderr).join("; ") || stderr.trim().split("\n").slice(-3).join(" ");
  return err instanceof Error ? err.message : String(err);
}
