/**
 * What every target's writer gets and gives. A writer turns the subscriptions to adopt into code
 * in the target's own language: one new file beside the program or configuration (a YAML program,
 * which cannot include a file, gets its resources added to its Pulumi.yaml). Writers are pure: they
 * read the existing files they need through `existing`, and say what to write; adopt/ writes it.
 * A writer never sees a custom header value, only whether one is set: the code reads it from the
 * stack's secret config (`secretKey`) or from a Terraform variable, and never holds it.
 */
import type { AdoptionName, LiveSubscription } from "../../drift";

/** One subscription to adopt: its live fields, secrets left out, and its name in every style. */
export interface Adopted {
  readonly subscription: LiveSubscription;
  readonly name: AdoptionName;
  /**
   * Pulumi: the stack's secret config key holding its custom header value (`<camel>HeaderValue`),
   * set encrypted by adopt; absent when it has none. Terraform targets ignore it.
   */
  readonly secretKey?: string;
}

/** A file to write, relative to the target directory, with its whole new text. */
export interface FileWrite {
  readonly path: string;
  readonly content: string;
  /** True for a file the team already has (an entry file that now includes the new one, Pulumi.yaml). */
  readonly edit?: true;
}

/** What a writer gives back. */
export interface Written {
  /** The file adopt names in its messages and refuses to overwrite without `--force`. */
  readonly output: string;
  readonly files: readonly FileWrite[];
  /**
   * When the program's entry could not be edited to include the new file: the one line to add,
   * and where (a sentence adopt prints, and `--verify` repeats when the preview shows none of them).
   */
  readonly include?: string;
}

/** What a writer reads: the target directory's existing files. */
export interface WriteInput {
  readonly adopted: readonly Adopted[];
  /** The text of a file in the target directory (a path relative to it), undefined when there is none. */
  readonly existing: (path: string) => string | undefined;
  /** Files of the target directory, relative, `/`-separated (for finding a Java program's package). */
  readonly listFiles: () => readonly string[];
  /** `--force`: replace what an earlier run wrote instead of refusing. */
  readonly force: boolean;
}

/** A target that cannot take the adoption (a conflict in Pulumi.yaml, no Java entry class): adopt exits 1 with it. */
export class WriteError extends Error {
  override readonly name = "WriteError";
}

/** A target's writer. */
export type Writer = (input: WriteInput) => Written;
