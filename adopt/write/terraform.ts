/**
 * The Terraform/OpenTofu target's writer: `adopted.tf`, beside the team's configuration. It
 * declares each subscription with its live values and takes it over with an `import` block, so the
 * team's own `plan` shows only imports and its `apply` changes nothing on the instance. Two layouts:
 *
 * - `each`: a `resource` block and an `import` block per subscription, as `-generate-config-out`
 *   would write them, with readable names;
 * - `for-each`: one map in `locals`, one `resource` with `for_each` over it and one `import` block
 *   with `for_each` (the form `-generate-config-out` cannot write), for large estates.
 *
 * A custom header value is in no file and never reaches the state: the subscription's write-only
 * `custom_header_value_wo` reads an ephemeral variable (null unless the team sets it), at the version
 * an import records (IMPORTED_VERSION), which plans no change without it. The team supplies it
 * (`TF_VAR_…`) only to change the subscription, and changes the version so that it is sent.
 * Arguments are the Terraform schema's: the model's field names through the one translation to HCL.
 */
import { snakeCase } from "../../provider/model";
import { WriteError, type Adopted, type WriteInput, type Writer, type Written } from "./writer";

/**
 * The Terraform door's names (provider/terraform/names.ts, schema.ts), stated again: adopt imports
 * nothing of a front door. test/adopt/terraformWriter.test.ts holds them to the door's.
 */
export const RESOURCE_TYPE = "webhooks_subscription";
export const WRITE_ONLY_VALUE = `${snakeCase("customHeaderValue")}_wo`;
export const WRITE_ONLY_VERSION = `${WRITE_ONLY_VALUE}_version`;
/**
 * The write-only version an import records for a subscription with a header value, the value left
 * out of state (the door's IMPORTED_VERSION): written the same, the plan shows no change.
 */
export const IMPORTED_VERSION = 0;

/** The file written. */
export const TERRAFORM_OUTPUT = "adopted.tf";
/** The for-each layout's names: the resource, its map in `locals`, and the header values' variable. */
export const FOR_EACH_RESOURCE = "adopted";
export const FOR_EACH_LOCAL = "adopted_webhooks";
export const FOR_EACH_VARIABLE = "adopted_header_values";

/** The live arguments, by their HCL names. */
const WEBHOOK = snakeCase("webhook");
const FILTER_OBJECT_TYPE = snakeCase("filterObjectType");
const FILTER_OBJECT_GUID = snakeCase("filterObjectGuid");
const SUBSCRIBER_URL = snakeCase("subscriberUrl");
const CUSTOM_HEADER = snakeCase("customHeader");

/** An HCL expression, written as it is. */
type Expression = string;

/**
 * `text` as an HCL quoted string, escaped as Terraform's hclwrite escapes it: quotes, backslashes
 * and control characters, and `${` and `%{` doubled (`$${`, `%%{`) so that no template is read in it.
 */
