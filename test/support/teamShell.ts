/**
 * A team without Node.js, for the tests that run the executable's docs as written: a shell whose
 * PATH holds the release's executable (the CLI, and the same bytes as the Pulumi plugin), `pulumi`
 * with its language hosts, `tofu` with the release's provider through a filesystem mirror, and
 * basic tools, and no `node`; a file backend and the emulator's address in the environment.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Engine } from "../../engine/provision";
import type { Tofu } from "../../engine/tofu";
import { cliArchiveName, executableArchiveName } from "../../scripts/release/release";
import { RELEASE_VERSION } from "./sharedRelease";
import { terminalEnv } from "./shellSession";
import { mirrorCliConfig, packedMirror, verifyZip } from "./terraformUser";

/** What a shell needs besides the tools under test; `node` is not among them. */
const BASIC_TOOLS = [
  "bash",
  "sh",
  "env",
  "cat",
  "mkdir",
  "rm",
  "cp",
  "mv",
  "ls",
  "grep",
  "sed",
  "tar",
  "gzip",
  "curl",
  "sleep",
  "seq",
  "kill",
  "head",
  "tail",
  "printf",
  "tr",
  "dirname",
  "basename",
  "mktemp",
  "cut",
  "wc",
  "sort",
  "test",
  "true",
];

/** A directory of links to the basic tools, so that PATH holds them and nothing else of the machine. */
function toolsDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of BASIC_TOOLS) {
    const path = ["/usr/bin", "/bin"].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (path) symlinkSync(path, join(dir, tool));
  }
  return dir;
}

/**
 * The team's environment under `root` (bin/, mirror/, home/, state/, tools/): the release in
 * `releaseDir` unpacked as a user unpacks it, the emulator to be at `port`.
 */
export function teamEnv(options: {
  readonly root: string;
  readonly releaseDir: string;
  readonly engine: Engine;
  readonly tofu: Tofu;
  readonly port: number;
  readonly passphrase: string;
}): NodeJS.ProcessEnv {
  const { root, releaseDir } = options;
  const bin = join(root, "bin");
  mkdirSync(bin);
  for (const archive of [cliArchiveName, executableArchiveName])
    execFileSync("tar", ["-xzf", join(releaseDir, archive(RELEASE_VERSION, "linux", "amd64")), "-C", bin]);
  // Terraform's provider from the release's zip, through a filesystem mirror, as terraform.test.ts installs it.
  verifyZip(releaseDir, RELEASE_VERSION, "linux", "amd64");
  const mirror = packedMirror(releaseDir, RELEASE_VERSION, join(root, "mirror"), [{ os: "linux", arch: "amd64" }]);
  const home = join(root, "home");
  mkdirSync(home);
  mkdirSync(join(root, "state"));
  return terminalEnv({
    PATH: [bin, options.engine.binDir, options.tofu.binDir, toolsDir(join(root, "tools"))].join(delimiter),
    HOME: home,
    TF_CLI_CONFIG_FILE: mirrorCliConfig(join(root, "cli.tfrc"), mirror),
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
    PULUMI_BACKEND_URL: `file://${join(root, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    WEBHOOKS_BASE_URL: `http://127.0.0.1:${options.port}`,
    WEBHOOKS_TOKEN: "dev-builder",
  });
}
