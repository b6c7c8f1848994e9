/**
 * The behaviours that matter, each written once and run against every front door (issue 23,
 * "Conformance across front doors"): the program is the door's, the commands are plain
 * `pulumi`, and each scenario proves its behaviour on the emulator's live subscriptions and
 * counters and on the stack's state. Each starts on an emptied instance with a stack of its own;
 * `pulumi destroy` runs where it proves something (a moved instance, the legacy API).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Conformance } from "./context";
import { TOKEN } from "./context";
import type { Declared } from "./frontDoor";
import { errors, FAILED, shown, steps, type Operation } from "./stack";

/** One behaviour, proven on one front door. */
export interface Scenario {
  readonly name: string;
  run(c: Conformance): Promise<void>;
}

const PACKET = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
const HOOKS = "https://hooks.example.com/conformance";

/** An object-scoped subscription at `${HOOKS}/<path>`. */
const packetCreated = (path: string, extra: Partial<Declared> = {}): Declared => ({
  webhook: 0,
  filterObjectType: 2,
  filterObjectGuid: PACKET,
  subscriberUrl: `${HOOKS}/${path}`,
  ...extra,
});

/** A type-scoped subscription at `${HOOKS}/<path>`. */
const objectCreated = (path: string, extra: Partial<Declared> = {}): Declared => ({
  webhook: 3,
  filterObjectType: 7,
  subscriberUrl: `${HOOKS}/${path}`,
  ...extra,
});

/** The GUIDs the instance holds. */
async function liveGuids(c: Conformance): Promise<string[]> {
  return (await c.service.all()).map((s) => s.GUID).sort();
}

/** Every file of the backend, and the stack's config file, as text: what is kept at rest. */
function filesAtRest(c: Conformance, stack: string): string[] {
  return readdirSync(c.backend, { recursive: true, encoding: "utf8" })
    .map((file) => join(c.backend, file))
    .filter((path) => statSync(path).isFile())
    .concat(join(c.project, `Pulumi.${stack}.yaml`))
    .map((path) => readFileSync(path, "utf8"));
}

