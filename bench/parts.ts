/**
 * What one `npm run bench` measures: everything by default, or the parts named with `--only`
 * (`npm run bench -- --only native`), whose entries are then merged into bench/results.json.
 */
import { listFlag, parseFlags, UsageError } from "../cli/command";

export const PARTS = [
  "fixed",
  "scale",
  "native",
  "emulator",
  "client",
  "plugin",
  "start",
  "cache",
  "drift",
  "drift-sources",
  "terraform",
  "ups",
  "adopt",
  "drift-fleet",
] as const;
export type Part = (typeof PARTS)[number];

export const BENCH_USAGE = `usage: npm run bench [-- --only <part>[,<part>…]]
  parts: fixed (the N = BENCH_N entries), scale (the cost curve), native (native vs dynamic vs the
  engine floor), emulator (emulator throughput), client (client overhead), plugin (the plugin's
  start-up, its calls one by one, and a one-resource YAML preview per packaging), start (the second
  npm start against the same pulumi up by hand), cache (the executable's start with and without V8's
  code cache, natively, under qemu and under wine), drift (the drift review with and without the
  comparison with the program), drift-sources (one review of 20 Terraform directories and 2 stacks
  against the tools' own runs, and its wall time at 5, 10 and 20 directories), terraform (tofu with our provider against the Go anchor: a
  one-subscription plan, the handshake, apply/plan/destroy of 500), ups (BENCH_UPS rate-limited ups in
  process: no failed operation, no unhandled rejection, nothing left behind), adopt (adopt and the
  importing pulumi up of 500 against pulumi import --file of the same 500), drift-fleet (24 sources
  reviewed in 4 parts and merged against one review of all 24); all by default`;

/** The parts `argv` selects, or "help". Unknown parts are usage errors. */
export function selectedParts(argv: readonly string[]): ReadonlySet<Part> | "help" {
  const values = parseFlags(argv, { only: { type: "string", multiple: true } }, BENCH_USAGE);
  if (values === "help") return "help";
  const named = listFlag(values, "only").flatMap((list) => list.split(","));
  for (const part of named)
    if (!(PARTS as readonly string[]).includes(part))
      throw new UsageError(`--only: unknown part "${part}"; use one of ${PARTS.join(", ")}.\n${BENCH_USAGE}`);
  return new Set(named.length === 0 ? PARTS : (named as Part[]));
}
