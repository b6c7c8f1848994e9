/**
 * The resource's examples in the schema: the Pulumi Registry builds a resource's API page, and the
 * SDK generators its doc comments, from the schema's description, taking from an `{{% examples %}}`
 * block the code of each language. Ours are the example programs (examples/*), each run by a test,
 * so the page shows only code that runs.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..");

/** Each language's example program, by the fence the Registry reads. */
export const EXAMPLE_PROGRAMS: Readonly<Record<string, string>> = {
  typescript: "examples/typescript-native/index.ts",
  python: "examples/python/__main__.py",
  go: "examples/go/main.go",
  java: "examples/java/src/main/java/example/App.java",
  yaml: "examples/yaml/Pulumi.yaml",
};

/** The `{{% examples %}}` block to append to the resource's description. */
export function examplesSection(): string {
  const blocks = Object.entries(EXAMPLE_PROGRAMS).map(
    ([fence, file]) => `\`\`\`${fence}\n${readFileSync(path.join(ROOT, file), "utf8").trimEnd()}\n\`\`\``,
  );
  return [
    "{{% examples %}}",
    "## Example Usage",
    "{{% example %}}",
    "### Subscriptions on one instance",
    "",
    ...blocks,
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}
