/**
 * `npm run dist:python`: the Python SDK (sdk/python) as PyPI takes it, a wheel
 * `pulumi_webhooks-<v>-py3-none-any.whl` (`pip wheel`, its build backend in an isolated
 * environment) and an sdist `pulumi_webhooks-<v>.tar.gz` (the backend, setuptools, directly: an
 * sdist needs nothing else), in a scratch copy: building writes into the source.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, releaseDir, ROOT, runStep } from "./release";

const SDIST = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))";

runStep(async () => {
  const work = mkdtempSync(path.join(tmpdir(), "dist-python-"));
  try {
    const source = path.join(work, "python");
    cpSync(path.join(ROOT, "sdk/python"), source, { recursive: true });
    const out = releaseDir();
    const before = new Set(readdirSync(out));
    const python = (args: string[]) => execFileSync("python3", args, { cwd: source, encoding: "utf8", stdio: "pipe" });
    python(["-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", out, "."]);
    python(["-c", SDIST, out]);
    const built = readdirSync(out).filter(
      (name) => !before.has(name) && /^pulumi_webhooks-.*\.(whl|tar\.gz)$/.test(name),
    );
    if (built.length !== 2)
      throw new Error(`dist:python: expected a wheel and an sdist in ${out}, found ${built.join(", ")}`);
    for (const name of built) console.log(describe(path.join(out, name)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
