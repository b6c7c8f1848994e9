/**
 * The package schema as the build writes it (scripts/packageSchema.ts) passes Pulumi's metaschema
 * — pkg/codegen/schema/pulumi.json of the pulumi module at the CLI version this project pins,
 * from the Go module cache — and carries what the Pulumi Registry shows.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, expect, it } from "vitest";
import { PULUMI_VERSION } from "../../engine/provision";
import { packageJson, packageSchema } from "../../scripts/packageSchema";

const execFileAsync = promisify(execFile);
const MODULE = `github.com/pulumi/pulumi/pkg/v3@v${PULUMI_VERSION}`;

/** Pulumi's metaschema, from the module cache (`go mod download` fills it if the engine build has not). */
async function metaschema(): Promise<Record<string, unknown>> {
  const { stdout } = await execFileAsync("go", ["mod", "download", "-json", MODULE], {
    env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" },
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: unknown) => {
    throw new Error(`go mod download ${MODULE} (for pkg/codegen/schema/pulumi.json) failed: ${String(err)}`);
  });
  const { Dir } = JSON.parse(stdout) as { Dir: string };
  return JSON.parse(readFileSync(join(Dir, "codegen", "schema", "pulumi.json"), "utf8"));
}

let validate: ReturnType<Ajv2020["compile"]>;
/** The schema is built once: reading the declarations with the TypeScript compiler takes seconds. */
let schema: ReturnType<typeof packageSchema>;

beforeAll(async () => {
  // The metaschema's formats (regex, uri-reference) checked, not ignored.
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  validate = ajv.compile(await metaschema());
  schema = packageSchema();
}, 600_000);

it(`the schema passes Pulumi's metaschema (pulumi.json of pkg v${PULUMI_VERSION})`, () => {
  const valid = validate(schema);
  expect(validate.errors ?? [], "metaschema errors").toEqual([]);
  expect(valid).toBe(true);
});

it("the metaschema check fails on a schema the Registry would refuse", () => {
  expect(validate({ ...schema, keywords: "pulumi" })).toBe(false);
  expect(validate({ ...schema, name: "Not A Name" })).toBe(false);
  expect(validate({ ...schema, meta: { moduleFormat: "(unclosed" } })).toBe(false);
});

it("carries the Registry's metadata, derived from package.json", () => {
  const pkg = packageJson();
  const home = "https://github.com/webhook-subscriptions/pulumi-webhook-subscriptions";
  expect(pkg.repository).toEqual({ type: "git", url: home });
  expect(schema).toMatchObject({
    name: "webhooks",
    displayName: "Webhook Subscriptions",
    version: pkg.version,
    publisher: "webhook-subscriptions",
    repository: home,
    homepage: home,
    license: pkg.license,
    keywords: ["pulumi", "webhooks", "category/utility", "kind/native"],
  });
  expect(schema.description).toMatch(/\S/);
  expect(schema.language.python).toMatchObject({
    packageName: "pulumi_webhooks",
    readme: expect.stringContaining(home),
  });
});
