/**
 * `npm run build:plugin`: the native provider plugin, in dist/plugin/:
 *
 * - `webhooks/` the plugin directory (usable by path: `plugins: providers: [{name: webhooks, path: …}]`):
 *   `PulumiPlugin.yaml` (`runtime: nodejs`), `index.js` (the launcher, launcher/pluginDirectory.ts,
 *   which picks the door as the single executable does), each plugin door bundled on its own with
 *   esbuild (`pulumi.js`, `terraform.js`: only the one picked is loaded), `schema.json` and
 *   `description.json` (what the doors serve and derive their schemas from), and `node_modules`
 *   with `@pulumi/pulumi` — the language host starts every
 *   nodejs plugin through `@pulumi/pulumi/cmd/run-plugin`, resolved from the plugin directory —
 *   and its gRPC and protobuf libraries, which the bundle leaves to it;
 * - `pulumi-resource-webhooks-v<version>.tgz` that directory packed, for
 *   `pulumi plugin install resource webhooks <version> -f <tgz>`;
 * - `schema.json` the package schema (scripts/packageSchema.ts), which `npm run gen-sdk` also uses.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";
import { bundleName, DOOR_ENTRIES, PLUGIN_DOORS } from "../launcher/doors";
import { PACKAGE_NAME } from "../provider/native/tokens";
import { packageSchema, resourceDescription } from "./packageSchema";

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "dist/plugin");
const PLUGIN_DIR = path.join(OUT, PACKAGE_NAME);
/** Left to node_modules: `@pulumi/pulumi` must be there anyway, and it brings the other two. */
const EXTERNAL = ["@pulumi/pulumi", "@grpc/grpc-js", "google-protobuf"];

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function main(): Promise<void> {
  const pkg = readJson(path.join(ROOT, "package.json"));
  const version: string = pkg.version;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(PLUGIN_DIR, { recursive: true });

  const description = resourceDescription();
  const schema = `${JSON.stringify(packageSchema(description), null, 2)}\n`;
  writeFileSync(path.join(OUT, "schema.json"), schema);
  writeFileSync(path.join(PLUGIN_DIR, "schema.json"), schema);
  writeFileSync(path.join(PLUGIN_DIR, "description.json"), `${JSON.stringify(description, null, 2)}\n`);

  await build({
    // `<name>.js` each: the launcher as index.js (package.json's main), and the plugin doors.
    entryPoints: {
      index: path.join(ROOT, "launcher/pluginDirectory.ts"),
      ...Object.fromEntries(
        PLUGIN_DOORS.map((door) => [bundleName(door).replace(/\.js$/, ""), path.join(ROOT, DOOR_ENTRIES[door])]),
      ),
    },
    outdir: PLUGIN_DIR,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: EXTERNAL,
    legalComments: "linked",
    logLevel: "warning",
  });
  writeFileSync(path.join(PLUGIN_DIR, "PulumiPlugin.yaml"), "runtime: nodejs\n");
  // The versions this checkout was built and tested with: @pulumi/pulumi exact, the others as package.json says.
  const sdkVersion: string = readJson(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json")).version;
  const dependencies = Object.fromEntries(EXTERNAL.map((name) => [name, pkg.dependencies[name]]));
  dependencies["@pulumi/pulumi"] = sdkVersion;
  writeFileSync(
    path.join(PLUGIN_DIR, "package.json"),
    `${JSON.stringify({ name: `pulumi-resource-${PACKAGE_NAME}`, version, private: true, license: pkg.license, main: "index.js", dependencies }, null, 2)}\n`,
  );
  execFileSync(
    "npm",
    ["install", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--loglevel=error"],
    { cwd: PLUGIN_DIR, stdio: "inherit" },
  );

  const tarball = path.join(OUT, `pulumi-resource-${PACKAGE_NAME}-v${version}.tgz`);
  execFileSync("tar", ["-czf", tarball, "-C", PLUGIN_DIR, "."]);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(`${path.relative(ROOT, tarball)} (${mb(statSync(tarball).size)})`);
  console.log(`${path.relative(ROOT, PLUGIN_DIR)}/ (usable by path)`);
  console.log(`${path.relative(ROOT, path.join(OUT, "schema.json"))}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
