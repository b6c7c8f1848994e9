/**
 * docs/adopting.md, run as a team without Node.js runs it (support/teamShell.ts): the release's
 * executable (the CLI and the plugin), `pulumi` with the YAML host, `tofu`, and no `node`. The
 * team's repository is the page's: a YAML program (stack `dev`) beside a Terraform configuration
 * in `infra/`, on an instance whose subscriptions scripts made. Every `sh` block of the page runs
 * as written, in order: adopted into the stack, then into the directory with the stack as a source,
 * then handed over from the stack to the directory; each step the page describes in words is done
 * as it says (the co-owned findings' advice run as printed). The instance never changes (every
 * field, Signatures included), and no header value is in any file, state or output.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireLanguageHosts, REPO_ROOT } from "../support/engine";
import { sharedRelease } from "../support/sharedRelease";
import { shellBlocks } from "../support/shellBlocks";
import { ShellSession } from "../support/shellSession";
import { teamEnv } from "../support/teamShell";
import { requireTofu } from "../support/terraformClis";

const PAGE = readFileSync(join(REPO_ROOT, "docs", "adopting.md"), "utf8");
const SECRETS = [`orders-key-${Date.now()}`, `shipping-key-${Date.now()}`, `partner-key-${Date.now()}`];

let root: string;
let team: string;
let shell: ShellSession;
let service: EmulatorHarness;
let env: NodeJS.ProcessEnv;

/** The page's sh blocks, by the heading of their section. */
const blocks = (heading: string) => shellBlocks(PAGE).filter((b) => b.heading === heading);

/** Runs `script` in the session without ending it on a non-zero exit; its output and exit code. */
async function attempt(script: string): Promise<{ output: string; code: number }> {
  const output = await shell.run(`set +e\n( set -e\n${script}\n)\necho "exit=$?"\nset -e`);
  return { output, code: Number(/exit=(\d+)\s*$/.exec(output)?.[1]) };
}

/** Runs the page's block under `heading` (exactly one), expecting it to succeed. */
async function runBlock(heading: string): Promise<string> {
  const [block, ...more] = blocks(heading);
  expect(block && more.length === 0, `one sh block under "## ${heading}"`).toBe(true);
  const { output, code } = await attempt(block!.script);
  expect(code, `under "## ${heading}":\n${block!.script}\n${output}`).toBe(0);
  return output;
}

/** Subscribes as a script would. */
const subscribe = (body: Record<string, unknown>) => service.subscribe(body);

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-yaml"]);
  const tofu = requireTofu();
  const release = await sharedRelease();
  root = mkdtempSync(join(tmpdir(), "adopt-doc-"));
  team = join(root, "team");
  mkdirSync(join(team, "infra"), { recursive: true });
  // The emulator in this process: the page is about adopt, and drift-doc runs the executable's.
  service = await EmulatorHarness.start();
  const port = Number(new URL(service.url).port);
  env = {
    ...teamEnv({ root, releaseDir: release.dir, engine, tofu, port, passphrase: "adopt-doc" }),
    TMPDIR: join(root, "tmp"),
  };
  mkdirSync(join(root, "tmp"));
  writeFileSync(join(team, "Pulumi.yaml"), "# The team's program.\nname: app\nruntime: yaml\nresources: {}\n");
  writeFileSync(
    join(team, "infra", "main.tf"),
    'terraform {\n  required_providers {\n    webhooks = { source = "webhook-subscriptions/webhooks" }\n  }\n}\n\nprovider "webhooks" {}\n',
  );
  shell = ShellSession.start(team, env);
  await shell.run(
    [
      "pulumi stack init dev --non-interactive >/dev/null",
      'pulumi config set webhooks:baseUrl "$WEBHOOKS_BASE_URL"',
      'pulumi config set --secret webhooks:token -- "$WEBHOOKS_TOKEN"',
      "tofu -chdir=infra init -input=false -no-color >/dev/null",
    ].join("\n"),
  );
}, 1_800_000);

