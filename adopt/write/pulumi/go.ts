/**
 * The Go writer: `webhooks_adopted.go` in the program's package `main`, one function
 * `adoptedWebhooks(ctx *pulumi.Context) error` declaring each subscription through the Go SDK
 * with its live values and `pulumi.Import(pulumi.ID(…))`; the function `pulumi.Run` runs calls it
 * first. Written as gofmt writes Go, so that a team's `gofmt -l` check passes.
 */
import type { Adopted, WriteInput, Writer } from "../writer";
import { blockStart, includeInEntry, written, type InsertionPoint } from "./entryInclude";
import { byName, folderOf, headerComment, inFolder, literal, programDirectory, secretKeyOf } from "./program";

/** The Go SDK's package, as `go get` names it (README); a program's go.mod may require it under another path. */
const SDK_PACKAGE = "github.com/webhook-subscriptions/pulumi-webhook-subscriptions/sdk/go/webhooks";
const FILE = "webhooks_adopted.go";
const FUNCTION = "adoptedWebhooks";
const SECRET_FUNCTION = "adoptedSecret";

/**
 * The file's reader of a header value: what `config.RequireSecret` does (the value of the
 * project's key, made secret; a panic naming the command that sets it when it is missing), written
 * out because the package `config` imports modules (spf13/cast) whose sums the go.sum of a program
 * that never used it lacks: `go build` would stop at "missing go.sum entry" until `go mod tidy`.
 */
const SECRET_READER = [
  `// ${SECRET_FUNCTION} is the stack's secret config value of key, kept secret, as config.RequireSecret gives it.`,
  `func ${SECRET_FUNCTION}(ctx *pulumi.Context, key string) pulumi.StringOutput {`,
  '\tvalue, ok := ctx.GetConfig(ctx.Project() + ":" + key)',
  "\tif !ok {",
  '\t\tpanic("missing required configuration variable \'" + ctx.Project() + ":" + key + "\': set it with `pulumi config set --secret " + key + " <value>`")',
  "\t}",
  "\treturn pulumi.ToSecret(pulumi.String(value)).(pulumi.StringOutput)",
  "}",
].join("\n");

/** The SDK's package path: below the module the program's go.mod requires for it, else the published one. */
function sdkPackage(input: Pick<WriteInput, "existing">, dir: string): string {
  const goMod = input.existing(inFolder(dir, "go.mod")) ?? input.existing("go.mod") ?? "";
  const required = /^\s*(?:require\s+)?(\S*webhook\S*\/sdk\/go)\s+v\S+/m.exec(goMod)?.[1];
  return required === undefined ? SDK_PACKAGE : `${required}/webhooks`;
}

/** `Key: value,` lines, the values aligned as gofmt aligns a composite literal's. */
function fields(pairs: readonly (readonly [string, string])[], indent: string): string[] {
  const width = Math.max(...pairs.map(([key]) => key.length)) + 2;
  return pairs.map(([key, value]) => `${indent}${`${key}:`.padEnd(width)}${value},`);
}

/** One subscription's declaration, in the function's body. */
function declaration(a: Adopted): string {
  const s = a.subscription;
  const key = secretKeyOf(a);
  const pairs: [string, string][] = [
    [
      "Webhook",
      s.webhookName !== null ? `webhooks.Webhook${s.webhookName}` : `webhooks.Webhook(${literal(String(s.webhook))})`,
    ],
    ["FilterObjectType", `pulumi.Int(${s.filterObjectType})`],
    ...(s.filterObjectGuid !== null
      ? [["FilterObjectGuid", `pulumi.String(${literal(s.filterObjectGuid)})`] as [string, string]]
      : []),
    ["SubscriberUrl", `pulumi.String(${literal(s.subscriberUrl)})`],
    ...(s.customHeader !== ""
      ? [["CustomHeader", `pulumi.String(${literal(s.customHeader)})`] as [string, string]]
      : []),
    ...(key !== undefined
      ? [["CustomHeaderValue", `${SECRET_FUNCTION}(ctx, ${literal(key)})`] as [string, string]]
      : []),
  ];
  return [
    ...(s.webhookName === null
      ? [
          `\t// Event ${s.webhook} is newer than the adopt that wrote this, and the SDK's Webhook type holds names only:`,
          `\t// write its name (the SDK's Webhook constant for it) before running the program.`,
        ]
      : []),
    `\tif _, err := webhooks.NewWebhookSubscription(ctx, ${literal(a.name.kebab)}, &webhooks.WebhookSubscriptionArgs{`,
    ...fields(pairs, "\t\t"),
    `\t}, pulumi.Import(pulumi.ID(${literal(s.guid)}))); err != nil {`,
    `\t\treturn err`,
    `\t}`,
  ].join("\n");
}

