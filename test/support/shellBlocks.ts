/**
 * The commands a markdown page tells a reader to run: its fenced `sh` blocks, each under the
 * `## ` heading of its section. Tests run them as written, so the page and the test cannot drift.
 */

/** One section's commands. */
export interface ShellSection {
  /** The `## ` heading's text. */
  readonly heading: string;
  /** The section's `sh` block, without the fences. */
  readonly script: string;
}

const HEADING = /^## (.+)$/;
const FENCE_OPEN = /^```sh\s*$/;
const FENCE_CLOSE = /^```\s*$/;

/**
 * Every `## ` section that has an `sh` block, in page order. A section with two blocks is an
 * error: which one to run would be a guess.
 */
export function shellSections(markdown: string): ShellSection[] {
  const sections: { heading: string; scripts: string[] }[] = [];
  let block: string[] | undefined;
  for (const line of markdown.split("\n")) {
    if (block) {
      if (FENCE_CLOSE.test(line)) {
        const section = sections.at(-1);
        if (!section) throw new Error(`an sh block before the first "## " heading:\n${block.join("\n")}`);
        section.scripts.push(block.join("\n"));
        block = undefined;
      } else block.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading?.[1]) sections.push({ heading: heading[1].trim(), scripts: [] });
    else if (FENCE_OPEN.test(line)) block = [];
  }
  if (block) throw new Error(`an sh block is not closed:\n${block.join("\n")}`);
  return sections
    .filter((section) => section.scripts.length > 0)
    .map(({ heading, scripts }) => {
      if (scripts.length > 1) throw new Error(`section "${heading}" has ${scripts.length} sh blocks; expected one`);
      return { heading, script: scripts[0]! };
    });
}
