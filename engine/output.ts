/**
 * The engine's output as people read it. The engine repeats each error: on the progress lines of
 * every resource it failed, as the provider's logged stderr, and in the closing `Diagnostics:`
 * section, whose resources it lists in no particular order (a Go map's). Here each distinct error
 * gets a number when first seen; progress lines show `#n` and the error's first sentence; the
 * Diagnostics section — what people read last — shows each error's full text once, at its first
 * entry, lists the resources in the order their errors first appeared, and later entries say
 * `(same as #n)`. A failed operation is then summed up in one line.
 */
import { stripVTControlCharacters } from "node:util";

/** Where text goes (process.stdout, process.stderr, or a test's buffer). */
export interface Sink {
  write(text: string): unknown;
}

/** A line that reports an error: the engine's `error: …`, or a thrown error the provider logged (`UnauthorizedError: …`). */
const ERROR_LINE = /(^|\s)(error|[A-Za-z]*Error):\s/;

/** A stack frame of a logged error (`    at fn (file.js:1:2)`). */
const STACK_FRAME = /\sat\s.+:\d+:\d+\)?\s*$/;

/** The header of the engine's closing section of diagnostics, grouped by resource. */
const DIAGNOSTICS_HEADER = "Diagnostics:";

/** How much of an error's first sentence a progress line shows. */
const BRIEF_CHARS = 160;

/** The errors of one operation's output: numbered when first seen, and whether shown in full yet. */
class ErrorRegistry {
  private readonly numbers = new Map<string, number>();
  /** Errors whose full text has been printed (normalised). */
  readonly printed = new Set<string>();

  number(key: string): number {
    let n = this.numbers.get(key);
    if (n === undefined) this.numbers.set(key, (n = this.numbers.size + 1));
    return n;
  }

  /** The number of an error already seen, else undefined. */
  seen(key: string): number | undefined {
    return this.numbers.get(key);
  }

  /** Errors seen but not yet printed in full, in the order they were first seen. */
  unprinted(): string[] {
    return [...this.numbers.keys()].filter((key) => !this.printed.has(key));
  }
}

/** One output line that reports an error: the text before the error, and the error itself (normalised). */
interface ErrorLine {
  head: string;
  key: string;
  /**
   * A thrown error the provider logged (`TransportError: …`), not the engine's `error: …`. Its
   * repeats are dropped: the failed resource's own `error:` line says the same.
   */
  logged: boolean;
}

/**
 * Streams output to the sinks line by line: progress lines as they come, with errors shortened to
 * a numbered reference; the Diagnostics section as one block once it ends (it is printed at the
 * end of the operation, all at once), reordered and with each error in full once.
 */
export function engineOutput(out: Sink, err: Sink) {
  const errors = new ErrorRegistry();
  const writers: Array<() => void> = [];
  const lineWriter = (sink: Sink) => {
    let pending = "";
    /** The lines of a Diagnostics section not printed yet; undefined outside one. */
    let diagnostics: string[] | undefined;
    // The frames of a logged error follow it; they are shown with its full text only.
    let dropFrames = false;
    const endDiagnostics = () => {
      if (diagnostics === undefined) return;
      sink.write(renderDiagnostics(diagnostics, errors));
      diagnostics = undefined;
    };
    writers.push(endDiagnostics);
    return (text: string) => {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const raw of lines) {
        const line = stripVTControlCharacters(raw);
        if (diagnostics !== undefined) {
          // The section's entries are indented; the next top-level line (Outputs:, Resources:) ends it.
          if (line.trim() === "" || /^\s/.test(line)) {
            diagnostics.push(raw);
            continue;
          }
          endDiagnostics();
        }
        if (line.trim() === DIAGNOSTICS_HEADER) {
          diagnostics = [];
          continue;
        }
        if (dropFrames && STACK_FRAME.test(line)) continue;
        const error = errorLine(line);
        dropFrames = error !== undefined;
        const shown = error ? progressReference(error, errors) : raw;
        if (shown !== undefined) sink.write(`${shown}\n`);
      }
    };
  };
  return {
    /** The Automation API callbacks of an operation. */
    callbacks: { onOutput: lineWriter(out), onError: lineWriter(err) },
    /** The errors printed in full so far (normalised). */
    printedErrors: errors.printed as ReadonlySet<string>,
    /**
     * Ends the output of an operation: prints a Diagnostics section still held back (the engine
     * normally ends it with its summary), then any error seen but not yet printed in full.
     */
    flush(): void {
      for (const end of writers) end();
      for (const key of errors.unprinted()) {
        out.write(`error: #${errors.number(key)} ${key}\n`);
        errors.printed.add(key);
      }
    },
  };
}

