/**
 * `tsx scripts/terraformDocs.ts`: the Terraform and OpenTofu registries' pages, in the layout
 * tfplugindocs checks (`docs/index.md`, `docs/resources/subscription.md`,
 * `docs/data-sources/*.md`), written into docs/terraform-registry/ (the companion repository
 * `webhook-subscriptions/terraform-provider-webhooks` publishes that `docs/` folder). Every word
 * about an argument comes from the Terraform schema (provider/terraform/schema.ts), itself derived
 * from the resource's description the Pulumi pages' package schema is derived from (scripts/registryDocs.ts does theirs); the examples
 * are the files of examples/terraform, which test/e2e/examples.test.ts runs.
 *
 * test/release/terraformRegistryDocs.test.ts fails when a committed page is not what this writes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { format, resolveConfig } from "prettier";
import { SETTING_SOURCES, type SettingName } from "../provider/core/settings";
import { camelCase } from "../provider/description/hclNames";
import { RESOURCE_TYPE, SUBSCRIPTION_DATA_SOURCE, SUBSCRIPTIONS_DATA_SOURCE } from "../provider/terraform/names";
import { type Attribute, type Block, terraformSchema, type TerraformSchema } from "../provider/terraform/schema";
import { resourceDescription } from "./packageSchema";

const ROOT = path.resolve(__dirname, "..");
/** tfplugindocs' provider directory: it holds `docs/`. */
export const TERRAFORM_REGISTRY_DIR = path.join(ROOT, "docs", "terraform-registry");
/** The provider's source address in both registries. */
const SOURCE = "webhook-subscriptions/webhooks";
/**
 * The provider page's opening (the package schema's provider description is about a Pulumi
 * `Provider` resource and its options, which Terraform has not).
 */
const INTRO = "Webhook subscriptions of the Webhook Subscription Management API.";
/** The example configuration the pages quote (run by test/e2e/examples.test.ts). */
const EXAMPLE_DIR = "examples/terraform";

/** A file of examples/terraform as a code block. */
function example(file: string): string {
  const fence = file.endsWith(".sh") ? "shell" : "terraform";
  const text = readFileSync(path.join(ROOT, EXAMPLE_DIR, file), "utf8").trimEnd();
  return `\`\`\`${fence}\n${text}\n\`\`\``;
}

/** A description on one line of a list item. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Terraform's type words, as the registry pages write them. */
function typeName(attribute: Attribute): string {
  const type = attribute.type;
  if (typeof type === "string") return type === "bool" ? "Boolean" : type[0]!.toUpperCase() + type.slice(1);
  return type[0] === "list" ? "List of Object" : "Object";
}

/** The notes tfplugindocs writes after an attribute's type, and whether each applies. */
const NOTES: readonly [string, (attribute: Attribute) => boolean][] = [
  ["Sensitive", (a) => Boolean(a.sensitive)],
  ["Write-only", (a) => Boolean(a.writeOnly)],
];

/**
 * A description without the "Sensitive: " or "Write-only: " lead of a note the item's notes already
 * show (as tfplugindocs writes them); the schema's description, read where no notes show (an
 * editor, `providers schema -json`), keeps it.
 */
function withoutNoteLeads(description: string, notes: readonly string[]): string {
  return notes.reduce(
    (text, note) => text.replace(new RegExp(`\\b${note}: (\\w)`), (_, first: string) => first.toUpperCase()),
    description,
  );
}

/** One argument or attribute as a list item: name, type and what it is (and the variable it falls back to). */
function item(attribute: Attribute, variable?: string): string {
  const notes = NOTES.filter(([, applies]) => applies(attribute)).map(([note]) => note);
  const description = withoutNoteLeads(oneLine(attribute.description), notes);
  const fallback = variable ? ` Falls back to \`${variable}\`.` : "";
  return `- \`${attribute.name}\` (${[typeName(attribute), ...notes].join(", ")}) ${description}${fallback}`;
}

/** tfplugindocs' sections: required, optional, read-only. */
function sections(block: Block, variable: (a: Attribute) => string | undefined = () => undefined): string {
  const groups: [string, (a: Attribute) => boolean][] = [
    ["Required", (a) => Boolean(a.required)],
    ["Optional", (a) => Boolean(a.optional)],
    ["Read-Only", (a) => Boolean(a.computed) && !a.optional && !a.required],
  ];
  return groups
    .map(([title, test]) => {
      const attributes = block.attributes.filter(test);
      if (attributes.length === 0) return "";
      return `### ${title}\n\n${attributes.map((a) => item(a, variable(a))).join("\n")}\n`;
    })
    .filter(Boolean)
    .join("\n");
}

