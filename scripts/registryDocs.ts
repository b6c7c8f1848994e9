/**
 * `tsx scripts/registryDocs.ts`: fills the generated parts of the Pulumi Registry's pages, so they
 * cannot drift from what the tests run. The Registry reads a community provider's two pages from
 * its repository's `docs/_index.md` and `docs/installation-configuration.md` (pulumi/registry's
 * README, "Publishing a Community Package").
 *
 * - `<!-- generated: example <file> -->` … `<!-- /generated -->`: the example program `<file>`
 *   (examples/*, each run by test/e2e/install.test.ts from the release) as a code block, as a
 *   user writes it: without the file's opening comment (notes on the repository) and, for YAML,
 *   without the checkout's `plugins:` section (a user installs the plugin);
 * - `<!-- generated: config -->` … `<!-- /generated -->`: the provider's settings, from the schema
 *   (scripts/packageSchema.ts) and their environment variables (provider/core/settings.ts).
 *
 * test/release/registryDocs.test.ts fails when a page is not what this script writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { format, resolveConfig } from "prettier";
import { SETTING_SOURCES } from "../provider/core/settings";
import { packageSchema } from "./packageSchema";

const ROOT = path.resolve(__dirname, "..");
/** The Registry's pages, where it reads them. */
export const REGISTRY_PAGES = ["_index.md", "installation-configuration.md"] as const;

const FENCES: Record<string, string> = {
  ".ts": "typescript",
  ".py": "python",
  ".go": "go",
  ".java": "java",
  ".yaml": "yaml",
};
const GENERATED = /(<!-- generated: (.+?) -->\n)[\s\S]*?(<!-- \/generated -->)/g;

/** The checkout's `plugins:` section of a Pulumi.yaml (a path to the plugin a build made). */
const CHECKOUT_PLUGINS = /^plugins:\n(?:[ #].*\n)*/m;

/** The file's opening comment: `//` or `#` lines, a `/* … *\/` block or a Python docstring, and the blank lines after it. */
function withoutOpeningComment(text: string): string {
  const lines = text.split("\n");
  let at = 0;
  const until = (end: string, from: number): number => {
    const close = lines.findIndex((line, i) => i >= from && line.includes(end));
    if (close < 0) throw new Error(`an opening comment that does not end (${end})`);
    return close + 1;
  };
  for (;;) {
    const line = lines[at]?.trim();
    if (line === undefined) break;
    if (line === "" || line.startsWith("//") || line.startsWith("#")) at += 1;
    else if (line.startsWith("/*")) at = until("*/", at);
    else if (line.startsWith('"""')) at = line.length > 3 && line.endsWith('"""') ? at + 1 : until('"""', at + 1);
    else break;
  }
  return lines.slice(at).join("\n");
}

/**
 * An example program as the Registry's page shows it: `text` (the file `file`, or a user's copy of
 * it) without its opening comment and, for YAML, the checkout's `plugins:` section.
 */
export function registryProgram(file: string, text: string): string {
  const program = withoutOpeningComment(file.endsWith(".yaml") ? text.replace(CHECKOUT_PLUGINS, "") : text);
  return `${program.trimEnd()}\n`;
}

/** The code block of an example file, as the Registry renders it. */
function exampleBlock(file: string): string {
  const language = FENCES[path.extname(file)];
  if (!language) throw new Error(`registry pages: no code block language for ${file}`);
  return `\`\`\`${language}\n${registryProgram(file, readFileSync(path.join(ROOT, file), "utf8"))}\`\`\`\n`;
}

/** The settings table: stack config key, environment variable, what it is (the schema's description). */
function configTable(): string {
  const variables = packageSchema().config.variables;
  const rows = Object.entries(SETTING_SOURCES).map(([name, [key, variable]]) => {
    const spec = variables[name];
    if (!spec) throw new Error(`registry pages: the schema has no config variable ${name}`);
    const text = (spec.description ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
    return `| \`${key}\`${spec.secret ? " (secret)" : ""} | \`${variable}\` | ${text} |`;
  });
  return ["| stack config | environment variable | setting |", "| --- | --- | --- |", ...rows, ""].join("\n");
}

/** The page `file` with every generated part written anew, formatted as the repository's prettier does. */
export async function renderRegistryDoc(file: string): Promise<string> {
  const text = readFileSync(file, "utf8").replace(GENERATED, (_all, open: string, what: string, close: string) => {
    const [kind, file] = what.split(" ");
    if (kind === "example" && file) return `${open}${exampleBlock(file)}${close}`;
    if (kind === "config") return `${open}${configTable()}${close}`;
    throw new Error(`registry pages: unknown generated part "${what}"`);
  });
  return format(text, { ...(await resolveConfig(file)), filepath: file });
}

/** The Registry's pages, as paths. */
export function registryDocs(): string[] {
  return REGISTRY_PAGES.map((name) => path.join(ROOT, "docs", name));
}

async function main(): Promise<void> {
  for (const file of registryDocs()) {
    writeFileSync(file, await renderRegistryDoc(file));
    console.log(path.relative(ROOT, file));
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
