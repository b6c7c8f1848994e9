/**
 * README.md is a page a stranger can scan: its first screen says what this is, shows the front
 * doors side by side with how each installs, and gives the two commands; the explanations live in
 * docs/, each page linked once, and every link leads somewhere.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { publicHome } from "../../scripts/packageSchema";
import { REPO_ROOT } from "../support/engine";
import { shellBlocks } from "../support/shellBlocks";

const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
/** What a laptop's window shows of the page's source, and about as much as GitHub shows above the fold. */
const FIRST_SCREEN = README.split("\n").slice(0, 50).join("\n");

/** A markdown table's rows, each as its cells, for the table that follows `heading` in `markdown`. */
function tableAfter(markdown: string, heading: string): string[][] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

/** The prose paragraphs of `markdown`: no headings, tables, lists, code blocks or HTML. */
function paragraphs(markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  return withoutCode
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part && !/^(#|\||- |\[!\[)/.test(part));
}

/** The GitHub anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of `markdown`'s headings. */
const headingAnchors = (markdown: string) => [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!));

/** Every link of `markdown` to a file or anchor of this repository: `[text](target)`, not http(s). */
function localLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^https?:/.test(target));
}

describe("README.md's first screen", () => {
  it("says what this is before anything else, in one short paragraph", () => {
    const intro = paragraphs(FIRST_SCREEN.split(/^## /m)[0]!).filter((p) => !p.startsWith("# "));
    expect(intro).toHaveLength(1);
    expect(intro[0]!.split(/(?<=\.)\s/).length).toBeLessThanOrEqual(2);
    expect(intro[0]).toMatch(/Webhook Subscription Management API/);
  });

  it("shows the four front doors side by side, each with how it installs", () => {
    const rows = tableAfter(FIRST_SCREEN, "Front doors");
    const { goModule, mavenGroup } = publicHome();
    const door = (name: RegExp) => {
      const start = rows.findIndex(([cell]) => name.test(cell!));
      expect(start, `a row for ${String(name)}`).toBeGreaterThan(0);
      // A door's row and the rows below it with an empty first cell (one per language).
      const end = rows.findIndex(([cell], i) => i > start && cell !== "");
      return rows
        .slice(start, end === -1 ? undefined : end)
        .map((cells) => cells.join(" | "))
        .join("\n");
    };
    expect(door(/^dynamic provider/)).toMatch(/TypeScript.*`npm install pulumi-webhook-subscriptions`/);
    const native = door(/native plugin `webhooks`/);
    for (const install of [
      "`pip install pulumi_webhooks`",
      `\`go get ${goModule}\``,
      `Maven \`${mavenGroup}:webhooks\``,
      "`pulumi-webhook-subscriptions/native`",
      "YAML",
    ])
      expect(native).toContain(install);
    expect(door(/Terraform\/OpenTofu provider/)).toContain('`source = "webhook-subscriptions/webhooks"`');
    const cli = door(/CLI executable/);
    expect(cli).toMatch(/drift review.*emulator.*no Node\.js/);
    expect(cli).toContain("`webhook-subscriptions-v<v>-<os>-<arch>.tar.gz`");
  });

  it("gives the two commands, and nothing else to run", () => {
    const first = shellBlocks(FIRST_SCREEN);
    expect(first).toHaveLength(1);
    const commands = first[0]!.script.split("\n").map((line) => line.replace(/\s+#.*$/, ""));
    expect(commands).toEqual(["npm ci && npm start", "npm test"]);
  });
});

describe("README.md as a whole", () => {
  it("keeps its explanations short: no paragraph over 100 words (the long ones live in docs/)", () => {
    const long = paragraphs(README).filter((p) => p.split(/\s+/).length > 100);
    expect(long.map((p) => `${p.slice(0, 80)}… (${p.split(/\s+/).length} words)`)).toEqual([]);
  });

  it("links each page once, and every link leads to a file or a heading that exists", () => {
    const links = localLinks(README);
    const headings = headingAnchors(README);
    const files = links.filter((link) => !link.startsWith("#")).map((link) => link.split("#")[0]!);
    expect(
      files.filter((file, i) => files.indexOf(file) !== i),
      "pages linked twice",
    ).toEqual([]);
    expect(
      files.filter((file) => !existsSync(join(REPO_ROOT, file))),
      "links to no file",
    ).toEqual([]);
    const anchors = links.filter((link) => link.startsWith("#")).map((link) => link.slice(1));
    expect(
      anchors.filter((a) => !headings.includes(a)),
      "links to no heading",
    ).toEqual([]);
  });

  it("links the pages that took its explanations, whose own links lead to pages and headings that exist", () => {
    for (const page of ["docs/getting-started.md", "docs/lifecycle.md"]) {
      expect(localLinks(README)).toContain(page);
      const text = readFileSync(join(REPO_ROOT, page), "utf8");
      for (const link of localLinks(text)) {
        const [file, fragment] = link.split("#");
        const target = file ? join(REPO_ROOT, dirname(page), file) : join(REPO_ROOT, page);
        expect(existsSync(target), `${page} → ${link}`).toBe(true);
        if (fragment) expect(headingAnchors(readFileSync(target, "utf8")), `${page} → ${link}`).toContain(fragment);
      }
    }
  });
});
