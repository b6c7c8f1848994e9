/**
 * The schema's resource description carries the Registry's `{{% examples %}}` block: each language's
 * tested example program, word for word, so the Registry's API page and the SDKs' doc comments
 * show an example, and only code that runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { RESOURCE_TOKEN } from "../../provider/native/tokens";
import { packageSchema } from "../../scripts/packageSchema";
import { EXAMPLE_PROGRAMS } from "../../scripts/schemaExamples";
import { REPO_ROOT } from "../support/engine";

it("the resource's description holds one example block per language, each an example program as it is", () => {
  const description = packageSchema().resources[RESOURCE_TOKEN]!.description;
  expect(description).toMatch(
    /\{\{% examples %\}\}\n## Example Usage\n\{\{% example %\}\}\n[\s\S]*\{\{% \/examples %\}\}$/,
  );
  expect(Object.keys(EXAMPLE_PROGRAMS).sort()).toEqual(["go", "java", "python", "typescript", "yaml"]);
  for (const [fence, file] of Object.entries(EXAMPLE_PROGRAMS))
    expect(description).toContain(`\`\`\`${fence}\n${readFileSync(join(REPO_ROOT, file), "utf8").trimEnd()}\n\`\`\``);
});

it("the generated SDKs' doc comments show their own language's example", () => {
  const nodejs = readFileSync(join(REPO_ROOT, "sdk", "nodejs", "webhookSubscription.ts"), "utf8");
  expect(nodejs).toContain(" * ## Example Usage\n");
  expect(nodejs).toContain(' * import * as webhooks from "pulumi-webhook-subscriptions/native";');
  expect(nodejs).not.toContain("```python");
});
