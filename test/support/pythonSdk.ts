/**
 * The Python SDK as docs/native-provider.md says a user gets it: `sdk/python` of a checkout built
 * into a wheel with `pip wheel --no-deps`, installed into a fresh virtualenv `venv` of a project
 * with its `requirements.txt`, whose other distributions (`pulumi`, at the CLI's version) come
 * from PyPI. For the tests that run Python programs on the native plugin.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { run } from "./commands";

/** A project's virtualenv with the SDK installed. */
export interface PythonVenv {
  /** The file names `pip wheel` wrote (one: `pulumi_webhooks-<version>-py3-none-any.whl`). */
  readonly wheels: readonly string[];
  /** The virtualenv's interpreter. */
  readonly python: string;
  /** pip's closing line, e.g. "Successfully installed … pulumi-3.248.0 pulumi-webhooks-<version>". */
  readonly installed: string;
}

/**
 * Builds the wheel of `<checkout>/sdk/python` into `<checkout>/dist/python` (the build writes into
 * the source folder: use a copy, support/repoCopy.ts), then makes `<project>/venv` and installs
 * `<project>/requirements.txt` into it, the wheel found by `--find-links`.
 */
export async function installPythonSdk(checkout: string, project: string): Promise<PythonVenv> {
  const wheels = join(checkout, "dist", "python");
  await run(
    "python3",
    ["-m", "pip", "wheel", "--no-deps", "--wheel-dir", wheels, join(checkout, "sdk", "python")],
    checkout,
  );
  await run("python3", ["-m", "venv", "venv"], project);
  const python = join(project, "venv", "bin", "python");
  const install = await run(
    python,
    ["-m", "pip", "install", "--find-links", wheels, "-r", "requirements.txt"],
    project,
  );
  return { wheels: readdirSync(wheels), python, installed: install.stdout.trim().split("\n").at(-1) ?? "" };
}
