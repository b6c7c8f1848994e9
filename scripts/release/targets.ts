/**
 * Running a program built for another platform on this linux-amd64 machine: linux-arm64 under
 * qemu's user-mode emulation (Debian's qemu-user-static, with Debian's arm64 C and C++ runtimes
 * as the sysroot), windows-amd64 under wine (Debian's wine64, in a prefix of its own in the
 * cache). The release runs each reachable target's own `node` to train its code caches
 * (executables.ts); test/e2e/platforms.test.ts starts each reachable archive. Debian's packages
 * are installed once per machine when missing, the wine prefix once into
 * `~/.cache/pulumi-webhook-subscriptions/tools/wine-prefix`; nothing is skipped: a tool that
 * cannot be had throws, saying what to run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheHome } from "../../engine/cacheHome";
import { aptInstall, onPath } from "./debianPackages";
import { type Target, TARGETS, targetName } from "./nodeRuntime";

/** Where Debian's arm64 cross runtimes put the dynamic loader and libc/libstdc++ (qemu's `-L`). */
const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";

/** How to start a program built for `target` here. */
export interface TargetCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /**
   * Whether the program's stdout and stderr must be files rather than pipes: Node.js under wine
   * 8.0 fails to open a pipe as either (`Error: open EBADF` from `new Socket`), a file works.
   */
  readonly stdioToFiles: boolean;
}

/**
 * The targets this machine can run (natively or emulated): their blobs carry V8's code caches,
 * made by their own runtime; the others get no cache and structural checks only.
 */
export const RUNNABLE = ["linux-amd64", "linux-arm64", "windows-amd64"] as const;

/** Whether `target` is one of RUNNABLE. */
export function isRunnable(target: Target): boolean {
  return (RUNNABLE as readonly string[]).includes(targetName(target));
}

/** RUNNABLE's targets, in TARGETS' order. */
export function runnableTargets(): Target[] {
  return TARGETS.filter(isRunnable);
}

/**
 * RUNNABLE holds on a linux-amd64 machine only (qemu-user runs arm64 programs there, Debian's
 * wine amd64 ones): anywhere else, say so before anything is installed or started.
 */
function requireLinuxAmd64Host(what: string): void {
  if (process.platform === "linux" && process.arch === "x64") return;
  throw new Error(
    `${what} needs a linux-amd64 machine (Debian or Ubuntu: it uses their qemu-user-static and wine), ` +
      `and this one is ${process.platform}-${process.arch}. Run it on such a machine, or let release.yml build the release.`,
  );
}

function wineDir(): string {
  return cacheHome("tools", "wine-prefix");
}

/** A headless wine prefix that reports Windows 10 (Node.js 22 refuses wine's default, "before 8.1"). */
function ensureWinePrefix(): string {
  const prefix = wineDir();
  const done = join(prefix, "ready");
  if (existsSync(done)) return prefix;
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  const env = wineEnv(prefix);
  // No display here: wineboot runs headless; its complaint about the missing 32-bit rundll32 is harmless.
  execFileSync("wineboot", ["--init"], { env, stdio: "pipe", timeout: 300_000 });
  execFileSync("wine", ["reg", "add", "HKCU\\Software\\Wine", "/v", "Version", "/d", "win10", "/f"], {
    env,
    stdio: "pipe",
    timeout: 300_000,
  });
  execFileSync("wineserver", ["--wait"], { env, stdio: "pipe", timeout: 300_000 });
  writeFileSync(done, "win10\n");
  return prefix;
}

const wineEnv = (prefix: string): NodeJS.ProcessEnv => ({
  ...process.env,
  WINEPREFIX: prefix,
  WINEARCH: "win64",
  WINEDEBUG: "-all",
  DISPLAY: "",
});

/** Debian's packages that run each emulated target (release.yml installs the same with sudo). */
export const TARGET_PACKAGES = {
  "linux-arm64": ["qemu-user-static", "libc6-arm64-cross", "libstdc++6-arm64-cross"],
  "windows-amd64": ["wine", "wine64"],
} as const;

/** Installs what running `target` needs (once per machine); throws if it cannot. */
export function ensureTargetTools(target: Target): void {
  const name = targetName(target);
  requireLinuxAmd64Host(`running ${name}'s programs`);
  if (name === "linux-arm64") {
    if (!onPath("qemu-aarch64-static") || !existsSync(join(ARM64_SYSROOT, "lib", "libstdc++.so.6")))
      aptInstall(TARGET_PACKAGES["linux-arm64"], "linux-arm64 under qemu");
  } else if (name === "windows-amd64") {
    if (!onPath("wine") || !existsSync("/usr/lib/wine/wine64"))
      aptInstall(TARGET_PACKAGES["windows-amd64"], "windows-amd64 under wine");
    ensureWinePrefix();
  } else if (name !== "linux-amd64") {
    throw new Error(`${name} cannot run on this machine (only ${RUNNABLE.join(", ")})`);
  }
}

/**
 * The command that runs `binary` (built for `target`) with `args` here, as the engine would run
 * it on that platform; call ensureTargetTools first.
 */
export function runOnTarget(target: Target, binary: string, args: readonly string[] = []): TargetCommand {
  switch (targetName(target)) {
    case "linux-amd64":
      return { command: binary, args, env: process.env, stdioToFiles: false };
    case "linux-arm64":
      return {
        command: "qemu-aarch64-static",
        args: ["-L", ARM64_SYSROOT, binary, ...args],
        env: process.env,
        stdioToFiles: false,
      };
    case "windows-amd64":
      return { command: "wine", args: [binary, ...args], env: wineEnv(wineDir()), stdioToFiles: true };
    default:
      throw new Error(`${targetName(target)} cannot run on this machine (only ${RUNNABLE.join(", ")})`);
  }
}
