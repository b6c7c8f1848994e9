/** How findings name files: relative to where the review ran, with `/` separators, as SARIF and people read them. */
import { relative, sep } from "node:path";

/** `file` relative to `cwd`, with `/` separators (`.` for `cwd` itself). */
export function relativeFile(file: string, cwd: string): string {
  return relative(cwd, file).split(sep).join("/") || ".";
}
