/**
 * The dynamic provider's methods called directly against the real emulator: every branch of
 * create (adoption, reconciliation, legacy confirmation), read, update and delete.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as runtime from "../../provider/dynamic/runtime";
import { checkInputs, type SubscriptionInputs } from "../../provider/core/inputs";
import { createProvider } from "../../provider/core/lifecycle";
import { createdOutputs, PACKET } from "../support/createdOutputs";
import { EmulatorHarness, objectScopedBody, typeScopedBody } from "../support/emulatorHarness";

let emulator: EmulatorHarness;
let legacyOnly: EmulatorHarness;

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  legacyOnly = await EmulatorHarness.start({ legacyOnly: true });
});
afterAll(async () => {
  await emulator.close();
  await legacyOnly.close();
});
beforeEach(async () => {
  await emulator.reset();
  await legacyOnly.reset();
  configure(emulator.url);
});

/** The recovery opt-in of docs/large-fleets.md. */
const ADOPT = { "webhooks:adoptIdentical": "true" };

/** Configures the provider as the host would, from stack config. */
function configure(baseUrl: string, extra: Record<string, string> = {}): void {
  const config: Record<string, string> = { "webhooks:baseUrl": baseUrl, "webhooks:token": "dev-builder", ...extra };
  void runtime.configure({ config: { get: (key) => config[key] } });
}

function inputs(overrides: Partial<SubscriptionInputs> = {}): SubscriptionInputs {
  return {
    webhook: 0,
    filterObjectType: 2,
    filterObjectGuid: PACKET,
    subscriberUrl: "https://hooks.example.com/orders",
    customHeader: "X-Api-Key",
    customHeaderValue: "k1",
    ...overrides,
  };
}

/** Subscribes directly on the service to what `inputs()` describes (same natural key), with `headerValue`. */
function subscribeIdentical(headerValue: string) {
  return emulator.subscribe(
    objectScopedBody(0, PACKET, {
      FilterObjectType: 2,
      SubscriberURL: "https://hooks.example.com/orders",
      CustomHeader: "X-Api-Key",
      CustomHeaderValue: headerValue,
    }),
  );
}

async function stats(on = emulator): Promise<{ requests: Record<string, number> }> {
  return (await on.admin("GET", "/stats")).json;
}

