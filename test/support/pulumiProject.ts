/** The environment for tests that run plain `pulumi` in project directories. */
import { mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Engine } from "../../engine/provision";

/** `pulumi`'s environment: the engine first on PATH, a PULUMI_HOME and a file backend (`state`) under `root`. */
export function pulumiEnv(engine: Engine, root: string, passphrase: string): NodeJS.ProcessEnv {
  const state = backendDir(root);
  mkdirSync(state, { recursive: true });
  return {
    PATH: [engine.binDir, process.env.PATH].join(delimiter),
    PULUMI_HOME: join(root, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_BACKEND_URL: pathToFileURL(state).href,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
  };
}

/** The file backend's directory `pulumiEnv` makes under `root`, for tests that read the state at rest. */
export function backendDir(root: string): string {
  return join(root, "state");
}

/**
 * A user's project manifest in `dir`: this package from the packed `tarball` (none: the test
 * installs it) beside `@pulumi/pulumi` at `sdk`, and whatever else the test adds (`main`, devDependencies).
 */
export function writeUserPackage(
  dir: string,
  { sdk, tarball, ...rest }: { sdk: string; tarball?: string; main?: string; devDependencies?: Record<string, string> },
): void {
  const dependencies = {
    "@pulumi/pulumi": sdk,
    ...(tarball ? { "pulumi-webhook-subscriptions": pathToFileURL(tarball).href } : {}),
  };
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "user-infra", private: true, ...rest, dependencies }),
  );
}
