/**
 * The Java writer: `WebhooksAdopted.java` beside the class that calls `Pulumi.run`, in its
 * package, a static method `declare(Context ctx)` declaring each subscription through the Java
 * SDK with its live values and `CustomResourceOptions.builder().importId(…)`; the program's
 * `Pulumi.run` calls it first.
 */
import { WriteError, type Adopted, type WriteInput, type Writer } from "../writer";
import { blockStart, includeInEntry, written, type InsertionPoint } from "./entryInclude";
import { byName, folderOf, headerComment, inFolder, literal, secretKeyOf, variable } from "./program";

const CLASS = "WebhooksAdopted";
const SDK = "io.github.webhooksubscriptions.webhooks";

/** One subscription's declaration, in the method's body. */
function declaration(a: Adopted): string {
  const s = a.subscription;
  const key = secretKeyOf(a);
  const calls = [
    s.webhookName !== null
      ? `.webhook(Webhook.${s.webhookName})`
      : // The enum holds the names this SDK knows; the plugin takes the integer too.
        `.webhook((Output<Webhook>) (Output<?>) Output.of(${s.webhook}))`,
    `.filterObjectType(${s.filterObjectType})`,
    ...(s.filterObjectGuid !== null ? [`.filterObjectGuid(${literal(s.filterObjectGuid)})`] : []),
    `.subscriberUrl(${literal(s.subscriberUrl)})`,
    ...(s.customHeader !== "" ? [`.customHeader(${literal(s.customHeader)})`] : []),
    ...(key !== undefined ? [`.customHeaderValue(ctx.config().requireSecret(${literal(key)}))`] : []),
    ".build(),",
  ];
  return [
    ...(s.webhookName === null
      ? [
          `        // Event ${s.webhook} is newer than the adopt that wrote this: the SDK's Webhook member for it reads better.`,
        ]
      : []),
    `        var ${variable(a.name.camel)} = new WebhookSubscription(${literal(a.name.kebab)}, WebhookSubscriptionArgs.builder()`,
    ...calls.map((call) => `            ${call}`),
    `            CustomResourceOptions.builder().importId(${literal(s.guid)}).build());`,
  ].join("\n");
}

/** The class that calls `Pulumi.run`: its file. A program without one, or with several, cannot take the new class. */
function entryClass(input: Pick<WriteInput, "existing" | "listFiles">): string {
  const running = input
    .listFiles()
    .filter((file) => file.endsWith(".java") && /\bPulumi\.run\(/.test(input.existing(file) ?? ""))
    .sort();
  // A test's Pulumi.run is not the program's.
  const main = running.filter((file) => !/(^|\/)src\/test\//.test(file));
  if (main.length === 1) return main[0]!;
  if (main.length === 0)
    throw new WriteError(
      `No Java class of this program calls Pulumi.run, so adopt cannot tell where ${CLASS}.java goes: it belongs ` +
        "beside that class, in its package. Point --cwd at the program's directory (the one with Pulumi.yaml and the class).",
    );
  throw new WriteError(
    `Several Java classes call Pulumi.run (${main.join(", ")}), so adopt cannot tell which program ${CLASS}.java belongs to. ` +
      "Keep one, or adopt into a directory holding one program.",
  );
}

/** The lambda's or the method's context parameter and where its body starts, undefined when neither is found. */
function findRun(text: string): { ctx: string; point?: InsertionPoint } | undefined {
  const lambda =
    /\bPulumi\.run\(\s*(?:\(\s*(?:(?:final\s+)?(?:com\.pulumi\.)?Context\s+)?(\w+)\s*\)|(\w+))\s*->\s*\{/.exec(text);
  if (lambda) return { ctx: lambda[1] ?? lambda[2]!, point: blockStart(text, lambda.index + lambda[0].length, "    ") };
  const method = /\bPulumi\.run\(\s*[\w.]+::(\w+)\s*\)/.exec(text)?.[1];
  if (method === undefined) return undefined;
  const body = new RegExp(
    `\\b${method}\\s*\\(\\s*(?:final\\s+)?(?:com\\.pulumi\\.)?Context\\s+(\\w+)\\s*\\)\\s*(?:throws\\s[^{]*)?\\{`,
  ).exec(text);
  return body ? { ctx: body[1]!, point: blockStart(text, body.index + body[0].length, "    ") } : undefined;
}

/** `WebhooksAdopted.java` beside the class calling `Pulumi.run`, and the call to it at the top of what that runs. */
export const javaWriter: Writer = (input) => {
  const entry = entryClass(input);
  const text = input.existing(entry)!;
  const output = inFolder(folderOf(entry), `${CLASS}.java`);
  const javaPackage = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
  const adopted = byName(input.adopted);
  const unknownEvent = adopted.some((a) => a.subscription.webhookName === null);
  const imports = [
    "com.pulumi.Context",
    ...(unknownEvent ? ["com.pulumi.core.Output"] : []),
    "com.pulumi.resources.CustomResourceOptions",
    `${SDK}.WebhookSubscription`,
    `${SDK}.WebhookSubscriptionArgs`,
    `${SDK}.enums.Webhook`,
  ];
  const content =
    [
      headerComment("//", "import"),
      ...(javaPackage ? [`package ${javaPackage};`] : []),
      imports.map((name) => `import ${name};`).join("\n"),
      [
        `/** The adopted webhook subscriptions: the program's Pulumi.run calls {@link #declare} first. */`,
        `public final class ${CLASS} {`,
        `    private ${CLASS}() {}`,
        "",
        "    /** Declares each adopted subscription, to be imported with its live values. */",
        ...(unknownEvent ? ['    @SuppressWarnings("unchecked")'] : []),
        "    public static void declare(Context ctx) {",
        ...adopted.map(declaration),
        "    }",
        "}",
      ].join("\n"),
    ].join("\n\n") + "\n";

  const run = findRun(text);
  const inclusion = includeInEntry({
    path: entry,
    text,
    includes: (current) => current.includes(`${CLASS}.declare(`),
    at: () => run?.point,
    lines: [`${CLASS}.declare(${run?.ctx ?? "ctx"});`],
    where: "as the first statement of what its Pulumi.run runs",
  });
  return written(output, content, inclusion);
};
