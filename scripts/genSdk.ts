/**
 * `npm run gen-sdk [-- --out DIR]`: the native provider's SDKs, generated from the package schema
 * (scripts/packageSchema.ts, the one dist/plugin/schema.json holds) by Pulumi's code generators at
 * the CLI version this project pins (engine/provision.ts), into `sdk/` (or DIR):
 *
 * - `python/` and `nodejs/` by `pulumi package gen-sdk` (the CLI and its Python and Node.js
 *   language hosts, from `npm run engine` with WEBHOOKS_LANGUAGE_HOST_SOURCE, docs/engine.md);
 * - `go/` by scripts/gen-go, the Go code generator the Go language host calls, pinned by its
 *   own go.mod (so the SDK does not depend on which host build is on PATH);
 * - `java/` by `pulumi package gen-sdk` through the Java host, with its Maven build (`pom.xml`,
 *   `plugin.json`, scripts/javaSdk.ts) beside.
 *
 * Nothing is edited after generation. The committed sdk/ is checked against a fresh generation by
 * test/e2e/sdks.test.ts. The build compiles sdk/nodejs into dist/sdk/nodejs (the package's
 * `./native` export) and copies its package.json there, where its `getVersion()` reads it.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "../engine/goBuild";
import { hostBinary, LANGUAGE_HOST_SOURCE_VARIABLE } from "../engine/languageHosts";
import { provisionEngine, PULUMI_VERSION } from "../engine/provision";
import { javaBuildFiles } from "./javaSdk";
import { packageSchema } from "./packageSchema";

const ROOT = path.resolve(__dirname, "..");
/** The languages `pulumi package gen-sdk` generates here, each through its language host. */
const CLI_LANGUAGES = ["python", "nodejs", "java"] as const;
export const SDK_LANGUAGES = [...CLI_LANGUAGES, "go"] as const;

/** Generates every SDK into `out`/<language>, replacing what was there. */
export async function generateSdks(out: string, log: (line: string) => void = () => {}): Promise<void> {
  const engine = await provisionEngine({ version: PULUMI_VERSION, log });
  for (const language of CLI_LANGUAGES)
    if (!existsSync(path.join(engine.binDir, hostBinary(language))))
      throw new Error(
        `gen-sdk: pulumi ${engine.version} in ${engine.binDir} has no ${hostBinary(language)}, which generates the ` +
          `${language} SDK. Put the official Pulumi ${PULUMI_VERSION} on PATH, or (offline) set ${LANGUAGE_HOST_SOURCE_VARIABLE} ` +
          "to the language hosts' source (docs/engine.md), and run again.",
      );

  const work = mkdtempSync(path.join(tmpdir(), "gen-sdk-"));
  try {
    const built = packageSchema();
    const schema = path.join(work, "schema.json");
    writeFileSync(schema, `${JSON.stringify(built, null, 2)}\n`);
    const generated = path.join(work, "sdk");
    const env = {
      ...process.env,
      PATH: [engine.binDir, process.env.PATH].join(path.delimiter),
      // The CLI's bookkeeping stays in the scratch folder, not in ~/.pulumi.
      PULUMI_HOME: path.join(work, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    for (const language of CLI_LANGUAGES)
      execFileSync("pulumi", ["package", "gen-sdk", schema, "--language", language, "--out", generated], {
        env,
        stdio: "pipe", // its one line names the scratch folder; a failure throws with its stderr
      });
    for (const [file, text] of Object.entries(javaBuildFiles(built))) {
      mkdirSync(path.dirname(path.join(generated, "java", file)), { recursive: true });
      writeFileSync(path.join(generated, "java", file), text);
    }
    // gen-go's go.mod and go.sum pin every module, the CLI's versions: built as the CLI is, it
    // reuses the packages the engine's build compiled.
    execFileSync("go", ["run", ...GO_BUILD_FLAGS, ".", schema, path.join(generated, "go")], {
      cwd: path.join(ROOT, "scripts", "gen-go"),
      env: { ...env, ...GO_BUILD_ENV, GOFLAGS: "-mod=readonly" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    for (const language of SDK_LANGUAGES) {
      const target = path.join(out, language);
      rmSync(target, { recursive: true, force: true });
      cpSync(path.join(generated, language), target, { recursive: true });
      log(`${path.relative(process.cwd(), target) || target}/`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: "string", default: path.join(ROOT, "sdk") } } });
  generateSdks(path.resolve(values.out), (line) => console.log(line)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
