/**
 * The provider's sessions against two real emulators: each provider process works on its own
 * instance, a subscription records where it lives and moves when that changes, a refused
 * credential is reported once, settings fail `check`, and adoptIdentical is honoured.
 */
import { describe, expect, it, vi } from "vitest";
import { createProvider } from "../../provider/core/lifecycle";
import type { SubscriptionInputs } from "../../provider/core/inputs";
import { useEmulator } from "../support/emulatorHarness";

const a = useEmulator();
const b = useEmulator();

/** A provider process as the host configures it: from stack config, or from a Provider's arguments. */
async function provider(config: Record<string, string>) {
  const p = createProvider({ env: {} });
  await p.configure({ config: { get: (key) => config[key] } });
  return p;
}
const on = (url: string, extra: Record<string, string> = {}) =>
  provider({ "webhooks:baseUrl": url, "webhooks:token": "dev-builder", ...extra });

function inputs(overrides: Partial<SubscriptionInputs> = {}): SubscriptionInputs {
  return {
    webhook: 3,
    filterObjectType: 7,
    subscriberUrl: "https://hooks.example.com/catalogue",
    ...overrides,
  } as SubscriptionInputs;
}

async function requests(emulator: typeof a): Promise<Record<string, number>> {
  return (await emulator.admin("GET", "/stats")).json.requests;
}

describe("a subscription records its instance", () => {
  it("creates on the provider's own instance and records its normalised base URL", async () => {
    const prod = await provider({
      "webhooks:provider": "prod",
      "webhooks:baseUrl": `${b.url}/`,
      "webhooks:token": "dev-builder",
    });
    const { id, outs } = await prod.create(inputs());
    expect(outs!.baseUrl).toBe(b.url);
    expect((await b.all()).map((s) => s.GUID)).toEqual([id]);
    expect(await a.all()).toEqual([]);
  });

  it("moves to another instance: diff replaces, delete unsubscribes where it lived", async () => {
    const { id, outs } = await (await on(a.url)).create(inputs());
    // The settings now name instance B (a config change): B does not hold the GUID.
    const moved = await on(b.url);
    expect(await moved.diff(id, outs!, inputs())).toEqual({
      changes: true,
      replaces: ["baseUrl"],
      deleteBeforeReplace: false,
      changed: ["baseUrl"],
    });
    const created = await moved.create(inputs());
    expect(created.outs!.baseUrl).toBe(b.url);
    await moved.delete(id, outs!);
    expect(await a.all()).toEqual([]);
    expect((await b.all()).map((s) => s.GUID)).toEqual([created.id]);
  });

  it("a delete the old instance refuses fails, naming both instances, and leaves the subscription in place", async () => {
    const { id, outs } = await (await on(a.url)).create(inputs());
    const elsewhere = await on(b.url, { "webhooks:token": "dev-reader" });
    await expect(elsewhere.delete(id, outs!)).rejects.toThrow(
      new RegExp(
        `403.*records the instance ${a.url}; the instance the settings name, ${b.url}, could not be asked \\(.*403`,
      ),
    );
    expect((await a.all()).map((s) => s.GUID)).toEqual([id]);
  });

  it("only re-records the instance when the new URL reaches the same instance", async () => {
    const { id, outs } = await (await on(a.url)).create(inputs());
    const sameInstance = await on(a.url.replace("127.0.0.1", "localhost"));
    expect(await sameInstance.diff(id, outs!, inputs())).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      changed: ["baseUrl"],
    });
    const before = await requests(a);
    const { outs: updated } = await sameInstance.update(id, outs!, inputs());
    expect(updated).toMatchObject({
      guid: id,
      signature: outs!.signature,
      baseUrl: a.url.replace("127.0.0.1", "localhost"),
    });
    expect((await requests(a)).UpdateWebhookSubscription ?? 0).toBe(before.UpdateWebhookSubscription ?? 0);
  });

  it("refreshes from the recorded instance, and records it for state written before the field existed", async () => {
    const { id, outs } = await (await on(a.url)).create(inputs());
    const elsewhere = await on(b.url);
    expect((await elsewhere.read(id, outs!)).props).toMatchObject({ guid: id, baseUrl: a.url });
    const { baseUrl: _dropped, ...legacyState } = outs!;
    const sameSettings = await on(a.url);
    expect((await sameSettings.read(id, legacyState)).props).toMatchObject({ guid: id, baseUrl: a.url });
    expect(await sameSettings.diff(id, legacyState, inputs())).toMatchObject({ changes: false, replaces: [] });
  });

  describe("the settings' instance is asked first: a GUID names one subscription of one instance", () => {
    /** An address nothing listens on: the recorded instance of a stack whose emulator moved. */
    const DEAD = "http://127.0.0.1:1";
    const recordedAt = <T extends object>(outs: T, baseUrl: string): T => ({ ...outs, baseUrl });

    it("recorded instance unreachable, settings' instance holds the GUID: refresh and delete use it", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      const settings = await on(a.url);
      const read = await settings.read(id, recordedAt(outs!, DEAD));
      expect(read.props).toMatchObject({ guid: id, signature: outs!.signature, baseUrl: a.url });
      await settings.delete(id, recordedAt(outs!, DEAD));
      expect(await a.all()).toEqual([]);
    });

    it("recorded instance unreachable, settings' instance does not hold it: an error naming both, nothing dropped", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      // Unsubscribe retries until the deadline (retry.ts): a short one keeps this test quick.
      const settings = await on(b.url, { "webhooks:retryDeadlineMs": "1000" });
      const said = new RegExp(
        `no response from ${DEAD}.*records the instance ${DEAD}; the instance the settings name, ${b.url}, does not hold it`,
      );
      await expect(settings.read(id, recordedAt(outs!, DEAD))).rejects.toThrow(said);
      // The same run: the refused connection is not tried again; the operation is named once.
      await expect(settings.delete(id, recordedAt(outs!, DEAD))).rejects.toThrow(
        new RegExp(
          `^delete of ${id}: not attempted: ${DEAD} refused the connection earlier in this run.*records the instance ${DEAD}; the instance the settings name, ${b.url}, does not hold it`,
        ),
      );
      await expect(
        (await on(b.url, { "webhooks:retryDeadlineMs": "1000" })).delete(id, recordedAt(outs!, DEAD)),
      ).rejects.toThrow(said);
      expect((await a.all()).map((s) => s.GUID)).toEqual([id]);
    });

    it("neither answers: the error says the settings' instance could not be asked either", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      const settings = await on("http://127.0.0.1:2");
      await expect(settings.read(id, recordedAt(outs!, DEAD))).rejects.toThrow(
        /the instance the settings name, http:\/\/127\.0\.0\.1:2, could not be asked \(.*no response from http:\/\/127\.0\.0\.1:2/,
      );
    });

    it("settings' instance does not hold it, recorded one confirms it gone: dropped", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      await a.reset();
      expect(await (await on(b.url)).read(id, outs!)).toEqual({});
    });

    it("settings' instance legacy-only (no Get): the recorded instance decides", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      const legacy = await on(b.url, { "webhooks:apiVersion": "2024.1" });
      expect(await legacy.read(id, outs!)).toEqual({ id, props: outs });
      expect((await requests(b)).GetAllWebhookSubscriptions ?? 0).toBe(0);
    });

    it("both hold it (one instance, two addresses): the settings' address is recorded", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      const otherAddress = a.url.replace("127.0.0.1", "localhost");
      const read = await (await on(a.url)).read(id, recordedAt(outs!, otherAddress));
      expect(read.props).toMatchObject({ guid: id, baseUrl: a.url });
    });

    it("settings' instance unreachable: the recorded instance decides, as before (live, or confirmed gone)", async () => {
      const { id, outs } = await (await on(a.url)).create(inputs());
      const unreachableSettings = await on(DEAD);
      expect((await unreachableSettings.read(id, outs!)).props).toMatchObject({ guid: id, baseUrl: a.url });
      await a.reset();
      expect(await (await on(DEAD)).read(id, outs!)).toEqual({});
    });
  });

  it("credential rotation changes nothing: a new token or OAuth is the same instance", async () => {
    const { id, outs } = await (await on(a.url)).create(inputs());
    const oauth = await provider({
      "webhooks:baseUrl": a.url,
      "webhooks:clientId": "dev-client",
      "webhooks:clientSecret": "dev-secret",
      "webhooks:tokenUrl": `${a.url}/oauth/token`,
    });
    expect(await oauth.diff(id, outs!, inputs())).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      changed: [],
    });
  });
});

