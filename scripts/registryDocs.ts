/**
 * `tsx scripts/registryDocs.ts`: fills the generated parts of the Pulumi Registry's pages
 * (docs/registry/*.md), so they cannot drift from what the tests run:
 *
 * - `<!-- generated: example <file> -->` … `<!-- /generated -->`: the example program `<file>`
 *   (examples/*, each run by a test) as a code block;
 * - `<!-- generated: config -->` … `<!-- /generated -->`: the provider's settings, from the schema
 *   (scripts/packageSchema.ts) and their environment variables (provider/core/settings.ts).
 *
 * test/release/registryDocs.test.ts fails when a page is not what this script writes.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { format, resolveConfig } from "prettier";
import { SETTING_SOURCES } from "../provider/core/settings";
import { packageSchema } from "./packageSchema";

const ROOT = path.resolve(__dirname, "..");
export const REGISTRY_DOCS = path.join(ROOT, "docs", "registry");

const FENCES: Record<string, string> = {
  ".ts": "typescript",
  ".py": "python",
  ".go": "go",
  ".java": "java",
  ".yaml": "yaml",
};
const GENERATED = /(<!-- generated: (.+?) -->\n)[\s\S]*?(<!-- \/generated -->)/g;

/** The code block of an example file, as the Registry renders it. */
function exampleBlock(file: string): string {
  const language = FENCES[path.extname(file)];
  if (!language) throw new Error(`docs/registry: no code block language for ${file}`);
  return `\`\`\`${language}\n${readFileSync(path.join(ROOT, file), "utf8").trimEnd()}\n\`\`\`\n`;
}

/** The settings table: stack config key, environment variable, what it is (the schema's description). */
function configTable(): string {
  const variables = packageSchema().config.variables;
  const rows = Object.entries(SETTING_SOURCES).map(([name, [key, variable]]) => {
    const spec = variables[name];
    if (!spec) throw new Error(`docs/registry: the schema has no config variable ${name}`);
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
    throw new Error(`docs/registry: unknown generated part "${what}"`);
  });
  return format(text, { ...(await resolveConfig(file)), filepath: file });
}

/** The Registry's pages. */
export function registryDocs(): string[] {
  return readdirSync(REGISTRY_DOCS)
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(REGISTRY_DOCS, name));
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
