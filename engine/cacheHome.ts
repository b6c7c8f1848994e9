/**
 * The one folder outside any checkout where this project keeps what it installs once per
 * machine (the engine, Node.js runtimes, actionlint, rcodesign, the wine prefix…): one place to
 * clear, and one path for CI to cache (`~/.cache/pulumi-webhook-subscriptions`).
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** `$XDG_CACHE_HOME/pulumi-webhook-subscriptions/<parts…>`, `~/.cache` when XDG_CACHE_HOME is unset or empty. */
export function cacheHome(...parts: string[]): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-webhook-subscriptions", ...parts);
}
