/**
 * docs/_index.md and docs/installation-configuration.md: the Pulumi Registry's two pages, where it
 * reads them, in its format, with the example programs the tests run and the settings the schema
 * declares written in by scripts/registryDocs.ts. test/e2e/install.test.ts runs each page's program
 * and command as a user of the release does.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { registryDocs, registryProgram, renderRegistryDoc } from "../../scripts/registryDocs";
import { REPO_ROOT } from "../support/engine";

/** The pages, relative to the repository (as the test names show them). */
const pages = registryDocs().map((file) => relative(REPO_ROOT, file));
const read = (page: string) => readFileSync(join(REPO_ROOT, page), "utf8");

it("has the Registry's two pages, in docs/ where it reads them", () => {
  expect(pages.sort()).toEqual(["docs/_index.md", "docs/installation-configuration.md"]);
});

it.each(pages)(
  "%s is what scripts/registryDocs.ts writes (else: run `npx tsx scripts/registryDocs.ts`)",
  async (file) => {
    expect(read(file)).toBe(await renderRegistryDoc(join(REPO_ROOT, file)));
  },
  60_000,
);

it.each(pages)("%s has the Registry's front matter: title, meta_desc, layout: package", (file) => {
  const front = /^---\n([\s\S]+?)\n---\n/.exec(read(file));
  expect(front, "front matter").not.toBeNull();
  expect(load(front![1]!)).toMatchObject({
    title: expect.any(String),
    meta_desc: expect.any(String),
    layout: "package",
  });
});

it("the overview shows the tested example in every language the provider supports", () => {
  const index = read(pages.find((file) => file.endsWith("_index.md"))!);
  for (const example of [
    "typescript-native/index.ts",
    "python/__main__.py",
    "go/main.go",
    "java/src/main/java/example/App.java",
    "yaml/Pulumi.yaml",
  ])
    expect(index).toContain(`<!-- generated: example examples/${example} -->`);
  expect(index).toContain("webhooks.WebhookSubscription(");
});

describe("an example as the page shows it: the program a user writes", () => {
  it.each([
    [
      "index.ts",
      '/** Notes on the repository. */\nimport * as x from "x";\n// kept\n',
      'import * as x from "x";\n// kept\n',
    ],
    ["main.go", "// Notes.\n// More.\npackage main\n", "package main\n"],
    [
      "__main__.py",
      '"""Notes."""\n\nimport pulumi\n"""not an opening comment"""\n',
      'import pulumi\n"""not an opening comment"""\n',
    ],
    ["__main__.py", '"""Notes\nover lines."""\nimport pulumi\n', "import pulumi\n"],
    ["App.java", "/*\n * Notes.\n */\npackage example;\n", "package example;\n"],
  ])("%s: without its opening comment, the rest as written", (file, text, shown) => {
    expect(registryProgram(file, text)).toBe(shown);
  });

  it("Pulumi.yaml: without the checkout's plugins: section, which a user who installed the plugin has not", () => {
    const yaml =
      "# Notes.\nname: x\nruntime: yaml\nplugins:\n  providers:\n    - name: webhooks\n      path: ../p\nresources:\n  a:\n    type: t\n";
    expect(registryProgram("Pulumi.yaml", yaml)).toBe("name: x\nruntime: yaml\nresources:\n  a:\n    type: t\n");
  });

  it("an opening comment that never ends is an error, not a page without its program", () => {
    expect(() => registryProgram("index.ts", "/** Notes\nimport x;\n")).toThrow(/does not end/);
  });
});
