/**
 * Signature rotation as code, on the real engine: a fleet whose `rotation` comes from one
 * stack-config value is rotated by changing that value. Preview warns for every subscription;
 * `up` creates each new subscription before deleting the old one; a receiver that accepts the
 * old and the new signatures (published by the program as soon as the new subscription exists)
 * refuses no genuine delivery before, during or after the overlap.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { WebhookSubscription, verifySignature } from "pulumi-webhook-subscriptions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";

const PACKETS = [
  "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a01",
  "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a02",
  "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a03",
];

/** A receiver as a user would write it: verifySignature against every signature it currently accepts. */
class Receiver {
  /** Signatures published to the receiver (in real life: a secret store it reads). */
  readonly accepted = new Set<string>();
  readonly verdicts: number[] = [];
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response) => {
      request.resume();
      request.on("end", () => {
        const status = verifySignature(request.headers, [...this.accepted]) ? 200 : 401;
        this.verdicts.push(status);
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, "127.0.0.1", done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

let emulator: EmulatorHarness;
const receiver = new Receiver();
let stack: Stack;
/** Deliveries fired while an `up` runs, right after each new signature was published. */
const during: Delivery[] = [];
let fireWhenPublished = false;

interface Delivery {
  SubscriptionGUID: string;
  status: number | null;
}

/** An event for one work item, through the emulator's admin API; the deliveries it made. */
async function fire(packet: string): Promise<Delivery[]> {
  const result = await emulator.admin("POST", "/events", { Webhook: 0, ObjectGUID: packet });
  expect(result.status).toBe(200);
  return result.json.deliveries as Delivery[];
}

/** The fleet: one subscription per work item, all rotated by the stack's `rotation` config value. */
function program(): Promise<Record<string, unknown>> {
  const rotation = new pulumi.Config("fleet").require("rotation");
  const guids: Record<string, pulumi.Output<string>> = {};
  const fired: pulumi.Output<number>[] = [];
  PACKETS.forEach((packet, index) => {
    const sub = new WebhookSubscription(`packet-${index}`, {
      webhook: "PacketCreated",
      filterObjectType: 2,
      filterObjectGuid: packet,
      subscriberUrl: receiver.url,
      rotation,
    });
    // Publishing the signature to the receiver is part of the program, so it happens as soon
    // as the new subscription exists — before the engine deletes the replaced one.
    // Exported, so the program (and so the up) waits for the firing before any delete.
    fired.push(
      sub.signature.apply(async (signature) => {
        receiver.accepted.add(signature);
        if (!fireWhenPublished) return 0;
        const deliveries = await fire(packet);
        during.push(...deliveries);
        return deliveries.length;
      }),
    );
    guids[`packet-${index}`] = sub.guid;
  });
  return Promise.resolve({ guids, fired });
}

/** Diagnostics and the order of resource steps of one engine operation. */
function recorder() {
  const messages: string[] = [];
  const steps: string[] = [];
  return {
    messages,
    steps,
    onEvent(event: EngineEvent) {
      if (event.diagnosticEvent) messages.push(event.diagnosticEvent.message);
      const meta = event.resOutputsEvent?.metadata;
      if (meta) steps.push(`${meta.op} ${meta.urn.split("::").pop()}`);
    },
  };
}

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  await receiver.start();
  const dir = workDir("rotation");
  stack = await openStack({
    engine: requireEngine(),
    backendDir: join(dir, "state"),
    stackName: "rotation",
    workDir: dir,
    projectName: "rotation-e2e",
    program,
    config: {
      "webhooks:baseUrl": { value: emulator.url },
      "webhooks:token": { value: "dev-builder", secret: true },
      "fleet:rotation": { value: "2026-11" },
    },
  });
});
afterAll(async () => {
  await stack?.destroy().catch(() => undefined);
  await receiver.close();
  await emulator?.close();
});

describe("rotating a fleet's signatures by changing one stack-config value", () => {
  it("warns at preview, creates before deleting, and no genuine delivery is refused", async () => {
    const first = await stack.up();
    const oldGuids = Object.values(first.outputs.guids!.value as Record<string, string>);
    const oldSignatures = new Set(receiver.accepted);
    expect(oldSignatures.size).toBe(PACKETS.length);
    const before = (await Promise.all(PACKETS.map(fire))).flat();
    expect(before.map((d) => d.status)).toEqual([200, 200, 200]);

    await stack.setConfig("fleet:rotation", { value: "2027-01" });

    // Preview: one warning per subscription, naming it (event + object + URL), changing nothing.
    const preview = recorder();
    await stack.preview({ onEvent: preview.onEvent });
    for (const packet of PACKETS)
      expect(preview.messages.join("\n")).toContain(
        `warning: PacketCreated on ${packet} → ${receiver.url}: the update replaces it (rotation changed), so its Signature will change.`,
      );
    expect(preview.messages.join("\n")).toContain("receivers must accept both the old and the new Signature");
    expect((await emulator.all()).map((s) => s.GUID).sort()).toEqual([...oldGuids].sort());

    // Up: each new subscription is published and fired at while the old one still exists.
    const up = recorder();
    fireWhenPublished = true;
    const second = await stack.up({ onEvent: up.onEvent });
    fireWhenPublished = false;
    const newGuids = Object.values(second.outputs.guids!.value as Record<string, string>);

    // Per subscription, the promise is create before delete; the order across subscriptions is the engine's.
    for (const name of PACKETS.map((_, index) => `packet-${index}`)) {
      expect(up.steps).toContain(`create-replacement ${name}`);
      expect(up.steps).toContain(`delete-replaced ${name}`);
      expect(up.steps.indexOf(`create-replacement ${name}`)).toBeLessThan(up.steps.indexOf(`delete-replaced ${name}`));
    }
    // Every overlap event reached both the old and the new subscription of its work item.
    expect(during.map((d) => d.SubscriptionGUID).sort()).toEqual([...oldGuids, ...newGuids].sort());
    expect(during.map((d) => d.status)).toEqual(during.map(() => 200));

    // After: only the new subscriptions are left and deliver; still accepted.
    expect((await emulator.all()).map((s) => s.GUID).sort()).toEqual([...newGuids].sort());
    const after = (await Promise.all(PACKETS.map(fire))).flat();
    expect(after.map((d) => d.status)).toEqual([200, 200, 200]);
    expect(newGuids.filter((guid) => oldGuids.includes(guid))).toEqual([]);

    // Zero refused genuine deliveries, over 3 + 6 + 3 messages.
    expect(receiver.verdicts).toHaveLength(12);
    expect(receiver.verdicts.filter((status) => status !== 200)).toEqual([]);
  });
});
