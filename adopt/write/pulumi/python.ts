/**
 * The Python writer: `webhooks_adopted.py` (a module name cannot hold `-`) beside `__main__.py`,
 * one `webhooks.WebhookSubscription(…, opts=pulumi.ResourceOptions(import_=…))` of the SDK
 * `pulumi_webhooks` per subscription, with its live values; `__main__.py` imports the module.
 */
import type { Adopted, Writer } from "../writer";
import { includeInEntry, written } from "./entryInclude";
import {
  byName,
  headerComment,
  inFolder,
  literal,
  programDirectory,
  programMain,
  secretKeyOf,
  variable,
} from "./program";

/** The module each Python program gets, beside its `__main__.py`. */
const MODULE = "webhooks_adopted";

/** The event argument: the SDK's `Webhook` member, or for an event newer than this package its integer. */
function event(a: Adopted): string[] {
  const { webhook, webhookName } = a.subscription;
  if (webhookName === null)
    return [
      `# Event ${webhook} is newer than the adopt that wrote this: the SDK's Webhook member for it reads better.`,
      `webhook=${webhook},`,
    ];
  // The SDK's members are the names in upper snake case: PacketCreated → PACKET_CREATED.
  return [`webhook=webhooks.Webhook.${webhookName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()},`];
}

/** One subscription's declaration. */
function declaration(a: Adopted): string {
  const s = a.subscription;
  const key = secretKeyOf(a);
  const args = [
    literal(a.name.kebab) + ",",
    ...event(a),
    `filter_object_type=${s.filterObjectType},`,
    ...(s.filterObjectGuid !== null ? [`filter_object_guid=${literal(s.filterObjectGuid)},`] : []),
    `subscriber_url=${literal(s.subscriberUrl)},`,
    ...(s.customHeader !== "" ? [`custom_header=${literal(s.customHeader)},`] : []),
    ...(key !== undefined ? [`custom_header_value=pulumi.Config().require_secret(${literal(key)}),`] : []),
    `opts=pulumi.ResourceOptions(import_=${literal(s.guid)}),`,
  ];
  return [`${variable(a.name.snake)} = webhooks.WebhookSubscription(`, ...args.map((arg) => `    ${arg}`), ")"].join(
    "\n",
  );
}

/** The end of the last top-level `import`/`from … import` statement (a parenthesised or continued one included). */
function afterLastImport(text: string): number | undefined {
  const lines = text.split("\n");
  let end: number | undefined;
  let offset = 0; // where line i starts
  for (let i = 0; i < lines.length; i++) {
    if (/^(import|from)\s/.test(lines[i]!)) {
      // A statement goes on while its parenthesis is open or its line ends with a backslash.
      let last = i;
      if (lines[i]!.includes("(") && !lines[i]!.includes(")"))
        while (last + 1 < lines.length && !lines[last]!.includes(")")) last++;
      else while (last + 1 < lines.length && /\\\s*$/.test(lines[last]!)) last++;
      for (; i < last; i++) offset += lines[i]!.length + 1;
      end = Math.min(offset + lines[i]!.length + 1, text.length);
    }
    offset += lines[i]!.length + 1;
  }
  return end;
}

/**
 * A `main: prog.py` runs as a file (runpy.run_path), whose folder is not on `sys.path`, so an
 * `import` of the module beside it fails: the entry runs the module's file instead.
 */
const FILE_MAIN_INCLUDE = [
  "import os.path  # noqa: E402",
  "import runpy  # noqa: E402",
  "",
  `runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "${MODULE}.py"))`,
];

/** `webhooks_adopted.py` beside the program's `__main__.py` (or its `main` file), and what includes it there. */
export const pythonWriter: Writer = (input) => {
  const main = programMain(input);
  const entry = main?.endsWith(".py") ? main : inFolder(programDirectory(input, /\.py$/), "__main__.py");
  const output = inFolder(programDirectory(input, /\.py$/), `${MODULE}.py`);
  const adopted = byName(input.adopted);
  const content =
    [
      headerComment("#", "import"),
      ["import pulumi", "import pulumi_webhooks as webhooks"].join("\n"),
      ...adopted.map(declaration),
    ].join("\n\n") + "\n";
  const inclusion = includeInEntry({
    path: entry,
    text: input.existing(entry),
    includes: (text) => new RegExp(`^(import ${MODULE}\\b|from ${MODULE} import\\b)|"${MODULE}\\.py"`, "m").test(text),
    at: (text) => {
      const offset = afterLastImport(text);
      return offset === undefined ? undefined : { offset, indent: "" };
    },
    lines: main?.endsWith(".py") ? FILE_MAIN_INCLUDE : [`import ${MODULE}  # noqa: F401`],
    where: "after its last import",
  });
  return written(output, content, inclusion);
};