/** A page: front matter (the only keys tfplugindocs allows), title, body. */
function page(frontMatter: { subcategory?: string; page_title: string; description: string }, body: string): string {
  const description = oneLine(frontMatter.description);
  const matter = [
    "---",
    ...(frontMatter.subcategory !== undefined ? [`subcategory: "${frontMatter.subcategory}"`] : []),
    `page_title: "${frontMatter.page_title}"`,
    `description: |-`,
    `  ${description}`,
    "---",
    "",
  ].join("\n");
  return `${matter}\n${body.trim()}\n`;
}

/** The environment variable a provider argument falls back to. */
function settingVariable(attribute: Attribute): string | undefined {
  const name = camelCase(attribute.name);
  return name in SETTING_SOURCES ? SETTING_SOURCES[name as SettingName][1] : undefined;
}

/** A data source's page: its description, the example reading it, its schema. */
function dataSourcePage(name: string, block: Block): string {
  const description = block.description;
  return page(
    { subcategory: "", page_title: `${name} Data Source - webhooks`, description },
    [`# ${name} (Data Source)`, description, "## Example Usage", example("data.tf"), "## Schema", sections(block)].join(
      "\n\n",
    ),
  );
}

/** Every page, by its path under the provider directory. */
export function terraformRegistryPages(
  schema: TerraformSchema = terraformSchema(resourceDescription()),
): Record<string, string> {
  const resource = schema.resources[RESOURCE_TYPE]!;
  const one = schema.dataSources[SUBSCRIPTION_DATA_SOURCE]!;
  const all = schema.dataSources[SUBSCRIPTIONS_DATA_SOURCE]!;
  return {
    "docs/index.md": page(
      { page_title: "Provider: webhooks", description: INTRO },
      [
        "# webhooks Provider",
        `${INTRO} Source address \`${SOURCE}\`. The same core as the project's Pulumi provider: no duplicate after an ambiguous Subscribe, a 429 is never fatal, per-field errors at plan, replacement on a legacy-only instance, drift through refresh, adoption through import, secrets kept out of state.`,
        "One provider block is one instance of the service; every argument falls back to its `WEBHOOKS_*` environment variable.",
        "## Example Usage",
        example("main.tf"),
        "## Schema",
        sections(schema.provider, settingVariable),
      ].join("\n\n"),
    ),
    "docs/resources/subscription.md": page(
      { subcategory: "", page_title: `${RESOURCE_TYPE} Resource - webhooks`, description: resource.description },
      [
        `# ${RESOURCE_TYPE} (Resource)`,
        resource.description,
        "## Example Usage",
        example("subscriptions.tf"),
        "## Schema",
        sections(resource),
        "## Import",
        "Import is supported using the following syntax:",
        example("import.sh"),
      ].join("\n\n"),
    ),
    "docs/data-sources/subscription.md": dataSourcePage(SUBSCRIPTION_DATA_SOURCE, one),
    "docs/data-sources/subscriptions.md": dataSourcePage(SUBSCRIPTIONS_DATA_SOURCE, all),
  };
}

/** A block as `tofu providers schema -json` prints it. */
function blockJson(block: Block): unknown {
  return {
    version: block.version,
    block: {
      description: block.description,
      description_kind: "plain",
      attributes: Object.fromEntries(
        block.attributes.map(({ name, type, description, ...flags }) => [
          name,
          {
            type,
            description,
            description_kind: "plain",
            ...Object.fromEntries(
              Object.entries(flags)
                .filter(([, on]) => on)
                .map(([flag]) => [flag === "writeOnly" ? "write_only" : flag, true]),
            ),
          },
        ]),
      ),
    },
  };
}

/**
 * The schema as `tofu providers schema -json` prints it for `source`: what `tfplugindocs validate`
 * checks the pages against, without a CLI or a built provider.
 */
export function providersSchemaJson(
  schema: TerraformSchema = terraformSchema(resourceDescription()),
  source = `registry.opentofu.org/${SOURCE}`,
): unknown {
  const blocks = (entries: Readonly<Record<string, Block>>) =>
    Object.fromEntries(Object.entries(entries).map(([name, block]) => [name, blockJson(block)]));
  return {
    format_version: "1.0",
    provider_schemas: {
      [source]: {
        provider: blockJson(schema.provider),
        resource_schemas: blocks(schema.resources),
        data_source_schemas: blocks(schema.dataSources),
      },
    },
  };
}

/** The pages formatted as the repository's prettier does (what is committed). */
export async function renderTerraformRegistryPages(): Promise<Record<string, string>> {
  const pages = terraformRegistryPages();
  const rendered: Record<string, string> = {};
  for (const [file, text] of Object.entries(pages)) {
    const filepath = path.join(TERRAFORM_REGISTRY_DIR, file);
    rendered[file] = await format(text, { ...(await resolveConfig(filepath)), filepath });
  }
  return rendered;
}

async function main(): Promise<void> {
  for (const [file, text] of Object.entries(await renderTerraformRegistryPages())) {
    const target = path.join(TERRAFORM_REGISTRY_DIR, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(path.relative(ROOT, target));
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