describe("WebhookSubscription.get", () => {
  it("reads by GUID, and says which instance lacks a GUID it cannot find", async () => {
    const { id } = await (await on(a.url)).create(inputs());
    const reader = await on(a.url);
    expect((await reader.read(id, {})).props).toMatchObject({ guid: id, baseUrl: a.url });
    const missing = "11111111-2222-4333-8444-555555555555";
    await expect(reader.read(missing, {})).rejects.toThrow(
      `No subscription ${missing} on ${a.url}: check the GUID and the provider (instance) it is looked up on.`,
    );
  });
});

describe("a refused credential", () => {
  it("is sent once and reported in full once; the other operations fail fast and refer to it", async () => {
    const refused = await on(a.url, { "webhooks:token": "wrong" });
    // The order of failures as the provider's host sends them: a reference fails in a later turn of
    // the event loop than the full failure, whose response the host sends in the turn it fails.
    let turn = 0;
    let spinning = true;
    const spin = () => {
      turn += 1;
      if (spinning) setImmediate(spin);
    };
    spin();
    let fullFailedIn = Infinity;
    const referencesFailedIn: number[] = [];
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((i) =>
        refused.create(inputs({ subscriberUrl: `https://hooks.example.com/${i}` })).catch((err: Error) => {
          if (err.message.includes("401 Unauthorized")) fullFailedIn = turn;
          else referencesFailedIn.push(turn);
          throw err;
        }),
      ),
    );
    spinning = false;
    const messages = results.map((r) => (r.status === "rejected" ? String((r.reason as Error).message) : "ok"));
    expect(messages.filter((m) => m.includes("401 Unauthorized"))).toHaveLength(1);
    // The full message leaves the provider first: the engine reports failures in the order they arrive.
    for (const t of referencesFailedIn) expect(t).toBeGreaterThan(fullFailedIn);
    expect(messages.filter((m) => m.includes("refused this run's credentials earlier"))).toHaveLength(3);
    const sent = Object.values(await requests(a)).reduce((x, y) => x + y, 0);
    expect(sent).toBe(1);
  });
});