describe("create", () => {
  it("subscribes and returns every output, nothing undefined", async () => {
    const { id, outs } = await runtime.create(inputs());
    expect(outs).toEqual(
      createdOutputs({
        guid: id,
        signature: expect.stringMatching(/^[0-9a-f-]{36}$/),
        baseUrl: emulator.url.replace(/\/$/, ""),
      }),
    );
    expect(Object.values(outs!).every((v) => v !== undefined)).toBe(true);
    expect(await emulator.all()).toHaveLength(1);
  });

  it("reconciles a Subscribe whose response was lost: no duplicate", async () => {
    await emulator.admin("PUT", "/faults", [{ operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 1 }]);
    const { id } = await runtime.create(inputs());
    const all = await emulator.all();
    expect(all.map((s) => s.GUID)).toEqual([id]);
  });

  it("retries a Subscribe that never reached the service: exactly one created", async () => {
    await emulator.admin("PUT", "/faults", [
      { operation: "SubscribeToWebhook", kind: "reset-before-commit", count: 2 },
    ]);
    const { id } = await runtime.create(inputs());
    expect((await emulator.all()).map((s) => s.GUID)).toEqual([id]);
  });

  it("a rotation creates a new subscription beside the identical one being rotated away", async () => {
    // As the engine runs a replacement: diff of the old resource, then create of the new one.
    const old = await runtime.create(inputs({ rotation: "2026-12" }));
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await runtime.diff(old.id, old.outs!, inputs({ rotation: "2027-01" }))).replaces).toEqual(["rotation"]);
    const { id, outs } = await runtime.create(inputs({ rotation: "2027-01" }));
    expect(id).not.toBe(old.id);
    expect(outs!.signature).not.toBe(old.outs!.signature);
    expect(outs!.rotation).toBe("2027-01");
    expect(await emulator.all()).toHaveLength(2);
    warn.mockRestore();
  });

  it("reconciles a lost Subscribe answer beside another stack's identical subscription: takes its own, not theirs", async () => {
    const theirs = await subscribeIdentical("theirs");
    await emulator.admin("PUT", "/faults", [{ operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 1 }]);
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const { id } = await runtime.create(inputs());
    warn.mockRestore();
    const all = (await emulator.all()).map((s) => s.GUID.toLowerCase());
    expect(all).toHaveLength(2);
    expect(all).toContain(id);
    expect(id).not.toBe(theirs.GUID.toLowerCase());
  });

  it("with adoptIdentical and a rotation label, adopts the identical orphan of an interrupted run (no duplicate)", async () => {
    configure(emulator.url, ADOPT);
    const orphan = await subscribeIdentical("k1");
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const { id } = await runtime.create(inputs({ rotation: "2027-01" }));
    expect(id).toBe(orphan.GUID.toLowerCase());
    expect(await emulator.all()).toHaveLength(1);
    warn.mockRestore();
  });

  it("a forced replacement that adopted the old subscription does not unsubscribe it (pulumi up --replace skips diff)", async () => {
    configure(emulator.url, ADOPT);
    const old = await runtime.create(inputs());
    configure(emulator.url, ADOPT); // the replacement runs in a later engine operation, as `up --replace` does
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const replacement = await runtime.create(inputs());
    expect(replacement.id).toBe(old.id);
    await runtime.delete(old.id, old.outs!);
    expect((await emulator.all()).map((x) => x.GUID.toLowerCase())).toEqual([old.id]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`${old.id}: not unsubscribed`));
    warn.mockRestore();
  });

  it("with adoptIdentical, adopts an identical orphan instead of creating a duplicate", async () => {
    configure(emulator.url, ADOPT);
    const orphan = await subscribeIdentical("old");
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const { id, outs } = await runtime.create(inputs());
    expect(id).toBe(orphan.GUID.toLowerCase());
    expect(outs!.customHeaderValue).toBe("k1");
    expect(warn.mock.calls.join(" ")).toMatch(/adopted the existing identical subscription/);
    // Per-user visibility (vendor documentation): the warning says what it could not check.
    expect(warn.mock.calls.join(" ")).toContain("only the subscriptions visible to the configured account were seen");
    warn.mockRestore();
    expect(await emulator.all()).toHaveLength(1);
  });

  it("with adoptIdentical, adopts each identical orphan at most once, and never one deleted since the list was read", async () => {
    configure(emulator.url, ADOPT);
    const body = objectScopedBody(0, PACKET, {
      FilterObjectType: 2,
      SubscriberURL: "https://hooks.example.com/orders",
      CustomHeader: "X-Api-Key",
    });
    const orphans = [await emulator.subscribe(body), await emulator.subscribe(body)].map((o) => o.GUID.toLowerCase());
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const first = await runtime.create(inputs());
    expect(orphans).toContain(first.id);
    const other = orphans.find((guid) => guid !== first.id)!;
    await runtime.delete(other);
    const second = await runtime.create(inputs());
    warn.mockRestore();
    expect([first.id, other]).not.toContain(second.id);
    // Both creates looked in the same list.
    expect((await stats()).requests.GetAllWebhookSubscriptions).toBe(1);
    expect((await emulator.all()).map((s) => s.GUID.toLowerCase()).sort()).toEqual([first.id, second.id].sort());
  });

  it("names the closed work item when PacketUpdated is refused", async () => {
    await emulator.admin("PUT", `/work-items/${PACKET}`, { Closed: true });
    await expect(runtime.create(inputs({ webhook: 1 }))).rejects.toThrow(new RegExp(PACKET, "i"));
    expect(await emulator.all()).toHaveLength(0);
  });

  it("adopts by GUID and brings the subscription to the desired state, keeping its Signature", async () => {
    const existing = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://old.example.com/x" }));
    const { id, outs } = await runtime.create(
      inputs({ webhook: 3, filterObjectGuid: undefined, adoptGuid: existing.GUID }),
    );
    expect(id).toBe(existing.GUID);
    expect(outs!.signature).toBe(existing.Signature);
    expect(outs!.subscriberUrl).toBe("https://hooks.example.com/orders");
    expect(outs!.adoptGuid).toBe(existing.GUID);
    expect(await emulator.all()).toHaveLength(1);
  });

  it("fails clearly when the adopted GUID does not exist, creating nothing", async () => {
    const missing = "00000000-1111-4222-8333-444444444444";
    await expect(runtime.create(inputs({ adoptGuid: missing }))).rejects.toThrow(
      /adoptGuid 00000000-1111-4222-8333-444444444444: no subscription with that GUID exists.*npx webhook-subscriptions drift --stack <stack>/,
    );
    expect(await emulator.all()).toHaveLength(0);
  });

  it("under vendor-docs, another account's subscription cannot be adopted, and the message says why", async () => {
    const vendor = await EmulatorHarness.start({ dialect: "vendor-docs" });
    try {
      const theirs = await vendor.config("SubscribeToWebhook", {
        body: typeScopedBody(),
        auth: "Bearer dev-builder-2",
      });
      configure(vendor.url);
      await expect(
        runtime.create(inputs({ webhook: 3, filterObjectGuid: undefined, adoptGuid: theirs.json[0].GUID })),
      ).rejects.toThrow(
        /no subscription with that GUID exists .* for the configured account \(subscriptions may be per user/,
      );
      expect(await vendor.all()).toHaveLength(0);
    } finally {
      await vendor.close();
    }
  });

  it("legacy mode confirms the create through the configuration API", async () => {
    configure(emulator.url, { "webhooks:apiVersion": "2024.1" });
    const { id } = await runtime.create(inputs());
    expect((await stats()).requests.GetAllWebhookSubscriptions).toBe(1);
    expect((await emulator.all()).map((s) => s.GUID)).toEqual([id]);
  });

  it("legacy mode fails when the legacy API silently created nothing (closed packet)", async () => {
    configure(emulator.url, { "webhooks:apiVersion": "2024.1" });
    await emulator.admin("PUT", `/work-items/${PACKET}`, { Closed: true });
    await expect(runtime.create(inputs({ webhook: 1 }))).rejects.toThrow(
      /silently creates nothing.*work item 6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b/,
    );
  });

  it("legacy mode warns when the instance has no configuration API to confirm with", async () => {
    configure(legacyOnly.url, { "webhooks:apiVersion": "2024.1" });
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const { id } = await runtime.create(inputs());
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(warn.mock.calls.join(" ")).toMatch(/no configuration API to confirm/);
    warn.mockRestore();
  });
});