/** Where the call goes: the top of the function `pulumi.Run` runs (a literal, or a named function), and its context's name. */
function findRun(
  input: Pick<WriteInput, "existing">,
  files: readonly string[],
): { path: string; point?: InsertionPoint; ctx: string } | undefined {
  const texts = files.map((path) => ({ path, text: input.existing(path) ?? "" }));
  for (const { path, text } of texts) {
    const literalRun = /\bpulumi\.Run\(\s*func\s*\(\s*(\w+)\s+\*pulumi\.Context\s*\)\s*error\s*\{/.exec(text);
    if (literalRun)
      return { path, point: blockStart(text, literalRun.index + literalRun[0].length, "\t"), ctx: literalRun[1]! };
    const named = /\bpulumi\.Run\(\s*(\w+)\s*\)/.exec(text)?.[1];
    if (named === undefined) continue;
    const definition = new RegExp(
      `^func\\s+${named}\\s*\\(\\s*(\\w+)\\s+\\*pulumi\\.Context\\s*\\)\\s*error\\s*\\{`,
      "m",
    );
    for (const other of texts) {
      const found = definition.exec(other.text);
      if (found)
        return { path: other.path, point: blockStart(other.text, found.index + found[0].length, "\t"), ctx: found[1]! };
    }
    return { path, ctx: "ctx" };
  }
  return undefined;
}

/** `webhooks_adopted.go` in the program's package, and the call to it at the top of the function `pulumi.Run` runs. */
export const goWriter: Writer = (input) => {
  const dir = programDirectory(input, /\.go$/);
  const output = inFolder(dir, FILE);
  const adopted = byName(input.adopted);
  // gofmt's order: the SDK's path sorts after Pulumi's.
  const imports = [
    '"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(adopted.length > 0 ? [`"${sdkPackage(input, dir)}"`] : []),
  ];
  const content =
    [
      headerComment("//", "import"),
      "package main",
      ["import (", ...imports.map((path) => `\t${path}`), ")"].join("\n"),
      [
        `// ${FUNCTION} declares the adopted subscriptions; the function pulumi.Run runs calls it.`,
        `func ${FUNCTION}(ctx *pulumi.Context) error {`,
        ...adopted.map(declaration),
        "\treturn nil",
        "}",
      ].join("\n"),
      ...(adopted.some((a) => secretKeyOf(a) !== undefined) ? [SECRET_READER] : []),
    ].join("\n\n") + "\n";

  const goFiles = input
    .listFiles()
    .filter((file) => folderOf(file) === dir && file.endsWith(".go") && !file.endsWith("_test.go") && file !== output)
    .sort();
  const run = findRun(input, goFiles);
  const ctx = run?.ctx ?? "ctx";
  const inclusion = includeInEntry({
    path: run?.path ?? inFolder(dir, "main.go"),
    text: run === undefined ? undefined : input.existing(run.path),
    includes: () => goFiles.some((file) => new RegExp(`\\b${FUNCTION}\\(`).test(input.existing(file) ?? "")),
    at: () => run?.point,
    lines: [`if err := ${FUNCTION}(${ctx}); err != nil {`, "\treturn err", "}"],
    where: "as the first statement of the function pulumi.Run runs",
  });
  return written(output, content, inclusion);
};
