/** The engine and environment for tests that run plain `pulumi` in project directories. */
import { existsSync, mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Engine } from "../../engine/provision";
import { requireEngine } from "./engine";

/** The engine, which must have these language hosts beside the CLI (else fails saying how to get them). */
export function requireLanguageHosts(...hosts: string[]): Engine {
  const engine = requireEngine();
  for (const host of hosts.map((name) => `pulumi-language-${name}`))
    if (!existsSync(join(engine.binDir, host)))
      throw new Error(
        `pulumi ${engine.version} in ${engine.binDir} has no ${host}: set WEBHOOKS_LANGUAGE_HOST_SOURCE to a folder ` +
          "laid out like ../shared/engine-src (docs/engine.md), or put an official Pulumi install on PATH",
      );
  return engine;
}

/** `pulumi`'s environment: the engine first on PATH, a PULUMI_HOME and a file backend (`state`) under `root`. */
export function pulumiEnv(engine: Engine, root: string, passphrase: string): NodeJS.ProcessEnv {
  const state = join(root, "state");
  mkdirSync(state, { recursive: true });
  return {
    PATH: [engine.binDir, process.env.PATH].join(delimiter),
    PULUMI_HOME: join(root, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_BACKEND_URL: pathToFileURL(state).href,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
  };
}
