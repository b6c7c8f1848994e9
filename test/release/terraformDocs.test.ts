/**
 * The check the Terraform registry docs are held to (test/support/tfplugindocs.ts): `tfplugindocs
 * validate`, built from the Go module proxy, on a folder in the registry layout with the provider's
 * schema as `tofu providers schema -json` prints it. The fixture is a stand-in in that layout; the
 * real pages are generated from the one model and get the same check.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { tfplugindocs, TFPLUGINDOCS_VERSION, validateRegistryDocs } from "../support/tfplugindocs";

const FIXTURE = join(__dirname, "fixtures", "terraform-docs");
const scratch = mkdtempSync(join(tmpdir(), "terraform-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the fixture to break. */
function copy(name: string): string {
  const dir = join(scratch, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

it(`tfplugindocs ${TFPLUGINDOCS_VERSION} builds from the Go module proxy into the cache, once`, async () => {
  const binary = await tfplugindocs((line) => console.log(`[tfplugindocs] ${line}`));
  expect(binary).toMatch(
    new RegExp(`pulumi-webhook-subscriptions/tfplugindocs/${TFPLUGINDOCS_VERSION}/bin/tfplugindocs$`),
  );
  expect(await tfplugindocs()).toBe(binary);
}, 1_200_000);

it("passes pages in the registry layout that match the schema's resource and data sources", async () => {
  const output = await validateRegistryDocs({
    providerDir: FIXTURE,
    providersSchema: join(FIXTURE, "providers-schema.json"),
  });
  expect(output).toContain("running file mismatch check");
}, 300_000);

it("fails a page for a resource the schema lacks, and a page without its front matter, naming each", async () => {
  const dir = copy("broken");
  writeFileSync(join(dir, "docs", "resources", "hook.md"), "---\npage_title: hook\n---\n# hook\n");
  writeFileSync(join(dir, "docs", "data-sources", "subscription.md"), "# no front matter\n");
  const failure = validateRegistryDocs({ providerDir: dir, providersSchema: join(dir, "providers-schema.json") });
  await expect(failure).rejects.toThrow(/tfplugindocs validate found problems in .*broken\/docs/);
  await expect(failure).rejects.toThrow(/hook/);
  await expect(failure).rejects.toThrow(/data-sources\/subscription\.md/);
}, 300_000);

it("fails a page for a schema entry that has none", async () => {
  const dir = copy("missing");
  rmSync(join(dir, "docs", "data-sources", "subscriptions.md"));
  await expect(
    validateRegistryDocs({ providerDir: dir, providersSchema: join(dir, "providers-schema.json") }),
  ).rejects.toThrow(/webhooks_subscriptions/);
}, 300_000);

it("a schema file without the provider names what it has and what to give", async () => {
  const dir = copy("other-provider");
  const file = join(dir, "providers-schema.json");
  writeFileSync(
    file,
    JSON.stringify({ format_version: "1.0", provider_schemas: { "registry.opentofu.org/x/other": {} } }),
  );
  await expect(validateRegistryDocs({ providerDir: dir, providersSchema: file })).rejects.toThrow(
    /holds no schema for provider "webhooks" \(it has: registry\.opentofu\.org\/x\/other\); give the output of `tofu providers schema -json`/,
  );
});