describe("read", () => {
  it("reports the live subscription as props and inputs", async () => {
    const { id, outs } = await runtime.create(inputs());
    await emulator.config("UpdateWebhookSubscription", {
      body: {
        GUID: id,
        Webhook: 0,
        FilterObjectType: 2,
        FilterObjectGUID: PACKET,
        SubscriberURL: "https://moved.example.com/x",
        CustomHeader: "X-Api-Key",
        CustomHeaderValue: "k1",
      },
    });
    configure(emulator.url); // a new engine run: a new snapshot
    const result = await runtime.read(id, outs!);
    expect(result.id).toBe(id);
    expect(result.props.subscriberUrl).toBe("https://moved.example.com/x");
    expect(result.props.signature).toBe(outs!.signature);
    expect(result.inputs).toEqual({
      webhook: 0,
      filterObjectType: 2,
      filterObjectGuid: PACKET,
      subscriberUrl: "https://moved.example.com/x",
      customHeader: "X-Api-Key",
      customHeaderValue: "k1",
    });
  });

  it("drops a subscription deleted out of band (empty id), after confirming with Get", async () => {
    const { id, outs } = await runtime.create(inputs());
    await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: id } });
    configure(emulator.url);
    expect(await runtime.read(id, outs!)).toEqual({});
    expect((await stats()).requests.GetWebhookSubscription).toBe(1);
  });

  it("coalesces concurrent reads into one GetAll", async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runtime.create(inputs({ subscriberUrl: `https://hooks.example.com/${i}` }))),
    );
    const before = (await stats()).requests.GetAllWebhookSubscriptions ?? 0;
    configure(emulator.url);
    const reads = await Promise.all(created.map((c) => runtime.read(c.id, c.outs!)));
    expect(reads.every((r, i) => r.id === created[i]!.id)).toBe(true);
    expect(((await stats()).requests.GetAllWebhookSubscriptions ?? 0) - before).toBe(1);
    expect((await stats()).requests.GetWebhookSubscription ?? 0).toBe(0);
  });

  it("never mistakes bad credentials for a deletion", async () => {
    const { id, outs } = await runtime.create(inputs());
    configure(emulator.url, { "webhooks:token": "dev-reader" });
    await expect(runtime.read(id, outs!)).rejects.toMatchObject({ code: "FORBIDDEN" });
    configure(emulator.url, { "webhooks:token": "wrong" });
    // A refresh's 401 with a token from stack config says what to run, around the client's error.
    await expect(runtime.read(id, outs!)).rejects.toMatchObject({ cause: { code: "UNAUTHORIZED" } });
  });

  it("a failure leaves with its message once as the host logs it (`${err}: ${err.stack}`), naming a refused credential", async () => {
    const { id, outs } = await runtime.create(inputs());
    configure(emulator.url, { "webhooks:token": "wrong" });
    const err = (await runtime.read(id, outs!).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain("401 Unauthorized: the instance refused the bearer token from webhooks:token.");
    const logged = `${String(err)}: ${err.stack}`;
    expect(logged.split(err.message)).toHaveLength(2);
    // A bug keeps its frames: they are what a report needs.
    const bug = (await runtime.diff(id, undefined as never, inputs()).catch((e: unknown) => e)) as Error;
    expect(bug).toBeInstanceOf(TypeError);
    expect(bug.stack).toMatch(/\n\s+at /);
  });

  it("legacy mode leaves state as it was and warns that drift cannot be seen", async () => {
    const { id, outs } = await runtime.create(inputs());
    configure(emulator.url, { "webhooks:apiVersion": "2024.1" });
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await runtime.read(id, outs!)).toEqual({ id, props: outs });
    expect(warn.mock.calls.join(" ")).toMatch(/drift cannot be seen/);
    warn.mockRestore();
  });
});

