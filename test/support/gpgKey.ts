/**
 * A throwaway OpenPGP signing key, made by gpg in a home of its own, for the tests that sign a
 * release as release.yml does with its secret key: RSA, which both Terraform and OpenTofu verify.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync } from "node:fs";
import { join } from "node:path";

/** The key as a release and a registry need it. */
export interface TestSigningKey {
  /** ASCII-armored private key: what WEBHOOKS_RELEASE_GPG_KEY holds. */
  readonly armoredPrivate: string;
  /** ASCII-armored public key: what a registry serves beside a download. */
  readonly armoredPublic: string;
  readonly passphrase: string;
  /** 40 hex digits. */
  readonly fingerprint: string;
  /** The long key ID, its fingerprint's last 16 digits (a registry's `key_id`). */
  readonly keyId: string;
  /** The gpg home holding it (for `gpg --verify`). */
  readonly home: string;
}

/**
 * A new RSA key protected by `passphrase`, named `name`, in a gpg home made inside `parent` (a folder
 * the caller removes). The agent gpg starts to make it is stopped before this returns: verifying
 * needs none, and it would outlive the test run.
 */
export function makeSigningKey(name: string, passphrase: string, parent: string): TestSigningKey {
  const home = mkdtempSync(join(parent, "gnupg-"));
  chmodSync(home, 0o700);
  const gpg = (args: string[], input = "") =>
    execFileSync("gpg", ["--batch", "--no-tty", ...args], {
      env: { ...process.env, GNUPGHOME: home },
      input,
      stdio: ["pipe", "pipe", "pipe"], // its progress on stderr is noise in a test's log
    }).toString();
  try {
    // The passphrase on stdin, as the release hands its own over.
    gpg(
      [
        "--pinentry-mode",
        "loopback",
        "--passphrase-fd",
        "0",
        "--quick-gen-key",
        `${name} <release@example.com>`,
        "rsa2048",
        "sign",
        "never",
      ],
      passphrase,
    );
    const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg(["--with-colons", "--list-secret-keys"]))?.[1];
    if (!fingerprint) throw new Error(`gpg made no key in ${home}`);
    return {
      armoredPrivate: gpg(
        ["--pinentry-mode", "loopback", "--passphrase-fd", "0", "--armor", "--export-secret-keys", fingerprint],
        passphrase,
      ),
      armoredPublic: gpg(["--armor", "--export", fingerprint]),
      passphrase,
      fingerprint,
      keyId: fingerprint.slice(-16),
      home,
    };
  } finally {
    try {
      execFileSync("gpgconf", ["--kill", "gpg-agent"], { env: { ...process.env, GNUPGHOME: home }, stdio: "ignore" });
    } catch {
      // No agent was started.
    }
  }
}

/** Whether `signature` is a good signature of `file` by `key` (gpg --verify in the key's home). */
export function verifySignature(key: TestSigningKey, signature: string, file: string): boolean {
  try {
    execFileSync("gpg", ["--batch", "--no-tty", "--verify", signature, file], {
      env: { ...process.env, GNUPGHOME: key.home },
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
}
