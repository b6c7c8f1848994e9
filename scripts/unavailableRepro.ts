/**
 * Reproduces "14 UNAVAILABLE: No connection established" of in-process (inline) programs
 * (docs/engine.md, "14 UNAVAILABLE in in-process programs"): previews, one after the other in
 * this process, an Automation API inline program whose one resource fails check, with the
 * @pulumi/pulumi SDK as shipped and the real engine. Each run should report that check failure;
 * one whose engine listens on a port an earlier run's leaked client still retries fails instead,
 * or reports success without having run the program.
 *
 *   npx tsx scripts/unavailableRepro.ts [runs] [--close-connections]
 *
 * `--close-connections` applies this repository's workaround (engine/engineConnections.ts).
 * Exits 1 when some run did not check its resource. Port reuse is rare among the kernel's ~14,000
 * ephemeral ports; to make it near-certain, run it in a network namespace with 64 of them:
 *
 *   unshare -rn sh -c 'ip link set lo up && echo "40000 40063" > /proc/sys/net/ipv4/ip_local_port_range && npx tsx scripts/unavailableRepro.ts'
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import { closeEngineConnectionsWhenGone } from "../engine/engineConnections";
import { provisionEngine } from "../engine/provision";

const REFUSED = "always refused";
const refusing: pulumi.dynamic.ResourceProvider = {
  async check() {
    return { failures: [{ property: "value", reason: REFUSED }] };
  },
  async create() {
    return { id: "never" };
  },
};

/** One resource whose provider refuses every input at check. */
class Refused extends pulumi.dynamic.Resource {
  constructor(name: string) {
    super(refusing, name, { value: 1 });
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "close-connections": { type: "boolean" } },
  });
  const runs = Number(positionals[0] ?? 30);
  const unhandled: string[] = [];
  // The SDK's failed calls of an earlier run surface here once its run has ended.
  process.on("unhandledRejection", (err) => unhandled.push(String(err)));

  const engine = await provisionEngine();
  // Inside the repository: the dynamic-provider host resolves @pulumi/pulumi from here.
  const parent = resolve(__dirname, "..", ".work");
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "unavailable-repro-"));
  mkdirSync(join(dir, "state"));
  /** Whether this run's program ran (set by the program). */
  let ran: boolean;
  const workspace = await LocalWorkspace.create({
    workDir: dir,
    projectSettings: { name: "unavailable-repro", runtime: "nodejs" },
    pulumiCommand: await PulumiCommand.get({ root: engine.root }),
    envVars: {
      PATH: `${engine.binDir}:${process.env.PATH ?? ""}`,
      PULUMI_BACKEND_URL: pathToFileURL(join(dir, "state")).href,
      PULUMI_CONFIG_PASSPHRASE: "unavailable-repro",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    },
    program: async () => {
      if (values["close-connections"]) closeEngineConnectionsWhenGone();
      ran = true;
      new Refused("refused");
    },
  });
  const stack = await Stack.createOrSelect("repro", workspace);

  const outcomes = new Map<string, number>();
  for (let run = 1; run <= runs; run++) {
    ran = false;
    const ended = await stack.preview().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    const outcome = ended.includes(REFUSED)
      ? "checked its resource"
      : (/14 UNAVAILABLE[^\n"]*/.exec(ended)?.[0] ??
        (ended === "succeeded" ? "succeeded" : `failed: ${ended.slice(-300)}`));
    const how = `${outcome}${ran ? "" : " (the program never ran)"}`;
    outcomes.set(how, (outcomes.get(how) ?? 0) + 1);
    const stray =
      unhandled.length > 0 ? `; unhandled rejections meanwhile: ${[...new Set(unhandled)].join(" | ")}` : "";
    unhandled.length = 0;
    console.log(`run ${run}: ${how}${stray}`);
  }
  console.log(`\n${runs} previews${values["close-connections"] ? " with --close-connections" : ""}:`);
  for (const [how, n] of outcomes) console.log(`  ${n} ${how}`);
  return outcomes.size === 1 && outcomes.has("checked its resource") ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
