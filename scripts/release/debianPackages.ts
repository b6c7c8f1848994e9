/**
 * Debian's packages a build step needs (`llvm` for llvm-strip), installed with apt-get when a
 * command is missing: a new machine has only what the project's own files install. As root only
 * (CI and these machines run as root); anyone else is told the command to run.
 */
import { execFileSync } from "node:child_process";

/** Whether `command --version` runs. */
export function onPath(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Installs `packages` (after `apt-get update`, which a new machine needs); throws saying what to do. */
export function aptInstall(packages: readonly string[], why: string): void {
  const command = `apt-get install --yes --no-install-recommends ${packages.join(" ")}`;
  if (process.getuid?.() !== 0) throw new Error(`${why}: missing; install it with \`sudo ${command}\``);
  console.log(`${why}: installing Debian's ${packages.join(", ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    execFileSync("apt-get", ["update", "--quiet"], { env, stdio: "pipe" });
    execFileSync("apt-get", ["install", "--yes", "--no-install-recommends", "--quiet", ...packages], {
      env,
      stdio: "pipe",
    });
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`${why}: \`${command}\` failed: ${stderr || (err as Error).message}`, { cause: err });
  }
}

/** `command`, installing `packages` first when it is not on PATH. */
export function ensureCommand(command: string, packages: readonly string[], why: string): string {
  if (!onPath(command)) aptInstall(packages, why);
  if (!onPath(command)) throw new Error(`${why}: installed ${packages.join(", ")} but \`${command}\` is still missing`);
  return command;
}
