/**
 * Secrets: a full lifecycle on the real engine, partly with the most verbose logging there is
 * (`-v=9 --debug`), plus the errors users meet (bad input, refused and expired credentials, a
 * service that echoes values back, a response cut short); then a search of everything written
 * anywhere — console output, engine events, log entries, every error message, the state at rest
 * with its backups and history, `pulumi stack export` and the stack config files — for the
 * plaintext of any token, client secret, Signature, CustomHeaderValue or URL password. The search
 * is shown to find planted secrets and the secrets of a `--show-secrets` export.
 *
 * Pulumi 3.248 itself prints secret values in a few places of its own, whatever a provider does:
 * the Node SDK's "RegisterResource RPC finished" debug message (always in the engine event stream,
 * in the logs from -v=3, on the console with --debug), and the engine's "Planner decided …" (-v=7)
 * and "Marshaling property for RPC" (-v=9) log lines. Those entries are counted and reported; a
 * secret in any other entry — anything our provider, client or settings print — fails the test.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import type { ConfigMap, EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEnv, openStack } from "../../engine/automation";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";
import { issueToken, startTokenProxy, type TokenProxy } from "../support/tokenProxy";

const PACKET = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
/** Header values: one passed as a plain string (the class must make it secret), one as pulumi.secret. */
const HEADER_PLAIN = "hv-plain-5e1d0c7a93";
const HEADER_SECRET = "hv-secret-b84f2e61aa";
const HEADER_ROTATED = "hv-rotated-3c07d9e2f1";
const HEADER_ECHOED = "hv-echoed-8a41b6c0d2";
const HEADER_WITH_NEWLINE = "hv-newline-0d9a3c55e7";
const URL_PASSWORD = "pw-9f3e1b7c42";
const WRONG_CLIENT_SECRET = "wrong-client-secret-71c4e0";
const CLIENT_SECRET = "dev-secret";
const BUILDER_TOKEN = "dev-builder";
const READER_TOKEN = "dev-reader";
/** Everything the engine can print. */
const DEBUG = { logVerbosity: 9, logToStdErr: true, debug: true } as const;
/** Pulumi's own messages that print property values, secrets included (see the file comment). */
const UPSTREAM_DUMP =
  /^(eventSink::Debug\(<\{%reset%\}>)?((RegisterResource|ReadResource|RegisterResourceOutputs) RPC finished: |Planner decided |(Un)?[Mm]arshaling property for RPC\[)/;

let emulator: EmulatorHarness;
let proxy: TokenProxy;
let dir: string;
let stack: Stack;
let desired: Record<string, WebhookSubscriptionArgs>;
/**
 * What was printed, one entry per console chunk, event, log entry or error message; `upstream`
 * marks entries that are one of Pulumi's own dumps.
 */
const entries: Array<{ text: string; upstream: boolean }> = [];
/** Signatures seen on the service during the run (they rotate on replacement). */
const signatures = new Set<string>();

function keep(text: string): void {
  entries.push({ text, upstream: UPSTREAM_DUMP.test(text) });
}

/** Every secret of the run, by label. */
function secrets(): Map<string, string> {
  const all = new Map<string, string>([
    ["client secret", CLIENT_SECRET],
    ["wrong client secret", WRONG_CLIENT_SECRET],
    ["builder token", BUILDER_TOKEN],
    ["reader token", READER_TOKEN],
    ["header value (plain input)", HEADER_PLAIN],
    ["header value (secret input)", HEADER_SECRET],
    ["header value (rotated)", HEADER_ROTATED],
    ["header value (echoed by the service)", HEADER_ECHOED],
    ["header value (with a newline)", HEADER_WITH_NEWLINE],
    ["password in a URL", URL_PASSWORD],
  ]);
  proxy.issued.forEach((token, i) => all.set(`OAuth token #${i + 1}`, token));
  [...signatures].forEach((signature, i) => all.set(`Signature #${i + 1}`, signature));
  return all;
}

/** Where each secret appears in `text`, in any of the encodings a log or a file could use. */
function findLeaks(text: string, values: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [label, value] of values) {
    const forms = new Set([
      value,
      JSON.stringify(value).slice(1, -1),
      encodeURIComponent(value),
      Buffer.from(value).toString("base64"),
    ]);
    for (const form of forms) {
      const at = text.indexOf(form);
      if (at >= 0) {
        found.push(`${label} at …${text.slice(Math.max(0, at - 60), at + form.length + 20).replace(/\s+/g, " ")}…`);
        break;
      }
    }
  }
  return found;
}

/** GetAll with a fresh OAuth token (the test expires the fixed Builder token on the way). */
async function live(): Promise<Array<Record<string, unknown>>> {
  return (await emulator.config("GetAllWebhookSubscriptions", { auth: `Bearer ${await issueToken(emulator.url)}` }))
    .json;
}

/** Records the Signatures the service holds now. */
async function noteSignatures(): Promise<void> {
  for (const s of await live()) signatures.add(String(s.Signature));
}

/** Options that keep the console output and every event. */
function watched(): { onOutput: (out: string) => void; onEvent: (event: EngineEvent) => void } {
  return { onOutput: keep, onEvent: (event) => keep(event.diagnosticEvent?.message ?? JSON.stringify(event)) };
}

/**
 * Runs an engine operation at -v=9 with --debug, keeping each event and each log entry (stderr
 * holds one JSON entry a line). The console output renders the same events, multi-line, so the
 * events stand for it.
 */
async function logged<T extends { stderr: string }>(
  run: (options: typeof DEBUG & { onEvent: (event: EngineEvent) => void }) => Promise<T>,
): Promise<T> {
  const result = await run({ ...DEBUG, onEvent: watched().onEvent });
  for (const line of result.stderr.split("\n")) {
    try {
      keep(String((JSON.parse(line) as { msg: unknown }).msg));
    } catch {
      keep(line);
    }
  }
  return result;
}

/** Runs an engine operation that must fail, at default verbosity; returns (and keeps) its error message. */
async function fails(run: (options: ReturnType<typeof watched>) => Promise<unknown>): Promise<string> {
  const message = await run(watched()).then(
    () => "",
    (err: Error) => err.message,
  );
  expect(message, "the operation should have failed").not.toBe("");
  keep(message);
  return message;
}

function program(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, args] of Object.entries(desired)) {
    const sub = new WebhookSubscription(name, args);
    out[`${name}Signature`] = sub.signature;
    out[`${name}Header`] = sub.customHeaderValue;
  }
  return Promise.resolve(out);
}

