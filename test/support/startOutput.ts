/**
 * The command blocks `npm start` prints at its end, read back as a user copies them: a
 * `[start] <heading>:` line followed by `[start]   <command>` lines.
 */

/** The blocks of `output`, by heading, each the commands joined by newlines, exactly as printed. */
export function printedBlocks(output: string): Map<string, string> {
  const blocks = new Map<string, string[]>();
  let heading: string | undefined;
  for (const line of output.split("\n")) {
    const text = /^\[start\] (.*)$/.exec(line)?.[1];
    if (text === undefined) continue;
    if (text.startsWith("  ")) {
      if (heading !== undefined) blocks.get(heading)!.push(text.trim());
    } else {
      heading = text.endsWith(":") ? text : undefined;
      if (heading !== undefined) blocks.set(heading, []);
    }
  }
  return new Map([...blocks].filter(([, lines]) => lines.length > 0).map(([h, lines]) => [h, lines.join("\n")]));
}

/** The block whose heading starts with `prefix`. */
export function block(blocks: Map<string, string>, prefix: string): string {
  const found = [...blocks].find(([heading]) => heading.startsWith(prefix));
  if (!found) throw new Error(`npm start printed no "${prefix}…" block; it printed: ${[...blocks.keys()].join(" | ")}`);
  return found[1];
}
