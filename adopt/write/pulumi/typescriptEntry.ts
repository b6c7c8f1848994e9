/**
 * What the two TypeScript writers share: the program's entry (the file Pulumi.yaml's `main` names,
 * or the `main` of the package.json in the program's directory, its `.ts` source for a `.js` name,
 * or index.ts), `webhooks-adopted.ts` beside it, and the entry's `import "./webhooks-adopted";`
 * after its last import. They differ in the package they import and how each subscription is declared.
 */
import { posix } from "node:path";
import type { Adopted, WriteInput, Writer } from "../writer";
import { endOfLine, includeInEntry, written, type Inclusion } from "./entryInclude";
import {
  byName,
  folderOf,
  headerComment,
  inFolder,
  programDirectory,
  programMain,
  secretKeyOf,
  type Takeover,
} from "./program";

/** The file each TypeScript writer writes, beside the entry. */
export const TYPESCRIPT_FILE = "webhooks-adopted.ts";

const SCRIPT = /\.[cm]?[jt]s$/;

/** The program's entry file, relative to the target directory (it may not exist). */
export function typescriptEntry(input: Pick<WriteInput, "existing">): string {
  const main = programMain(input);
  if (main !== undefined && SCRIPT.test(main)) return sourceOf(input, main);
  const dir = programDirectory(input, SCRIPT);
  let packageMain: unknown;
  try {
    packageMain = (JSON.parse(input.existing(inFolder(dir, "package.json")) ?? "{}") as { main?: unknown }).main;
  } catch {
    // A package.json that is not JSON names no entry; npm would refuse it anyway.
  }
  if (typeof packageMain === "string" && SCRIPT.test(packageMain))
    return sourceOf(input, inFolder(dir, posix.normalize(packageMain)));
  const index = inFolder(dir, "index.ts");
  return input.existing(index) === undefined && input.existing(inFolder(dir, "index.js")) !== undefined
    ? inFolder(dir, "index.js")
    : index;
}

/** The TypeScript source of `file`: itself, or for a compiled `.js` name the `.ts` beside it when there is one. */
function sourceOf(input: Pick<WriteInput, "existing">, file: string): string {
  const ts = file.replace(/\.([cm]?)js$/, ".$1ts");
  return ts !== file && input.existing(ts) !== undefined ? ts : file;
}

/** The adopted file's path, beside `entry`. */
export function typescriptOutput(entry: string): string {
  return inFolder(folderOf(entry), TYPESCRIPT_FILE);
}

/** Every import statement's end: `import … from "…";`, `import "…";`, `import x = require("…");`, over several lines too. */
const IMPORT = /^import\b[^"'`]*?(?:["'][^"'\n]*["'])[^\n]*$/gm;

/** `import "./webhooks-adopted";` after the entry's last import, unless it imports the file already. */
export function includeTypescript(input: Pick<WriteInput, "existing">, entry: string): Inclusion {
  const statement = `import "./${TYPESCRIPT_FILE.replace(/\.ts$/, "")}";`;
  return includeInEntry({
    path: entry,
    text: input.existing(entry),
    // `import "./webhooks-adopted"`, with an extension, or as `import … from` / `require(…)`.
    includes: (text) => /["']\.\/webhooks-adopted(?:\.[cm]?[jt]s)?["']/.test(text),
    at: (text) => {
      const last = [...text.matchAll(IMPORT)].at(-1);
      return last === undefined ? undefined : { offset: endOfLine(text, last.index + last[0].length), indent: "" };
    },
    lines: [statement],
    where: "after its last import",
  });
}

/** A TypeScript writer: `webhooks-adopted.ts` importing `sdkImport`, each subscription as `declare` writes it. */
export function typescriptWriter(front: {
  readonly takeover: Takeover;
  /** The import statement of the package the declarations use. */
  readonly sdkImport: string;
  readonly declare: (a: Adopted) => string;
}): Writer {
  return (input) => {
    const adopted = byName(input.adopted);
    const entry = typescriptEntry(input);
    const imports = [
      ...(adopted.some((a) => secretKeyOf(a) !== undefined) ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
      front.sdkImport,
    ];
    const content =
      [headerComment("//", front.takeover), imports.join("\n"), ...adopted.map(front.declare)].join("\n\n") + "\n";
    return written(typescriptOutput(entry), content, includeTypescript(input, entry));
  };
}
