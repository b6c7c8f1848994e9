/**
 * Making the new file part of the program: each language's writer says where in its entry file
 * the one statement that includes it goes (after the last import, at the top of the function
 * `pulumi.Run` or `Pulumi.run` calls); this inserts it there, once. When the entry is missing or
 * the place is not found, nothing is edited and adopt tells the team the one line to add, and where.
 */
import type { FileWrite, Written } from "../writer";

/** Where to insert: an offset at the start of a line, and the indentation the inserted lines take. */
export interface InsertionPoint {
  readonly offset: number;
  readonly indent: string;
}

/** What including the file takes: an edit of the entry, a sentence for adopt to print, or nothing (done already). */
export interface Inclusion {
  readonly edit?: FileWrite;
  readonly include?: string;
}

/** The entry file and how to include the new file in it. */
export interface EntryInclude {
  /** The entry file, relative to the target directory. */
  readonly path: string;
  /** Its text, undefined when there is none. */
  readonly text: string | undefined;
  /** True when the entry includes the new file already. */
  readonly includes: (text: string) => boolean;
  /** Where the statement goes, undefined when the entry has no such place. */
  readonly at: (text: string) => InsertionPoint | undefined;
  /** The statement's lines, without indentation. */
  readonly lines: readonly string[];
  /** Where the statement goes, in words ("after the last import"), for the sentence adopt prints. */
  readonly where: string;
}

/** Includes the new file in the entry: an edit, or, where that cannot be done, the sentence saying what to add. */
export function includeInEntry(entry: EntryInclude): Inclusion {
  const statement = entry.lines.map((line) => line.trim()).join(" ");
  const instead = `Add \`${statement}\` to ${entry.path} ${entry.where}, so that the program declares the adopted subscriptions.`;
  if (entry.text === undefined) return { include: instead };
  if (entry.includes(entry.text)) return {};
  const point = entry.at(entry.text);
  if (point === undefined) return { include: instead };
  const newline = entry.text.includes("\r\n") ? "\r\n" : "\n";
  const inserted = entry.lines.map((line) => `${point.indent}${line}${newline}`).join("");
  // An entry whose last line has no line break gets one before the statement.
  const before = point.offset === entry.text.length && !entry.text.endsWith("\n") ? newline : "";
  return {
    edit: {
      path: entry.path,
      content: `${entry.text.slice(0, point.offset)}${before}${inserted}${entry.text.slice(point.offset)}`,
      edit: true,
    },
  };
}

/** What a writer gives back: the new file, the entry's edit where there is one, else the sentence saying what to add. */
export function written(output: string, content: string, { edit, include }: Inclusion): Written {
  return { output, files: [{ path: output, content }, ...(edit ? [edit] : [])], ...(include ? { include } : {}) };
}

/** The offset just past the line that holds `index` (its line break included), or the text's end. */
export function endOfLine(text: string, index: number): number {
  const at = text.indexOf("\n", index);
  return at === -1 ? text.length : at + 1;
}

/**
 * The point at the start of a block: just past the line whose opening brace ends at `afterBrace`,
 * indented as the block's first line (else as that line, one `step` deeper). Undefined when more
 * than a comment follows the brace on its line (a one-line block).
 */
export function blockStart(text: string, afterBrace: number, step: string): InsertionPoint | undefined {
  const offset = endOfLine(text, afterBrace);
  if (!/^\s*(\/\/.*)?$/.test(text.slice(afterBrace, offset).replace(/\r?\n$/, ""))) return undefined;
  const lineStart = text.lastIndexOf("\n", afterBrace - 1) + 1;
  const own = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const next = /^([ \t]*)\S/m.exec(text.slice(offset));
  const nextIndent = next?.[1] ?? "";
  return { offset, indent: nextIndent.length > own.length ? nextIndent : `${own}${step}` };
}