export function hclString(text: string): Expression {
  let out = "";
  const chars = [...text];
  chars.forEach((char, i) => {
    const escape: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\" };
    if (char in escape) out += escape[char];
    else if ((char === "$" || char === "%") && chars[i + 1] === "{") out += char + char;
    else if (/[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(char)) {
      const code = char.codePointAt(0)!;
      out += code < 0x10000 ? `\\u${code.toString(16).padStart(4, "0")}` : `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += char;
  });
  return `"${out}"`;
}

/** Attribute lines at `indent`, their `=` aligned as `terraform fmt` aligns them. */
function attributes(pairs: readonly (readonly [string, Expression])[], indent: string): string[] {
  const width = Math.max(...pairs.map(([name]) => name.length));
  return pairs.map(([name, value]) => `${indent}${name.padEnd(width)} = ${value}`);
}

/** A block `header { … }` of attribute groups (a blank line between groups). */
function block(header: string, ...groups: (readonly (readonly [string, Expression])[])[]): string {
  const body = groups.filter((g) => g.length > 0).map((g) => attributes(g, "  ").join("\n"));
  return `${header} {\n${body.join("\n\n")}\n}`;
}

/** The event's name, as the schema's `webhook` takes it; an event this release does not know cannot be declared. */
function eventOf({ subscription: s, name }: Adopted): string {
  if (s.webhookName) return s.webhookName;
  throw new WriteError(
    `Subscription ${s.guid} (${name.kebab}) listens to event ${s.webhook}, which this release does not know, ` +
      "so its webhooks_subscription cannot be declared: upgrade webhook-subscriptions, or leave it out with --match.",
  );
}

/** The live arguments of a subscription, left out where the service holds none. */
function liveArguments(adopted: Adopted): [string, Expression][] {
  const s = adopted.subscription;
  return [
    [WEBHOOK, hclString(eventOf(adopted))],
    [FILTER_OBJECT_TYPE, String(s.filterObjectType)],
    ...(s.filterObjectGuid !== null ? [[FILTER_OBJECT_GUID, hclString(s.filterObjectGuid)] as [string, string]] : []),
    [SUBSCRIBER_URL, hclString(s.subscriberUrl)],
    ...(s.customHeader !== "" ? [[CUSTOM_HEADER, hclString(s.customHeader)] as [string, string]] : []),
  ];
}

/** The variable holding one subscription's header value (layout `each`). */
const variableOf = (adopted: Adopted) => `${adopted.name.snake}_header_value`;

/** The comment the file starts with: what it is, and where the header values are. */
function fileComment(adopted: readonly Adopted[], layout: "each" | "for-each"): string {
  const lines = [
    `Written by \`webhook-subscriptions adopt\`: ${adopted.length} webhook subscription(s) no configuration managed,`,
    "each declared with its live values. The `import` blocks take them under this configuration at the",
    "next apply, which changes nothing on the instance; afterwards they may stay or be deleted.",
  ];
  if (adopted.some((a) => a.subscription.hasCustomHeaderValue))
    lines.push(
      "",
      "No custom header value is in this file or in the state, and none is needed to adopt: each goes to",
      `the write-only ${WRITE_ONLY_VALUE} from an ephemeral variable, null unless set. To change a`,
      ...(layout === "each"
        ? [
            "subscription with a header value, set its value in the environment, TF_VAR_<name>_header_value,",
            `and change its ${WRITE_ONLY_VERSION} (e.g. from ${IMPORTED_VERSION} to ${IMPORTED_VERSION + 1}) so that it is sent again.`,
          ]
        : [
            `subscription with a header value, set TF_VAR_${FOR_EACH_VARIABLE} to a map from its key in`,
            `local.${FOR_EACH_LOCAL} to its value, e.g.`,
            `TF_VAR_${FOR_EACH_VARIABLE}='{ ${adopted.find((a) => a.subscription.hasCustomHeaderValue)!.name.snake} = "…" }',`,
            `and change its ${WRITE_ONLY_VERSION} there (e.g. from ${IMPORTED_VERSION} to ${IMPORTED_VERSION + 1}) so that it is sent again.`,
          ]),
    );
  return lines.map((line) => (line ? `# ${line}` : "#")).join("\n");
}

/** Layout `each`: per subscription a resource, its import block, and its header value's variable. */
function eachLayout(adopted: readonly Adopted[]): string[] {
  return adopted.flatMap((a) => {
    const { guid, hasCustomHeaderValue, customHeader } = a.subscription;
    const address = `${RESOURCE_TYPE}.${a.name.snake}`;
    const writeOnly: [string, Expression][] = hasCustomHeaderValue
      ? [
          [WRITE_ONLY_VALUE, `var.${variableOf(a)}`],
          [WRITE_ONLY_VERSION, String(IMPORTED_VERSION)],
        ]
      : [];
    return [
      block(`resource "${RESOURCE_TYPE}" "${a.name.snake}"`, [...liveArguments(a), ...writeOnly]),
      block("import", [
        ["to", address],
        ["id", hclString(guid)],
      ]),
      ...(hasCustomHeaderValue
        ? [
            block(`variable "${variableOf(a)}"`, [
              ["type", "string"],
              ["ephemeral", "true"],
              ["default", "null"],
              [
                "description",
                hclString(
                  `The ${customHeader} header value of ${address} (write-only, stored nowhere): set TF_VAR_${variableOf(a)} ` +
                    `only to change the subscription, and change its ${WRITE_ONLY_VERSION} too.`,
                ),
              ],
            ]),
          ]
        : []),
    ];
  });
}

/** Layout `for-each`: one map of the live values, one resource and one import block over it, one variable. */
function forEachLayout(adopted: readonly Adopted[]): string[] {
  const entries = adopted.map((a) => {
    const s = a.subscription;
    const fields: [string, Expression][] = [
      ["guid", hclString(s.guid)],
      [WEBHOOK, hclString(eventOf(a))],
      [FILTER_OBJECT_TYPE, String(s.filterObjectType)],
      [FILTER_OBJECT_GUID, s.filterObjectGuid !== null ? hclString(s.filterObjectGuid) : "null"],
      [SUBSCRIBER_URL, hclString(s.subscriberUrl)],
      [CUSTOM_HEADER, s.customHeader !== "" ? hclString(s.customHeader) : "null"],
      [WRITE_ONLY_VERSION, s.hasCustomHeaderValue ? String(IMPORTED_VERSION) : "null"],
    ];
    return [`    ${hclString(a.name.snake)} = {`, ...attributes(fields, "      "), "    }"].join("\n");
  });
  const map = entries.length > 0 ? `{\n${entries.join("\n")}\n  }` : "{}";
  const locals = `locals {\n  ${FOR_EACH_LOCAL} = ${map}\n}`;
  const each = (name: string): [string, Expression] => [name, `each.value.${name}`];
  const resource = block(
    `resource "${RESOURCE_TYPE}" "${FOR_EACH_RESOURCE}"`,
    [["for_each", `local.${FOR_EACH_LOCAL}`]],
    [
      each(WEBHOOK),
      each(FILTER_OBJECT_TYPE),
      each(FILTER_OBJECT_GUID),
      each(SUBSCRIBER_URL),
      each(CUSTOM_HEADER),
      [WRITE_ONLY_VALUE, `lookup(var.${FOR_EACH_VARIABLE}, each.key, null)`],
      each(WRITE_ONLY_VERSION),
    ],
  );
  const importBlock = block("import", [
    ["for_each", `local.${FOR_EACH_LOCAL}`],
    ["to", `${RESOURCE_TYPE}.${FOR_EACH_RESOURCE}[each.key]`],
    ["id", "each.value.guid"],
  ]);
  const variable = block(`variable "${FOR_EACH_VARIABLE}"`, [
    ["type", "map(string)"],
    ["ephemeral", "true"],
    ["default", "{}"],
    [
      "description",
      hclString(
        `The custom header values of local.${FOR_EACH_LOCAL}, by key (write-only, stored nowhere): set TF_VAR_${FOR_EACH_VARIABLE} ` +
          `only to change a subscription, and change its ${WRITE_ONLY_VERSION} too.`,
      ),
    ],
  ]);
  return [locals, resource, importBlock, variable];
}

/** What `adopted.tf` would declare that another file of the configuration already does. */
function clashes(
  input: WriteInput,
  resources: readonly string[],
  variables: readonly string[],
  locals: readonly string[],
) {
  const found: string[] = [];
  for (const file of input.listFiles().filter((f) => /^[^/]+\.tf$/.test(f) && f !== TERRAFORM_OUTPUT)) {
    const text = input.existing(file) ?? "";
    const declares = (pattern: string) => new RegExp(pattern, "m").test(text);
    for (const name of resources)
      if (declares(`^\\s*resource\\s+"${RESOURCE_TYPE}"\\s+"${name}"`))
        found.push(`${RESOURCE_TYPE}.${name} (${file})`);
    for (const name of variables) if (declares(`^\\s*variable\\s+"${name}"`)) found.push(`var.${name} (${file})`);
    for (const name of locals) if (declares(`^\\s*${name}\\s*=`)) found.push(`local.${name} (${file})`);
  }
  return found;
}

/** The Terraform/OpenTofu target's writer, in `layout`. */
export function terraformWriter(layout: "each" | "for-each"): Writer {
  return (input: WriteInput): Written => {
    const adopted = [...input.adopted].sort((a, b) =>
      a.name.snake < b.name.snake ? -1 : a.name.snake > b.name.snake ? 1 : 0,
    );
    const taken =
      layout === "each"
        ? clashes(
            input,
            adopted.map((a) => a.name.snake),
            adopted.filter((a) => a.subscription.hasCustomHeaderValue).map(variableOf),
            [],
          )
        : clashes(input, [FOR_EACH_RESOURCE], [FOR_EACH_VARIABLE], [FOR_EACH_LOCAL]);
    if (taken.length > 0)
      throw new WriteError(
        `${TERRAFORM_OUTPUT} would declare what the configuration already declares: ${taken.join(", ")}. ` +
          (layout === "each"
            ? "Name those subscriptions otherwise with --names, or rename the existing declarations."
            : "Rename the existing declarations, or adopt with --layout each."),
      );
    const blocks = layout === "each" ? eachLayout(adopted) : forEachLayout(adopted);
    const content = `${[fileComment(adopted, layout), ...blocks].join("\n\n")}\n`;
    return { output: TERRAFORM_OUTPUT, files: [{ path: TERRAFORM_OUTPUT, content }] };
  };
}
