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
const FENCE_CLOSE = /^```\s*$/;

/** Every fenced block of `language` (`sh` by default) on the page, in order, with the `## ` heading of its section. */
export function shellBlocks(markdown: string, language = "sh"): ShellSection[] {
  const fenceOpen = new RegExp(`^\`\`\`${language}\\s*$`);
  const blocks: ShellSection[] = [];
  /** Before the first `## `: the page's top, "". */
  let heading = "";
  let block: string[] | undefined;
  for (const line of markdown.split("\n")) {
    if (block) {
      if (FENCE_CLOSE.test(line)) {
        blocks.push({ heading, script: block.join("\n") });
        block = undefined;
      } else block.push(line);
      continue;
    }
    const match = HEADING.exec(line);
    if (match?.[1]) heading = match[1].trim();
    else if (fenceOpen.test(line)) block = [];
  }
  if (block) throw new Error(`an sh block is not closed:\n${block.join("\n")}`);
  return blocks;
}

/**
 * Every `## ` section that has an `sh` block, in page order. A section with two blocks is an
 * error: which one to run would be a guess.
 */
export function shellSections(markdown: string): ShellSection[] {
  const blocks = shellBlocks(markdown);
  for (const { heading } of blocks) {
    const count = blocks.filter((b) => b.heading === heading).length;
    if (count > 1) throw new Error(`section "${heading}" has ${count} sh blocks; expected one`);
  }
  return blocks;
}