/** `pulumi destroy`, after which the instance holds nothing. */
async function destroyAll(c: Conformance, stack: { destroy(): Promise<Operation> }): Promise<void> {
  await stack.destroy();
  expect(await c.service.all(), "the instance after pulumi destroy").toEqual([]);
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "no duplicate after a lost Subscribe response",
    async run(c) {
      const stack = await c.stack("lost-response");
      c.declare({ orders: packetCreated("lost-response") });
      // The Subscribe is committed, then its connection reset: the provider never sees the answer.
      await c.service.admin("PUT", "/faults", [
        { operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 1 },
      ]);
      await stack.up();

      const stats = await c.stats();
      expect(stats.faults).toEqual({ "reset-after-commit": 1 });
      // It looked before sending again, and found the one its lost Subscribe made.
      expect(stats.requests.SubscribeToWebhook).toBe(1);
      const live = await c.service.all();
      expect(live).toHaveLength(1);
      expect(await stack.one("orders")).toMatchObject({ guid: live[0]!.GUID, signature: live[0]!.Signature });
    },
  },
  {
    name: "one owner per subscription (its own beside an identical one, adoptGuid, the adoptIdentical opt-in)",
    async run(c) {
      const declared = objectCreated("adopt", { customHeader: "X-Api-Key", customHeaderValue: "declared-value" });
      const body = {
        Webhook: 3,
        FilterObjectType: 7,
        SubscriberURL: declared.subscriberUrl,
        CustomHeader: "X-Api-Key",
      };
      const made = await c.service.subscribe({ ...body, CustomHeaderValue: "out-of-band-value" });
      const stack = await c.stack("adopt");

      // The default: not taken over. Its own subscription beside it, and a warning naming the identical GUID.
      c.declare({ twin: declared });
      const own = await stack.up();
      const warning = shown(own).join("\n");
      expect(warning).toMatch(new RegExp(`an identical subscription already exists on \\S+ \\(${made.GUID};`));
      expect(warning).toContain(`adoptGuid: "${made.GUID}"`);
      const ownGuid = (await stack.one("twin")).guid;
      expect(ownGuid).not.toBe(made.GUID);
      expect(await liveGuids(c)).toEqual([made.GUID, ownGuid].sort());
      expect((await c.stats()).requests.SubscribeToWebhook).toBe(2);

      // adoptGuid: taken over with its GUID and Signature, brought to the declared header value;
      // the subscription it had made is replaced, so deleted.
      c.declare({ twin: { ...declared, adoptGuid: made.GUID } });
      await stack.up();
      expect(await stack.one("twin")).toMatchObject({ guid: made.GUID, signature: made.Signature });
      expect(await c.service.all()).toEqual([
        expect.objectContaining({ GUID: made.GUID, CustomHeaderValue: "declared-value" }),
      ]);

      // adoptIdentical true (the recovery opt-in): an identical unmanaged one is adopted, with a warning people see.
      await stack.config("webhooks:adoptIdentical", "true");
      const other = await c.service.subscribe({ Webhook: 3, FilterObjectType: 7, SubscriberURL: `${HOOKS}/adopt-2` });
      c.declare({ twin: { ...declared, adoptGuid: made.GUID }, second: objectCreated("adopt-2") });
      const adopted = await stack.up();
      expect(shown(adopted).join("\n")).toContain(`adopted the existing identical subscription ${other.GUID}`);
      expect(await stack.one("second")).toMatchObject({ guid: other.GUID, signature: other.Signature });
      expect(await liveGuids(c)).toEqual([made.GUID, other.GUID].sort());
      expect((await c.stats()).requests.SubscribeToWebhook).toBe(3);
    },
  },
  {
    name: "instance recorded, and found again after it moved to a new address",
    async run(c) {
      // The address from the environment, as `npm start` gives its embedded emulator's: read when
      // the provider runs. (Stack config is recorded as the provider's inputs, and a plain
      // `pulumi refresh` runs the provider with the recorded ones: it would ask the old address.)
      const stack = await c.stack("move", {}, "environment");
      c.declare({ moved: objectCreated("move") });
      await stack.up();
      const before = await stack.one("moved");
      expect(before.baseUrl).toBe(c.service.url);

      const oldUrl = c.service.url;
      await c.move();
      expect(c.service.url).not.toBe(oldUrl);
      stack.setEnv("WEBHOOKS_BASE_URL", c.service.url);

      // Refresh finds it at the new address and records that address; nothing is replaced.
      await stack.refresh();
      expect(await stack.one("moved")).toMatchObject({
        guid: before.guid,
        signature: before.signature,
        baseUrl: c.service.url,
      });
      const preview = await stack.operation("preview");
      expect(steps(preview).filter((step) => step.endsWith(" moved"))).toEqual(["same moved"]);
      const { requests } = await c.stats();
      for (const write of ["SubscribeToWebhook", "UpdateWebhookSubscription", "Unsubscribe"])
        expect(requests[write] ?? 0, write).toBe(0);
      expect(await liveGuids(c)).toEqual([before.guid]);
      await destroyAll(c, stack);

      // The address in stack config (docs/multi-instance.md): after `pulumi config set` to the new
      // address, a plain refresh still asks the recorded one and fails; `--run-program` finds it.
      const configured = await c.stack("move-config");
      await configured.up();
      const recorded = await configured.one("moved");
      await c.move();
      await configured.config("webhooks:baseUrl", c.service.url);
      const plain = await configured.operation("refresh", [], 1);
      expect(plain.stdout + plain.stderr).toContain(new URL(recorded.baseUrl).host);
      await configured.operation("refresh", ["--run-program"]);
      expect(await configured.one("moved")).toMatchObject({ guid: recorded.guid, baseUrl: c.service.url });
      await destroyAll(c, configured);
    },
  },
  {
    name: "signature rotation: a new subscription before the old one goes",
    async run(c) {
      const stack = await c.stack("rotation");
      c.declare({ rotated: packetCreated("rotation", { rotation: "2026-11" }) });
      await stack.up();
      const old = await stack.one("rotated");

      c.declare({ rotated: packetCreated("rotation", { rotation: "2027-01" }) });
      const up = await stack.up();
      expect(shown(up).join("\n")).toContain("the update replaces it (rotation changed), so its Signature will change");
      const order = steps(up);
      expect(order).toContain("create-replacement rotated");
      expect(order.indexOf("create-replacement rotated")).toBeLessThan(order.indexOf("delete-replaced rotated"));
      const now = await stack.one("rotated");
      expect(now.guid).not.toBe(old.guid);
      expect(now.signature).not.toBe(old.signature);
      expect(now.outputs.rotation).toBe("2027-01");
      expect(await c.service.all()).toEqual([expect.objectContaining({ GUID: now.guid, Signature: now.signature })]);
    },
  },
  {
    name: "legacy mode (2024.1): a change replaces, never updates",
    async run(c) {
      const stack = await c.stack("legacy", { "webhooks:apiVersion": "2024.1" });
      c.declare({ legacy: packetCreated("legacy/v1") });
      await stack.up();
      const first = await stack.one("legacy");
      expect(await liveGuids(c)).toEqual([first.guid]);

      c.declare({ legacy: packetCreated("legacy/v2") });
      const up = await stack.up();
      expect(steps(up)).toEqual(expect.arrayContaining(["create-replacement legacy", "delete-replaced legacy"]));
      const now = await stack.one("legacy");
      expect(now.guid).not.toBe(first.guid);
      expect(await c.service.all()).toEqual([
        expect.objectContaining({ GUID: now.guid, SubscriberURL: `${HOOKS}/legacy/v2` }),
      ]);
      const { requests } = await c.stats();
      expect(requests).toMatchObject({ SubscribeToWebhook: 2, Unsubscribe: 1 });
      expect(requests.UpdateWebhookSubscription ?? 0).toBe(0);
      await destroyAll(c, stack);
    },
  },
  {
    name: "refresh drops a subscription only on a confirmed 404",
    async run(c) {
      const stack = await c.stack("gone");
      c.declare({ kept: objectCreated("kept"), gone: objectCreated("gone") });
      await stack.up();
      const gone = await stack.one("gone");
      const unsubscribed = await c.service.config("Unsubscribe", { query: { webHookSubscriptionGUID: gone.guid } });
      expect(unsubscribed.status).toBe(200);

      // A refused read is not "gone": the refresh fails and the state keeps it.
      await c.service.admin("PUT", "/faults", [
        { operation: "GetWebhookSubscription", kind: "status", status: 403, count: 1 },
      ]);
      await stack.refresh(FAILED);
      expect((await stack.recorded()).map((r) => r.name).sort()).toEqual(["gone", "kept"]);

      await stack.refresh();
      expect((await stack.recorded()).map((r) => r.name)).toEqual(["kept"]);
      expect((await c.stats()).status["404"]).toBeGreaterThanOrEqual(1);
    },
  },
  {
    name: "redaction: no secret in plaintext in state, output or errors",
    async run(c) {
      const header = "hv-conformance-5f2c81d0e4";
      const badHeader = "hv-newline-93b7e0c2a1";
      const stack = await c.stack("redaction");
      c.declare({ secretive: packetCreated("redaction", { customHeader: "X-Api-Key", customHeaderValue: header }) });
      await stack.up();
      const signature = (await c.service.all())[0]!.Signature as string;

      const exported = await stack.exported();
      const state = JSON.parse(exported) as {
        deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] };
      };
      const [recorded] = state.deployment.resources.filter((r) => r.type === c.door.type);
      const ciphertext = { ciphertext: expect.any(String) };
      expect(recorded?.outputs).toMatchObject({ signature: ciphertext, customHeaderValue: ciphertext });
      const outputs = JSON.parse((await stack.pulumi(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
      expect(outputs.secretiveSignature).toBe("[secret]");

      // A value the check refuses: the message names the field, never the value.
      c.declare({
        secretive: packetCreated("redaction", { customHeader: "X-Api-Key", customHeaderValue: header }),
        broken: packetCreated("redaction-bad", { customHeader: "X-Api-Key", customHeaderValue: `${badHeader}\nx` }),
      });
      const refused = await stack.operation("preview", [], FAILED);
      expect(errors(refused).join("\n")).toMatch(/customHeaderValue/);

      const everything = [
        exported,
        ...stack.operations.flatMap((o) => [o.stdout, o.stderr, ...shown(o)]),
        ...filesAtRest(c, stack.name),
      ].join("\n");
      for (const [label, value] of Object.entries({ header, badHeader, signature, token: TOKEN }))
        expect(everything.includes(value), `${label} in plaintext`).toBe(false);
    },
  },
];