describe("update and delete", () => {
  it("updates in place, keeping GUID and Signature", async () => {
    const { id, outs } = await runtime.create(inputs());
    const { outs: after } = await runtime.update(
      id,
      outs!,
      inputs({ subscriberUrl: "https://hooks.example.com/v2", customHeaderValue: "k2" }),
    );
    expect(after).toMatchObject({
      guid: id,
      signature: outs!.signature,
      subscriberUrl: "https://hooks.example.com/v2",
      customHeaderValue: "k2",
    });
  });

  it("verifies an Update whose response was lost", async () => {
    const { id, outs } = await runtime.create(inputs());
    await emulator.admin("PUT", "/faults", [
      { operation: "UpdateWebhookSubscription", kind: "reset-after-commit", count: 1 },
    ]);
    const { outs: after } = await runtime.update(id, outs!, inputs({ subscriberUrl: "https://hooks.example.com/v3" }));
    expect(after!.subscriberUrl).toBe("https://hooks.example.com/v3");
    expect(await emulator.all()).toHaveLength(1);
  });

  it("verifies each of several Updates in a row whose responses were lost or never arrived", async () => {
    const { id, outs } = await runtime.create(inputs());
    await emulator.admin("PUT", "/faults", [
      { operation: "UpdateWebhookSubscription", kind: "reset-before-commit", count: 1 },
      { operation: "UpdateWebhookSubscription", kind: "reset-after-commit", count: 2 },
    ]);
    const { outs: after } = await runtime.update(id, outs!, inputs({ subscriberUrl: "https://hooks.example.com/v4" }));
    expect(after).toMatchObject({
      guid: id,
      signature: outs!.signature,
      subscriberUrl: "https://hooks.example.com/v4",
    });
    expect((await stats()).requests.UpdateWebhookSubscription).toBeGreaterThanOrEqual(2);
  });

  it("explains an update of a subscription deleted out of band", async () => {
    const { id, outs } = await runtime.create(inputs());
    await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: id } });
    await expect(runtime.update(id, outs!, inputs({ subscriberUrl: "https://hooks.example.com/v2" }))).rejects.toThrow(
      /deleted outside Pulumi: run `pulumi refresh`/,
    );
  });

  it("deletes, and treats an already-deleted subscription as deleted", async () => {
    const { id, outs } = await runtime.create(inputs());
    await runtime.delete(id, outs!);
    expect(await emulator.all()).toHaveLength(0);
    await expect(runtime.delete(id, outs!)).resolves.toBeUndefined();
  });

  it("deletes through the legacy API in legacy mode", async () => {
    const { id, outs } = await runtime.create(inputs());
    configure(emulator.url, { "webhooks:apiVersion": "2024.1" });
    await runtime.delete(id, outs!);
    expect(await emulator.all()).toHaveLength(0);
  });
});

