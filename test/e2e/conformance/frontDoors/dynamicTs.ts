/**
 * Front door 1: the dynamic provider, from a TypeScript program that imports the package, run
 * by the Node.js language host. The project sits inside this checkout (support/engine.ts
 * `workDir`), where `pulumi-webhook-subscriptions` and `@pulumi/pulumi` resolve to its install.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { workDir } from "../../../support/engine";
import { writeProgram, type Declared, type FrontDoor } from "../frontDoor";

/** One `new WebhookSubscription(…)`: the values as literals, the header value through `pulumi.secret`. */
function resource(name: string, declared: Declared): string {
  const { customHeaderValue, ...plain } = declared;
  const args = Object.entries(plain).map(([key, value]) => `  ${key}: ${JSON.stringify(value)},`);
  if (customHeaderValue !== undefined)
    args.push(`  customHeaderValue: pulumi.secret(${JSON.stringify(customHeaderValue)}),`);
  return (
    `const ${name} = new WebhookSubscription(${JSON.stringify(name)}, {\n${args.join("\n")}\n});\n` +
    `export const ${name}Signature = ${name}.signature;\n`
  );
}

export const dynamicTs: FrontDoor = {
  name: "dynamic provider (TypeScript)",
  languageHosts: ["pulumi-language-nodejs"],
  type: "pulumi-nodejs:dynamic/webhooks:WebhookSubscription",

  async prepare(): Promise<string> {
    const project = workDir("conformance-ts");
    writeFileSync(join(project, "Pulumi.yaml"), "name: conformance-ts\nruntime: nodejs\n");
    // Without a package.json of its own, the language host would run the checkout's (its `main`).
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "conformance-ts", main: "index.ts" }));
    // Transpiled without a type check (the Node.js host reads `noCheck`): the program is generated, its run is what counts.
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noCheck: true } }));
    return project;
  },

  declare(project, subscriptions): void {
    writeProgram(
      join(project, "index.ts"),
      'import * as pulumi from "@pulumi/pulumi";\nimport { WebhookSubscription } from "pulumi-webhook-subscriptions";\n',
      subscriptions,
      resource,
    );
  },
};
