/**
 * Allowed-host patterns: `hooks.example.com` is that host exactly, `*.example.org` any host under
 * example.org at any depth (not example.org itself). Host names compare case-insensitively.
 */

/** A pattern: a DNS host name, optionally after `*.`; no scheme, port, path or lone `*` (no regex flags: JSON schema has none). */
export const HOST_PATTERN =
  /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The host of an http(s) URL as the patterns see it (lower case, no trailing dot), or undefined for no URL. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "") || undefined;
  } catch {
    return undefined;
  }
}

/** Whether `host` matches one of `patterns` (each matching `HOST_PATTERN`). */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = host.toLowerCase();
  return patterns.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith("*.") ? h.endsWith(p.slice(1)) : h === p;
  });
}