afterAll(async () => {
  await shell?.closeKeepingTranscript("adopt-doc-transcript.txt");
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

it("runs the page's blocks as written: into the stack, into the directory, then a handover; the instance never changes", async () => {
  // An estate made by scripts: hosts shared, events, filters and header values mixed.
  await subscribe({
    Webhook: 0,
    FilterObjectType: 7,
    FilterObjectGUID: "0f8fad5b-d9cb-469f-a165-70867728950e",
    SubscriberURL: "https://orders.example.com/hooks",
    CustomHeader: "X-Api-Key",
    CustomHeaderValue: SECRETS[0],
  });
  await subscribe({ Webhook: 3, FilterObjectType: 2, SubscriberURL: "https://orders.example.com/v2/created" });
  await subscribe({
    Webhook: 5,
    FilterObjectType: 4,
    SubscriberURL: "https://billing.example.com/types",
    CustomHeader: "X-Trace",
  });
  await subscribe({
    Webhook: 3,
    FilterObjectType: 9,
    SubscriberURL: "https://shipping.example.com/in",
    CustomHeader: "X-Key",
    CustomHeaderValue: SECRETS[1],
  });
  const said: string[] = [];

  // Into a stack: all four, into Pulumi.yaml; the review finds nothing.
  said.push(await runBlock("Into a stack"));
  const program = readFileSync(join(team, "Pulumi.yaml"), "utf8");
  expect(program).toContain("# The team's program.");
  expect(program).toContain("orders-example-com-hooks-packet-created:");
  expect(said.at(-1)).toMatch(/= 4 imported/);

  // More scripts, then into the directory: the stack keeps its own.
  await subscribe({
    Webhook: 1,
    FilterObjectType: 7,
    FilterObjectGUID: "1f8fad5b-d9cb-469f-a165-70867728950e",
    SubscriberURL: "https://partner.example.org/changed",
    CustomHeader: "X-Partner",
    CustomHeaderValue: SECRETS[2],
  });
  await subscribe({
    Webhook: 4,
    FilterObjectType: 7,
    FilterObjectGUID: "2f8fad5b-d9cb-469f-a165-70867728950e",
    SubscriberURL: "https://partner.example.org/deleted",
  });
  const before = await service.all();
  said.push(await runBlock("Into a Terraform or OpenTofu directory"));
  expect(said.at(-1)).toContain("Adopted 2 subscriptions into infra: adopted.tf");
  expect(said.at(-1)).toContain("2 imported, 0 added, 0 changed, 0 destroyed");

  // Had the team not given the applied file its own name: refused, with or without --force, as
  // replacing it would delete what it declares on the next apply.
  const applied = readFileSync(join(team, "infra", "adopted.tf"), "utf8");
  const again = "webhook-subscriptions adopt --into-terraform infra --match https://orders.example.com/";
  const kept = await attempt(again);
  expect(kept.code, kept.output).toBe(1);
  expect(kept.output).toContain("infra/adopted.tf already exists: adopt does not overwrite it. Once applied");
  const forced = await attempt(`${again} --force`);
  expect(forced.code, forced.output).toBe(1);
  expect(forced.output).toContain("infra/adopted.tf declares 2 subscription(s) infra already manages");
  expect(forced.output).toContain("Give it its own name (mv infra/adopted.tf <name>)");
  expect(readFileSync(join(team, "infra", "adopted.tf"), "utf8")).toBe(applied);

  // The handover: the two orders subscriptions go from the stack to the directory.
  said.push(
    await attempt(blocks("Handing subscriptions over between owners")[0]!.script).then((r) => {
      expect(r.code, r.output).toBe(0);
      return r.output;
    }),
  );
  expect(said.at(-1)).toContain("Adopted 2 subscriptions into infra: adopted.tf");
  // The review across both: co-owned, each finding's advice the release from the stack.
  const { code, output } = await attempt(blocks("Handing subscriptions over between owners")[1]!.script);
  expect([0, 2], output).toContain(code);
  const handover = JSON.parse(readFileSync(join(team, "handover.json"), "utf8")) as {
    findings: { class: string; advice?: string; owners?: { address: string }[] }[];
  };
  expect(handover.findings.map((f) => f.class)).toEqual(["co-owned", "co-owned"]);
  for (const finding of handover.findings) {
    const release = /`(pulumi state delete [^`]+)`/.exec(finding.advice ?? "")?.[1];
    expect(release, finding.advice).toBeDefined();
    said.push(await shell.run(release!));
  }
  // …and take its declaration out of the program.
  const doc = parseDocument(readFileSync(join(team, "Pulumi.yaml"), "utf8"));
  for (const key of [
    "orders-example-com-hooks-packet-created",
    "orders-example-com-v2-created-business-object-created",
  ])
    expect(doc.deleteIn(["resources", key]), key).toBe(true);
  writeFileSync(join(team, "Pulumi.yaml"), doc.toString());
  const after = await attempt("webhook-subscriptions drift --stack dev --terraform infra");
  expect(after.code, after.output).toBe(0);
  expect(after.output).toContain("**No drift**");
  said.push(after.output);

  // Nothing changed on the instance: every field, Signatures included.
  expect(await service.all()).toEqual(before);
  // No header value in any output, file, state or temporary file.
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true })
      .map((p) => join(dir, String(p)))
      .filter((p) => statSync(p).isFile());
  const leaked = [
    ...said.flatMap((text, i) => (SECRETS.some((s) => text.includes(s)) ? [`output of step ${i}`] : [])),
    ...[team, join(root, "state"), join(root, "tmp")].flatMap(files).filter((file) => {
      const text = readFileSync(file).toString("latin1");
      return SECRETS.some((s) => text.includes(s));
    }),
  ];
  expect(leaked).toEqual([]);
  expect(shell.transcript).not.toMatch(new RegExp(SECRETS.join("|")));
}, 900_000);