async function setSettings(settings: ConfigMap): Promise<void> {
  await stack.removeAllConfig(["webhooks:token", "webhooks:clientId", "webhooks:clientSecret", "webhooks:tokenUrl"]);
  await stack.setAllConfig(settings);
}

const oauth = (): ConfigMap => ({
  "webhooks:clientId": { value: "dev-client" },
  "webhooks:clientSecret": { value: CLIENT_SECRET, secret: true },
  "webhooks:tokenUrl": { value: proxy.tokenUrl },
});

/** Every file under `root`, as text. */
function filesUnder(root: string): Array<{ path: string; text: string }> {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((f) => join(root, f))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  proxy = await startTokenProxy(emulator.url);
  dir = workDir("secrets");
  desired = {
    plain: {
      webhook: "PacketCreated",
      filterObjectGuid: PACKET,
      filterObjectType: 2,
      subscriberUrl: "https://hooks.example.com/plain",
      customHeader: "X Api Key",
      customHeaderValue: HEADER_PLAIN,
    },
    secret: {
      webhook: "NewCommunication",
      filterObjectGuid: PACKET,
      filterObjectType: 2,
      subscriberUrl: "https://hooks.example.com/secret",
      customHeader: "X Api Key",
      customHeaderValue: pulumi.secret(HEADER_SECRET),
    },
    bare: { webhook: "BusinessObjectCreated", filterObjectType: 7, subscriberUrl: "https://hooks.example.com/bare" },
  };
  stack = await openStack({
    engine: requireEngine(),
    backendDir: join(dir, "state"),
    stackName: "secrets",
    workDir: dir,
    projectName: "secrets",
    program,
    config: { "webhooks:baseUrl": { value: emulator.url }, ...oauth() },
  });
});
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