describe("diff and check through the runtime", () => {
  it("plans replacement for identity changes and in-place updates otherwise, without API calls", async () => {
    const { id, outs } = await runtime.create(inputs());
    const before = (await stats()).requests;
    expect(await runtime.diff(id, outs!, inputs({ subscriberUrl: "https://hooks.example.com/v2" }))).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      changed: ["subscriberUrl"],
    });
    expect(await runtime.diff(id, outs!, inputs({ webhook: 2 }))).toEqual({
      changes: true,
      replaces: ["webhook"],
      deleteBeforeReplace: false,
      changed: ["webhook"],
    });
    expect(await runtime.diff(id, outs!, inputs())).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      changed: [],
    });
    configure(emulator.url, { "webhooks:apiVersion": "2024.1" });
    expect(await runtime.diff(id, outs!, inputs({ subscriberUrl: "https://hooks.example.com/v2" }))).toEqual({
      changes: true,
      replaces: ["subscriberUrl"],
      deleteBeforeReplace: false,
      changed: ["subscriberUrl"],
    });
    expect((await stats()).requests).toEqual(before);
  });

  it("warns on every replacement, naming the subscription and the Signature overlap; never on an update", async () => {
    const { id, outs } = await runtime.create(inputs({ rotation: "r1" }));
    expect(outs?.rotation).toBe("r1");
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await runtime.diff(id, outs!, inputs({ subscriberUrl: "https://hooks.example.com/v2", rotation: "r1" }));
      expect(warn).not.toHaveBeenCalled();
      expect((await runtime.diff(id, outs!, inputs({ rotation: "r2" }))).replaces).toEqual(["rotation"]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toBe(
        `warning: PacketCreated on ${PACKET} → https://hooks.example.com/orders: the update replaces it (rotation changed), so its Signature will change. ` +
          "The new subscription is created before the old one is deleted and both deliver meanwhile: " +
          "receivers must accept both the old and the new Signature during the overlap (verifySignature with an array).",
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("under the legacy API, says once per subscription that it has no Update; the advice fits the front door", async () => {
    configure(emulator.url, { "webhooks:apiVersion": "2024.1" });
    const state = (guid: string) => createdOutputs({ guid, signature: "s", baseUrl: emulator.url.replace(/\/$/, "") });
    const moved = inputs({ subscriberUrl: "https://hooks.example.com/v2" });
    const native = createProvider({ env: {} });
    await native.configure({
      config: {
        get: (key) =>
          ({ "webhooks:baseUrl": emulator.url, "webhooks:token": "t", "webhooks:apiVersion": "2024.1" })[key],
      },
    });
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // The engine may diff a resource more than once in one operation: one line each all the same.
      for (const guid of ["a", "a", "b", "a"]) await runtime.diff(guid, state(guid), moved);
      await native.diff("a", state("a"), moved);
      const lines = warn.mock.calls.map((call) => String(call[0]));
      const legacy =
        `warning: PacketCreated on ${PACKET} → https://hooks.example.com/v2: the legacy 2024.1 API has no Update, ` +
        "so changing subscriberUrl replaces the subscription and its Signature changes. " +
        "The new subscription is created before the old one is deleted and both deliver meanwhile: ";
      expect(lines).toEqual([
        `${legacy}receivers must accept both the old and the new Signature during the overlap (verifySignature with an array).`,
        `${legacy}receivers must accept both the old and the new Signature during the overlap (verifySignature with an array).`,
        // The native plugin serves YAML, Python, Go and Java: no TypeScript API in its advice.
        `${legacy}receivers must accept both the old and the new Signature during the overlap (the new one is the resource's signature output).`,
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it("check returns check's normalised inputs, ignores __provider, and sends failures without a property", async () => {
    const raw = { webhook: "PacketCreated", filterObjectType: 2, filterObjectGuid: PACKET.toUpperCase() };
    const good = { ...raw, subscriberUrl: "https://h.example.com/x", __provider: "serialized module" };
    expect(await runtime.check({}, good)).toEqual({ inputs: checkInputs(good).inputs, failures: [] });
    // Without `property`, the engine cannot print the raw value (which may be a secret) beside the reason.
    const bad = await runtime.check({}, { ...raw, subscriberUrl: "https://u:pw@h.example.com/x" });
    expect(bad.failures).toEqual([{ property: "", reason: expect.stringMatching(/^subscriberUrl must not embed/) }]);
  });
});
