/**
 * A detached OpenPGP signature with a release key handed over in the environment, as release.yml
 * hands over its secrets: the armored private key (and its passphrase, if any) reach gpg on stdin
 * only, never a command line every process can read, and the key lives in a temporary GNUPGHOME
 * that is removed afterwards (the user's own keyring is never touched).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ensureCommand } from "./debianPackages";

/** The variable holding the release signing key, ASCII-armored (`gpg --armor --export-secret-keys`). */
export const SIGNING_KEY_VARIABLE = "WEBHOOKS_RELEASE_GPG_KEY";
/** The variable holding that key's passphrase; unset or empty for a key without one. */
export const SIGNING_PASSPHRASE_VARIABLE = "WEBHOOKS_RELEASE_GPG_PASSPHRASE";

/** A private signing key and its passphrase. */
export interface SigningKey {
  readonly armored: string;
  readonly passphrase?: string;
}

/** The signing key the environment names, or undefined when SIGNING_KEY_VARIABLE is unset or empty. */
export function signingKeyFromEnv(env: NodeJS.ProcessEnv = process.env): SigningKey | undefined {
  const armored = env[SIGNING_KEY_VARIABLE];
  if (!armored) return undefined;
  if (!armored.includes("-----BEGIN PGP PRIVATE KEY BLOCK-----"))
    throw new Error(
      `${SIGNING_KEY_VARIABLE} holds no ASCII-armored private key (no "-----BEGIN PGP PRIVATE KEY BLOCK-----" line): ` +
        "set it to the output of `gpg --armor --export-secret-keys <key id>`.",
    );
  return { armored, passphrase: env[SIGNING_PASSPHRASE_VARIABLE] || undefined };
}

/**
 * Writes `signature`, the binary detached signature of `file` (what the Terraform and OpenTofu
 * registries fetch as `…_SHA256SUMS.sig`); returns the signing key's fingerprint.
 */
export function detachSign(file: string, signature: string, key: SigningKey): string {
  const gpg = ensureCommand("gpg", ["gnupg"], "signing the release");
  const home = mkdtempSync(path.join(tmpdir(), "release-gnupg-"));
  chmodSync(home, 0o700); // gpg refuses (warns about) a home others can read
  const env = { ...process.env, GNUPGHOME: home };
  const gpgRun = (args: string[], input: string) =>
    execFileSync(gpg, ["--batch", "--no-tty", ...args], { env, input, stdio: ["pipe", "pipe", "pipe"] }).toString();
  try {
    try {
      gpgRun(["--import"], key.armored);
    } catch (err) {
      throw new Error(`the release signing key (${SIGNING_KEY_VARIABLE}) could not be imported: ${stderrOf(err)}`, {
        cause: err,
      });
    }
    const fingerprint = /^fpr:+([0-9A-F]+):/m.exec(gpgRun(["--with-colons", "--list-secret-keys"], ""))?.[1];
    if (!fingerprint) throw new Error(`${SIGNING_KEY_VARIABLE} holds no secret key that gpg can list`);
    try {
      gpgRun(
        [
          "--yes",
          "--pinentry-mode",
          "loopback",
          "--passphrase-fd",
          "0",
          "--local-user",
          fingerprint,
          "--detach-sign",
          "--output",
          signature,
          file,
        ],
        key.passphrase ?? "",
      );
    } catch (err) {
      throw new Error(
        `gpg could not sign ${path.basename(file)} with key ${fingerprint}: ${stderrOf(err)} ` +
          `(a key with a passphrase needs it in ${SIGNING_PASSPHRASE_VARIABLE})`,
        { cause: err },
      );
    }
    return fingerprint;
  } finally {
    // The agent gpg started for this home would otherwise outlive it.
    try {
      execFileSync("gpgconf", ["--kill", "gpg-agent"], { env, stdio: "ignore" });
    } catch {
      // No agent was started.
    }
    rmSync(home, { recursive: true, force: true });
  }
}

function stderrOf(err: unknown): string {
  const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
  return stderr || (err as Error).message;
}