describe("no plaintext secret anywhere", () => {
  it("runs preview, up, refresh, an update and a replacement (the last three at -v=9 --debug)", async () => {
    await stack.preview(watched());
    const up = await logged((options) => stack.up(options));
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(up.outputs.plainHeader!.secret).toBe(true);
    await noteSignatures();
    await logged((options) => stack.refresh(options));
    desired.plain = {
      ...desired.plain!,
      subscriberUrl: "https://hooks.example.com/plain/v2",
      customHeaderValue: HEADER_ROTATED,
    };
    desired.bare = { ...desired.bare!, webhook: "BusinessObjectTypeUpdated" };
    const update = await logged((options) => stack.up(options));
    expect(update.summary.resourceChanges).toMatchObject({ update: 1, replace: 1 });
    await noteSignatures();
    expect(signatures.size).toBe(4);
    expect(proxy.issued.length).toBeGreaterThan(0);
  });

  it("keeps secrets out of check failures (a secret with a newline, a password in a URL)", async () => {
    const saved = desired;
    desired = {
      ...saved,
      broken: {
        webhook: 3,
        filterObjectType: 7,
        subscriberUrl: "https://hooks.example.com/b",
        customHeader: "X-Key",
        customHeaderValue: pulumi.secret(`${HEADER_WITH_NEWLINE}\n`),
      },
    };
    expect(await fails((o) => stack.preview(o))).toMatch(/customHeaderValue must not contain line breaks/);
    desired = {
      ...saved,
      broken: { webhook: 3, filterObjectType: 7, subscriberUrl: `https://ops:${URL_PASSWORD}@hooks.example.com/b` },
    };
    expect(await fails((o) => stack.up(o))).toMatch(/subscriberUrl must not embed credentials/);
    desired = saved;
  });

  it("keeps secrets out of service errors that echo them, and out of a response cut short", async () => {
    // The service's validation message quotes the header value it was sent.
    const echo = JSON.stringify({
      Result: null,
      Messages: [
        {
          IsError: true,
          MessageDescription: `CustomHeaderValue '${HEADER_ECHOED}' is not allowed`,
          Parameters: [HEADER_ECHOED],
          RelatedObjectType: 990,
          MessageID: 7,
        },
      ],
    });
    await emulator.admin("PUT", "/faults", [
      { operation: "SubscribeToWebhook", kind: "status", status: 400, body: echo },
    ]);
    const saved = desired;
    desired = {
      ...saved,
      echoed: {
        webhook: 3,
        filterObjectType: 9,
        subscriberUrl: "https://hooks.example.com/echo",
        customHeader: "X-Key",
        customHeaderValue: HEADER_ECHOED,
      },
    };
    expect(await fails((o) => stack.up(o))).toMatch(/is not allowed/);
    desired = saved;

    // GetAll answers 200 with a body cut off mid-way: the part that arrived holds Signatures and header values.
    const full = JSON.stringify(await live());
    await emulator.admin("PUT", "/faults", [
      { operation: "GetAllWebhookSubscriptions", kind: "status", status: 200, body: full.slice(0, full.length - 40) },
    ]);
    expect(await fails((o) => stack.refresh(o))).toMatch(/GetAllWebhookSubscriptions/);
    await emulator.admin("DELETE", "/faults");
  });

  it("keeps credentials out of authentication errors (reader token, wrong client secret, expired token)", async () => {
    desired = { ...desired, plain: { ...desired.plain!, subscriberUrl: "https://hooks.example.com/plain/v3" } };
    await setSettings({ "webhooks:token": { value: READER_TOKEN, secret: true } });
    expect(await fails((o) => stack.up(o))).toMatch(/403/);
    await setSettings({ ...oauth(), "webhooks:clientSecret": { value: WRONG_CLIENT_SECRET, secret: true } });
    expect(await fails((o) => stack.up(o))).toMatch(/401|invalid_client/);
    await setSettings({ "webhooks:token": { value: BUILDER_TOKEN, secret: true } });
    await emulator.admin("POST", `/tokens/${BUILDER_TOKEN}/expire`);
    expect(await fails((o) => stack.up(o))).toMatch(/401/);
    await setSettings(oauth());
    // Without the program, destroy would configure the provider from the state: with the expired token.
    const destroy = await stack.destroy({ ...watched(), runProgram: true });
    expect(destroy.summary.result).toBe("succeeded");
    expect(await live()).toEqual([]);
  });

  it("finds what it looks for: planted secrets, and the secrets of a --show-secrets export", async () => {
    const all = secrets();
    expect(findLeaks(`noise ${[...signatures][0]} noise`, all)).toHaveLength(1);
    expect(findLeaks(JSON.stringify({ v: `x${HEADER_SECRET}\n` }), all)).toHaveLength(1);
    expect(findLeaks(Buffer.from(CLIENT_SECRET).toString("base64"), all)).toHaveLength(1);
    // Pulumi's own dumps, set apart below, are found too.
    expect(entries.filter((e) => e.upstream && findLeaks(e.text, all).length > 0).length).toBeGreaterThan(0);
    // The decrypted export of a stack with a live subscription holds its Signature and header value,
    // and the provider's client secret from the stack config.
    desired = {
      again: {
        webhook: 3,
        filterObjectType: 11,
        subscriberUrl: "https://hooks.example.com/again",
        customHeader: "X-Key",
        customHeaderValue: HEADER_SECRET,
      },
    };
    await stack.up(watched());
    await noteSignatures();
    const decrypted = JSON.stringify(await stack.exportStack());
    expect(
      findLeaks(decrypted, secrets())
        .map((l) => l.split(" at ")[0])
        .sort(),
    ).toEqual(["Signature #5", "client secret", "header value (secret input)"]);
    await stack.destroy(watched());
  });

  it("holds no plaintext secret in output, events, logs, errors, the files at rest or `pulumi stack export`", async () => {
    const engine = requireEngine();
    const { stdout: exported } = await promisify(execFile)(
      join(engine.binDir, "pulumi"),
      ["stack", "export", "--stack", "secrets"],
      {
        cwd: dir,
        env: { ...process.env, ...engineEnv(engine, join(dir, "state")) },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const files = filesUnder(dir);
    const all = secrets();
    const leaks = [
      ...entries.filter((e) => !e.upstream).flatMap((e) => findLeaks(e.text, all)),
      ...findLeaks(exported, all).map((l) => `pulumi stack export: ${l}`),
      ...files.flatMap((f) => findLeaks(f.text, all).map((l) => `${f.path.slice(dir.length + 1)}: ${l}`)),
    ];
    const upstream = entries.filter((e) => e.upstream && findLeaks(e.text, all).length > 0);
    const size = entries.reduce((n, e) => n + e.text.length, 0);
    console.log(
      `[secrets] searched ${entries.length} entries (${(size / 1e6).toFixed(1)} MB) of output, events, -v=9 logs and errors, ${files.length} files at rest ` +
        `and the export, for ${all.size} secrets (${signatures.size} Signatures, ${proxy.issued.length} OAuth tokens): ${leaks.length} leak(s); ` +
        `Pulumi's own dumps holding secrets (upstream): ${upstream.length}`,
    );
    expect(leaks).toEqual([]);
    // The logs really are verbose, or the search proves little.
    expect(entries.some((e) => e.text.startsWith("Marshaling property for RPC"))).toBe(true);
  });
});
