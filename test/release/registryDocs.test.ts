/**
 * docs/registry/: the Pulumi Registry's two pages, in its format, with the example programs the
 * tests run and the settings the schema declares written in by scripts/registryDocs.ts.
 */
import { readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { load } from "js-yaml";
import { expect, it } from "vitest";
import { registryDocs, renderRegistryDoc } from "../../scripts/registryDocs";
import { REPO_ROOT } from "../support/engine";

/** The pages, relative to the repository (as the test names show them). */
const pages = registryDocs().map((file) => relative(REPO_ROOT, file));
const read = (page: string) => readFileSync(join(REPO_ROOT, page), "utf8");

it("has the Registry's two pages", () => {
  expect(pages.map((file) => basename(file)).sort()).toEqual(["_index.md", "installation-configuration.md"]);
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
  for (const example of ["typescript-native/index.ts", "python/__main__.py", "go/main.go", "yaml/Pulumi.yaml"])
    expect(index).toContain(`<!-- generated: example examples/${example} -->`);
  expect(index).toContain("webhooks.WebhookSubscription(");
});
