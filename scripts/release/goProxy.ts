/**
 * `npm run dist:go`: `dist/release/goproxy/`, the Go SDK (sdk/go) as a module proxy serves it
 * (`$GOPROXY/<module>/@v/{list,v<v>.info,v<v>.mod,v<v>.zip}`, the layout `go help goproxy`
 * describes), so `GOPROXY=file://…/goproxy go get <module>@v<v>` resolves the module path of
 * the public home at the package version, as the `sdk/v<v>` tag will on release.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { publicHome } from "../packageSchema";
import { describe, releaseDir, releaseVersion, ROOT, runStep } from "./release";

runStep(async () => {
  const module = publicHome().goModule;
  const version = `v${releaseVersion()}`;
  const source = path.join(ROOT, "sdk/go");
  const goMod = readFileSync(path.join(source, "go.mod"), "utf8");
  if (!goMod.startsWith(`module ${module}\n`))
    throw new Error(`dist:go: sdk/go/go.mod is not module ${module}; run npm run gen-sdk`);

  const proxy = path.join(releaseDir(), "goproxy");
  rmSync(proxy, { recursive: true, force: true });
  // Module paths here are lower case, so they need none of the proxy protocol's case escaping.
  const dir = path.join(proxy, module, "@v");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "list"), `${version}\n`);
  writeFileSync(path.join(dir, `${version}.info`), `${JSON.stringify({ Version: version })}\n`);
  writeFileSync(path.join(dir, `${version}.mod`), goMod);

  // The zip holds the module's files under `<module>@<version>/`, no directory entries.
  const work = mkdtempSync(path.join(tmpdir(), "dist-go-"));
  try {
    const prefix = `${module}@${version}`;
    cpSync(source, path.join(work, prefix), { recursive: true });
    const zip = path.join(dir, `${version}.zip`);
    execFileSync("zip", ["-q", "-X", "-D", "-r", zip, prefix], { cwd: work });
    console.log(describe(zip));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
