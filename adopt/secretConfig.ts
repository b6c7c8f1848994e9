/**
 * Header values into the stack's secret config, through the team's own `pulumi config set
 * --secret`: the value goes on stdin, never on a command line (where `ps` and shell history would
 * see it), and the stack's secrets provider encrypts it, so Pulumi.<stack>.yaml holds ciphertext only.
 */
import type { CommandResult, PulumiRun } from "../engine/pulumiRun";
import { AdoptError } from "./errors";

/** Sets each `key` of `values` as a secret of `stack`, one `config set` at a time (they write one file). */
export async function setSecretConfig(
  run: PulumiRun,
  target: { readonly stack: string; readonly workDir: string; readonly env: Readonly<Record<string, string>> },
  values: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [key, value] of values) {
    const result = await run(
      ["config", "set", "--secret", key, "--stack", target.stack],
      target.workDir,
      target.env,
      undefined,
      undefined,
      value,
    ).catch(
      (err: unknown): CommandResult =>
        (err as { commandResult?: CommandResult }).commandResult ?? { code: 1, stderr: String(err), stdout: "" },
    );
    if (result.code !== 0) {
      // What pulumi said, without the value should it have quoted it.
      const said = result.stderr.split(value).join("<value>").trim();
      throw new AdoptError(
        `Could not store ${key} in stack ${target.stack}'s secret config: \`pulumi config set --secret ${key}\` failed: ${said}. ` +
          "Check the stack's secrets provider (PULUMI_CONFIG_PASSPHRASE for a passphrase stack), then run adopt again with --force.",
      );
    }
  }
}