/** The error an output line reports, normalised so that the same error in different framings matches. */
function errorLine(line: string): ErrorLine | undefined {
  const match = ERROR_LINE.exec(line);
  if (!match) return undefined;
  const start = match.index + match[0].length;
  // The dynamic-provider host logs `${err}: ${err.stack}`, and our errors' stack is empty: a trailing ":".
  const key = line.slice(start).trim().replace(/:$/, "");
  return { head: line.slice(0, start), key, logged: match[2] !== "error" };
}

/** A later line of an error already shown: a reference to its number, or nothing for a logged repeat. */
function repeated({ head, logged }: ErrorLine, n: number): string | undefined {
  return logged ? undefined : `${head}(same as #${n})`;
}

/** A progress line's error: its number and first sentence when first seen, else a reference. */
function progressReference(error: ErrorLine, errors: ErrorRegistry): string | undefined {
  const { head, key } = error;
  const known = errors.seen(key);
  if (known !== undefined) return repeated(error, known);
  const summary = brief(key);
  return `${head}#${errors.number(key)} ${summary}${summary === key ? "" : " (in full under Diagnostics)"}`;
}

/** An error's first sentence, cut to `BRIEF_CHARS`. */
function brief(text: string): string {
  const sentence = /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  return sentence.length > BRIEF_CHARS ? `${sentence.slice(0, BRIEF_CHARS).trimEnd()}…` : sentence;
}

/**
 * The Diagnostics section: its resources in the order their errors were first seen (the engine's
 * own order is random), each error in full at its first entry and `(same as #n)` after.
 */
function renderDiagnostics(lines: readonly string[], errors: ErrorRegistry): string {
  // Entries: a resource's header (`  type (name):`), then its messages, indented further.
  const entries: string[][] = [];
  for (const line of lines) {
    if (/^ {2}\S/.test(stripVTControlCharacters(line)) || entries.length === 0) entries.push([]);
    entries.at(-1)!.push(line);
  }
  const firstSeen = (entry: readonly string[]) =>
    Math.min(
      ...entry.map((line) => {
        const error = errorLine(stripVTControlCharacters(line));
        return (error && errors.seen(error.key)) ?? Infinity;
      }),
    );
  const ordered = entries
    .map((entry) => ({ entry, rank: firstSeen(entry) }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ entry }) => entry);

  const text = [DIAGNOSTICS_HEADER];
  for (const entry of ordered) {
    const shown: string[] = [];
    let dropFrames = false;
    for (const raw of entry) {
      const line = stripVTControlCharacters(raw);
      if (dropFrames && STACK_FRAME.test(line)) continue;
      const error = errorLine(line);
      dropFrames = false;
      if (!error) shown.push(raw);
      else if (errors.printed.has(error.key)) {
        dropFrames = true;
        const reference = repeated(error, errors.number(error.key));
        if (reference !== undefined) shown.push(reference);
      } else {
        errors.printed.add(error.key);
        shown.push(`${error.head}#${errors.number(error.key)} ${error.key}`);
      }
    }
    // Dropped repeats can leave a blank line under the header, or nothing at all to say.
    const blank = (line: string | undefined) => line !== undefined && stripVTControlCharacters(line).trim() === "";
    while (blank(shown[1])) shown.splice(1, 1);
    if (shown.length > 1) text.push(...shown);
  }
  return `${text.join("\n")}\n`;
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
