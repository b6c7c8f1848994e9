/**
 * The receiver example end to end on the real engine (issue 9): `up` examples/receiver against
 * the emulator, hand its secret `signature` output to the example receiver, trigger an event
 * through the emulator's admin API, and check that the genuine message is accepted while
 * forged and unsigned ones get 401. Needs a fresh `dist/` (`npx tsc -p .`): the example imports
 * the package by name, as a user's program would.
 */
import { execFile } from "node:child_process";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { startReceiver, type RunningReceiver } from "../../examples/receiver/server";
import { engineEnv, openStack } from "../../engine/automation";
import { freePort } from "../support/freePort";
import { REPO_ROOT, requireEngine, workDir } from "../support/engine";

const execFileAsync = promisify(execFile);
const EXAMPLE_DIR = resolve(REPO_ROOT, "examples", "receiver");
/** Files a developer may have left in the example by following its README: stack config and state. */
const LOCAL_FILES = /^(Pulumi\..+\.yaml|\.pulumi-state|node_modules)$/;
const PACKET = "0f8fad5b-d9cb-469f-a165-70867728950e";
const HEADER_VALUE = "receiver-e2e-header-value";

/** POSTs a message to the receiver as an attacker would: with headers of our choosing. */
async function post(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ Webhook: 0 }),
  });
  return { status: response.status, text: (await response.text()).trim() };
}

async function fireEvent(emulator: RunningEmulator): Promise<{
  deliveries: {
    SubscriptionGUID: string;
    SubscriberURL: string;
    status: number | null;
    error: string | null;
    attempts: number;
  }[];
}> {
  const response = await fetch(`${emulator.url}/_emulator/events`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ Webhook: 0, ObjectGUID: PACKET }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Awaited<ReturnType<typeof fireEvent>>;
}

let emulator: RunningEmulator | undefined;
let receiver: RunningReceiver | undefined;
afterAll(async () => {
  await receiver?.close();
  await emulator?.close();
});

describe("examples/receiver", () => {
  it("accepts the genuine message and rejects forged and unsigned ones", async () => {
    const engine = requireEngine();
    emulator = await startEmulator({ port: 0 });
    const port = await freePort();
    const hookUrl = `http://127.0.0.1:${port}/hooks`;

    // A copy, so stack files and state never land in the repository.
    const dir = workDir("receiver");
    cpSync(EXAMPLE_DIR, dir, { recursive: true, filter: (source) => !LOCAL_FILES.test(basename(source)) });
    const backendDir = join(dir, ".state");
    const connection = { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" };
    const stack = await openStack({
      engine,
      backendDir,
      stackName: "dev",
      workDir: dir,
      env: connection,
      config: {
        "receiver:url": { value: hookUrl },
        "receiver:packetGuid": { value: PACKET },
        "receiver:headerValue": { value: HEADER_VALUE, secret: true },
      },
    });

    const up = await stack.up({ onOutput: (line) => process.stdout.write(line) });
    expect(up.summary.result).toBe("succeeded");
    const signature = up.outputs.signature;
    expect(signature?.secret).toBe(true);
    expect(typeof signature?.value).toBe("string");
    const guid = up.outputs.guid?.value as string;
    expect(up.outputs.customHeader?.value).toBe("X-Receiver-Key");

    // The documented hand-over: the CLI shows the secret only when asked to.
    const cli = (stack.workspace as LocalWorkspace).pulumiCommand.command;
    const cliOptions = { cwd: dir, env: { ...process.env, ...engineEnv(engine, backendDir, connection) } };
    const shown = await execFileAsync(
      cli,
      ["stack", "output", "signature", "--show-secrets", "--stack", "dev"],
      cliOptions,
    );
    expect(shown.stdout.trim()).toBe(signature?.value);
    const hidden = await execFileAsync(cli, ["stack", "output", "signature", "--stack", "dev"], cliOptions);
    expect(hidden.stdout.trim()).toBe("[secret]");
    // Nor is it readable in the state on disk (exportStack would decrypt it).
    const stateFiles = readdirSync(backendDir, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    );
    expect(stateFiles.some((entry) => entry.name === "dev.json")).toBe(true);
    for (const entry of stateFiles)
      expect(readFileSync(join(entry.parentPath, entry.name), "utf8")).not.toContain(signature?.value as string);

    const rejections: string[] = [];
    receiver = await startReceiver({
      port,
      signatures: signature?.value as string,
      customHeader: { name: up.outputs.customHeader?.value as string, value: HEADER_VALUE },
      log: (line) => rejections.push(line),
    });

    // Genuine: the emulator delivers with the signature and the custom header.
    const event = await fireEvent(emulator);
    expect(event.deliveries).toEqual([
      { SubscriptionGUID: guid, SubscriberURL: hookUrl, status: 204, error: null, attempts: 1 },
    ]);
    expect(receiver.received).toHaveLength(1);
    const [message] = receiver.received;
    expect(message?.path).toBe("/hooks");
    expect(message?.headers["x-service-signature"]).toBe(signature?.value);
    expect(message?.headers["x-receiver-key"]).toBe(HEADER_VALUE);
    expect(message?.body).toMatchObject({
      Webhook: 0,
      WebhookName: "PacketCreated",
      ObjectGUID: PACKET,
      SubscriptionGUID: guid,
    });

    // Forged: a value of the right shape and length, with the right custom header.
    const forgedSignature = (signature?.value as string).replace(/[0-9a-f]/g, (c) => (c === "0" ? "1" : "0"));
    expect(forgedSignature).not.toBe(signature?.value);
    expect(
      await post(receiver.url, { "x-service-signature": forgedSignature, "x-receiver-key": HEADER_VALUE }),
    ).toEqual({ status: 401, text: "" });
    // Unsigned.
    expect(await post(receiver.url, { "x-receiver-key": HEADER_VALUE })).toEqual({ status: 401, text: "" });
    // The right signature is not enough without the custom header's value.
    expect(
      await post(receiver.url, { "x-service-signature": signature?.value as string, "x-receiver-key": "guess" }),
    ).toEqual({ status: 401, text: "" });
    // Every refusal is the same bare 401; the reason is in the receiver's own log only.
    expect(receiver.received).toHaveLength(1);
    expect(rejections.map((line) => line.split(": ")[1])).toEqual([
      "MISMATCH",
      "MISSING_HEADER",
      "CUSTOM_HEADER_MISMATCH",
    ]);
    for (const line of rejections) {
      expect(line).not.toContain(signature?.value as string);
      expect(line).not.toContain(forgedSignature);
    }

    const destroy = await stack.destroy({ onOutput: (line) => process.stdout.write(line) });
    expect(destroy.summary.result).toBe("succeeded");
    // The subscription is gone: the next event reaches nobody.
    expect((await fireEvent(emulator)).deliveries).toEqual([]);
  });
});