describe("a refused credential from stack config", () => {
  it("on refresh and delete, says a plain refresh or destroy sends the state's record and what to run; not on create", async () => {
    const { id } = await (await on(a.url)).create(inputs({ subscriberUrl: "https://hooks.example.com/stale" }));
    const hint = "If webhooks:token changed since the last `pulumi up`";
    const stale = () => on(a.url, { "webhooks:token": "revoked" });
    await expect((await stale()).read(id, { baseUrl: a.url })).rejects.toThrow(hint);
    await expect((await stale()).delete(id, { baseUrl: a.url })).rejects.toThrow(
      "Run `pulumi up` first, or `pulumi refresh --run-program` / `pulumi destroy --run-program`",
    );
    const created = (await stale()).create(inputs({ subscriberUrl: "https://hooks.example.com/stale-2" }));
    await expect(created).rejects.toThrow("401 Unauthorized");
    await expect(created).rejects.not.toThrow(hint);
  });
});

describe("a refused connection", () => {
  it("is reported in full once, with its own hint; the other operations fail at once and refer to it", async () => {
    const dead = "http://127.0.0.1:1";
    const refused = await on(dead, { "webhooks:retryDeadlineMs": "1000" });
    const results = await Promise.allSettled(
      [1, 2, 3].map((i) => refused.create(inputs({ subscriberUrl: `https://hooks.example.com/dead/${i}` }))),
    );
    const messages = results.map((r) => (r.status === "rejected" ? String((r.reason as Error).message) : "ok"));
    const full = messages.filter((m) => m.includes("(ECONNREFUSED)."));
    expect(full).toHaveLength(1);
    expect(full[0]).toContain(
      "Nothing accepts connections at that address: check the host and port of webhooks:baseUrl",
    );
    expect(full[0]).not.toContain("longer request timeout");
    expect(
      messages.filter((m) => m.includes(`not attempted: ${dead} refused the connection earlier in this run`)),
    ).toHaveLength(2);
  });
});

describe("settings are checked by check (so at preview)", () => {
  it("fails check on a missing base URL, naming how to set it, in full once", async () => {
    const unset = await provider({ "webhooks:token": "dev-builder" });
    const first = await unset.check({}, inputs() as unknown as Record<string, unknown>);
    expect(first.failures).toEqual([
      { property: "", reason: expect.stringMatching(/webhooks:baseUrl .*is not set.*WEBHOOKS_BASE_URL/) },
    ]);
    const second = await unset.check({}, inputs() as unknown as Record<string, unknown>);
    expect(second.failures![0]!.reason).toMatch(/^the provider's settings are invalid \(see the first error\)/);
  });

  it("names the Provider's argument for an explicit provider", async () => {
    const prod = await provider({ "webhooks:provider": "prod", "webhooks:baseUrl": a.url, "webhooks:apiVersion": "9" });
    const { failures } = await prod.check({}, inputs() as unknown as Record<string, unknown>);
    expect(failures![0]!.reason).toMatch(/Provider "prod" (token is not set|apiVersion must be one of)/);
  });
});

describe("adoptIdentical", () => {
  const catalogue = { Webhook: 3, FilterObjectType: 7, SubscriberURL: "https://hooks.example.com/catalogue" };

  it("false (default): creates its own beside the identical one, warning once with its GUID and how to take it over", async () => {
    const existing = await a.subscribe(catalogue);
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const { id } = await (await on(a.url)).create(inputs());
    const warnings = warn.mock.calls.map((c) => String(c[0]));
    warn.mockRestore();
    expect(id).not.toBe(existing.GUID);
    expect((await a.all()).map((x) => x.GUID).sort()).toEqual([existing.GUID, id].sort());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `an identical subscription already exists.*${existing.GUID}.*creates its own.*adoptGuid: "${existing.GUID}".*pulumi import webhooks:index:WebhookSubscription <name> ${existing.GUID}.*drift --stack <stack>\` prints the commands`,
      ),
    );
  });

  it("true: adopts it, warning that the recovery opt-in can make two stacks co-own it", async () => {
    const existing = await a.subscribe(catalogue);
    const warn = vi.spyOn(console, "error").mockImplementation(() => {});
    const { id } = await (await on(a.url, { "webhooks:adoptIdentical": "true" })).create(inputs());
    expect(id).toBe(existing.GUID);
    expect(warn.mock.calls.join("\n")).toMatch(
      /adopted the existing identical.*webhooks:adoptIdentical is true.*both now do.*back to false/,
    );
    warn.mockRestore();
    expect(await a.all()).toHaveLength(1);
  });
});
