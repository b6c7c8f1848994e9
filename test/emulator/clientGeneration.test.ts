/**
 * docs/emulator.md's "Generating a client from the document": its command, run as written in a
 * fresh directory against a running emulator (only the address is this test's), and code that
 * uses the generated types type-checks, so the document is one a generator understands.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT } from "../support/engine";
import { shellBlocks } from "../support/shellBlocks";

const execFileAsync = promisify(execFile);

const SECTION = "Generating a client from the document";
/** The address the page's command is written with (the emulator's `--port 8080`). */
const WRITTEN_URL = "http://127.0.0.1:8080";

let emulator: EmulatorHarness;
let dir: string;
beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  dir = mkdtempSync(join(tmpdir(), "openapi-client-"));
});
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("generates TypeScript types from the v3 document with the documented command", { timeout: 300_000 }, async () => {
  const page = readFileSync(join(REPO_ROOT, "docs", "emulator.md"), "utf8");
  const script = shellBlocks(page).find((block) => block.heading === SECTION)?.script;
  expect(script, `docs/emulator.md has an sh block under "## ${SECTION}"`).toContain(WRITTEN_URL);
  await execFileAsync("sh", ["-ec", script!.replaceAll(WRITTEN_URL, emulator.url)], { cwd: dir, timeout: 280_000 });

  const types = readFileSync(join(dir, "webhooks-api.d.ts"), "utf8");
  expect(types).toContain('"/configuration/WebHookSubscription/GetAllWebhookSubscriptions"');
  expect(types).toMatch(/Webhook: 0 \| 1 \| 2 \| 3 \| 4 \| 5;/);
  // Code written against the generated types compiles; a wrong field would not.
  writeFileSync(
    join(dir, "use.ts"),
    `import type { components, paths } from "./webhooks-api";
type Subscription = components["schemas"]["Subscription"];
type List = paths["/configuration/WebHookSubscription/GetAllWebhookSubscriptions"]["get"]["responses"][200]["content"]["application/json"];
const one: Subscription = {
  GUID: "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", Webhook: 3, FilterObjectGUID: null, FilterObjectType: 2,
  SubscriberURL: "https://hooks.example.com/x", Signature: "s", CustomHeader: "", CustomHeaderValue: null,
};
export const list: List = [one];
`,
  );
  const tsc = join(REPO_ROOT, "node_modules", ".bin", "tsc");
  await execFileAsync(tsc, ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "use.ts"], {
    cwd: dir,
  }).catch((error: { stdout?: string }) => {
    throw new Error(`the generated types do not compile with code using them:\n${error.stdout ?? ""}`);
  });
});
