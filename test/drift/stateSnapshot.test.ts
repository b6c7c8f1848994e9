import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unwrapValue, MASKED } from "../../drift/sources/pulumi/fields";
import { instancesOf } from "../../drift/sources/pulumi/instances";
import { declaredAtOf, resourceName, stateSnapshot } from "../../drift/sources/pulumi/stateSnapshot";
import { readSettings } from "../../provider/model";

const TYPE = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const SIG = "4dabf18193072939515e22adb298388d";
const secret = (value: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(value) });

function resource(name: string, guid: string, extra: Record<string, unknown> = {}) {
  return {
    urn: `urn:pulumi:dev::proj::${TYPE}::${name}`,
    type: TYPE,
    id: guid,
    inputs: {},
    outputs: {
      guid,
      webhook: 0,
      subscriberUrl: "https://h.example.com",
      signature: secret("sig"),
      customHeaderValue: secret(null),
      adoptGuid: null,
    },
    ...extra,
  };
}

describe("stateSnapshot", () => {
  it("reads managed subscriptions with plaintext secrets", () => {
    const { managed } = stateSnapshot({ resources: [resource("a", "AAAA")] });
    expect(managed).toEqual([
      {
        urn: `urn:pulumi:dev::proj::${TYPE}::a`,
        name: "a",
        guid: "AAAA",
        outputs: { webhook: 0, subscriberUrl: "https://h.example.com", signature: "sig", customHeaderValue: null },
        provider: null,
        providerUrn: null,
        frontDoor: "dynamic",
      },
    ]);
  });

  it("tells which explicit Provider manages each subscription, with that Provider's plaintext config", () => {
    const providerUrn = "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::production";
    const snapshot = stateSnapshot({
      resources: [
        {
          urn: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default",
          type: "pulumi:providers:pulumi-nodejs",
          id: "d1",
          inputs: {},
        },
        {
          urn: providerUrn,
          type: "pulumi:providers:pulumi-nodejs",
          id: "p1",
          inputs: {
            "webhooks:provider": "production",
            "webhooks:baseUrl": "https://prod.example.com",
            "webhooks:token": secret("t"),
          },
        },
        resource("a", "AAAA", { provider: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default::d1" }),
        resource("b", "BBBB", { provider: `${providerUrn}::p1` }),
      ],
    });
    expect(snapshot.managed.map((m) => [m.name, m.provider])).toEqual([
      ["a", null],
      ["b", "production"],
    ]);
    const production = snapshot.providers.get(providerUrn);
    expect(production?.name).toBe("production");
    expect(readSettings(production?.config).connection).toMatchObject({
      baseUrl: "https://prod.example.com",
      token: "t",
    });
  });

  it("collects every GUID, lower-cased: ids, adopted GUIDs, pending deletions and pending operations but creates", () => {
    const snapshot = stateSnapshot({
      resources: [
        {
          urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
          type: "pulumi:pulumi:Stack",
          outputs: { guid: "STACK-OUTPUT" },
        },
        resource("a", "AAAA", { inputs: { adoptGuid: "adopted" } }),
        resource("old", "OLD", { delete: true }),
      ],
      pending_operations: [
        { resource: resource("updating", "PENDING"), type: "updating" },
        // The engine can write the GUID a create returned before the run was killed: still not managed.
        { resource: resource("creating", "CREATED"), type: "creating" },
      ],
    });
    expect([...snapshot.guids].sort()).toEqual(["aaaa", "adopted", "old", "pending"]);
    expect(snapshot.managed.map((m) => m.name)).toEqual(["a"]);
    expect(snapshot.pendingCreates).toEqual([
      { urn: `urn:pulumi:dev::proj::${TYPE}::creating`, key: expect.any(String), guid: "created" },
    ]);
  });

  it("handles an empty deployment", () => {
    expect(stateSnapshot(undefined)).toEqual({
      managed: [],
      guids: new Set(),
      providers: new Map(),
      nativeDefaultProvider: false,
      pendingCreates: [],
    });
  });
});

/** A real `pulumi stack export --show-secrets`, trimmed (see the file's `//`). */
function exported(fixture: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, "fixtures", fixture), "utf8"));
}

const EMULATOR = "http://127.0.0.1:18731";
const NATIVE = "webhooks:index:WebhookSubscription";

describe("stateSnapshot of stacks on the native plugin (real exports)", () => {
  it("reads a YAML stack's native subscriptions, and its explicit native provider's settings", () => {
    const snapshot = stateSnapshot(exported("nativeYaml.json"));
    const prodUrn = "urn:pulumi:dev::dn-yaml::pulumi:providers:webhooks::prod";
    expect(snapshot.managed).toEqual([
      {
        urn: `urn:pulumi:dev::dn-yaml::${NATIVE}::viaProd`,
        name: "viaProd",
        guid: "981d83ef-e8c1-4daa-97a8-4c679096e50a",
        outputs: {
          webhook: 3,
          filterObjectType: 2,
          filterObjectGuid: null,
          subscriberUrl: "https://hooks.example.com/objects",
          customHeader: "",
          customHeaderValue: null,
          signature: "8f5d581b-fd5e-4ba4-a571-6ed2da4c4107",
        },
        provider: "prod",
        providerUrn: prodUrn,
        frontDoor: "native",
      },
      {
        urn: `urn:pulumi:dev::dn-yaml::${NATIVE}::packetCreated`,
        name: "packetCreated",
        guid: "348b6e8b-a75e-47b0-b5d6-ef8c5ff02386",
        outputs: {
          webhook: 0,
          filterObjectType: 2,
          filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
          subscriberUrl: "https://hooks.example.com/packets",
          customHeader: "X-Api-Key",
          customHeaderValue: "change-me",
          signature: "ac7827c3-5a3e-4dcc-9f89-d680bd375fc9",
        },
        provider: null,
        providerUrn: null,
        frontDoor: "native",
      },
    ]);
    expect([...snapshot.guids].sort()).toEqual([
      "348b6e8b-a75e-47b0-b5d6-ef8c5ff02386",
      "981d83ef-e8c1-4daa-97a8-4c679096e50a",
    ]);
    // The default native provider (`…::default`) is not an explicit one, but it is seen.
    expect([...snapshot.providers.keys()]).toEqual([prodUrn]);
    expect(snapshot.nativeDefaultProvider).toBe(true);
    const prod = snapshot.providers.get(prodUrn)!;
    expect(prod).toMatchObject({ name: "prod", frontDoor: "native" });
    // Its settings are recorded by name (`baseUrl`, a number as a number); read as `Provider "prod" …`.
    expect(readSettings(prod.config, {}).connection).toMatchObject({
      baseUrl: EMULATOR,
      token: "dev-builder",
      maxRequestsPerSecond: 50,
      credentialSource: 'Provider "prod" token',
    });
  });

  it("reads both front doors in one stack: each subscription with its own explicit provider", () => {
    const snapshot = stateSnapshot(exported("bothFrontDoors.json"));
    expect(
      snapshot.managed.map((m) => [m.name, m.urn.split("::")[2], m.provider, m.outputs.customHeaderValue]),
    ).toEqual([
      ["dyn-p", "pulumi-nodejs:dynamic/webhooks:WebhookSubscription", "dyn-prod", null],
      ["dyn", "pulumi-nodejs:dynamic/webhooks:WebhookSubscription", null, "dyn-secret"],
      ["nat-p", NATIVE, "nat-prod", null],
      ["nat", NATIVE, null, "nat-secret"],
    ]);
    expect(snapshot.managed.map((m) => m.frontDoor)).toEqual(["dynamic", "dynamic", "native", "native"]);
    expect(snapshot.guids.size).toBe(4);
    expect([...snapshot.providers.values()].map((p) => [p.name, p.frontDoor])).toEqual([
      ["dyn-prod", "dynamic"],
      ["nat-prod", "native"],
    ]);

    const stackConfig = { get: (key: string) => ({ "webhooks:baseUrl": EMULATOR })[key] };
    const instances = instancesOf(snapshot, stackConfig, { WEBHOOKS_TOKEN: "dev-builder" });
    // All four providers reach one emulator: one instance, listed once, holding all four.
    expect(instances.map((i) => [i.provider, i.settings.baseUrl, i.managed.length])).toEqual([[null, EMULATOR, 4]]);
  });
});

describe("where the program declares each subscription", () => {
  it("reads the state's sourcePosition of a TypeScript program: a file of the project and its line", () => {
    const fixture = join(__dirname, "..", "fixtures", "state", "dynamic", "stack.json");
    const { deployment } = JSON.parse(readFileSync(fixture, "utf8")) as {
      deployment: Parameters<typeof stateSnapshot>[0];
    };
    expect(stateSnapshot(deployment).managed.map((m) => [m.name, m.declaredAt])).toEqual([
      ["packets", { file: "index.ts", line: 17 }],
      ["objects", { file: "index.ts", line: 9 }],
    ]);
  });

  it("takes no file outside the project (a component library, the YAML host's Go source) nor an absent one", () => {
    expect(declaredAtOf("project:///src/hooks/index.ts#42,5")).toEqual({ file: "src/hooks/index.ts", line: 42 });
    expect(declaredAtOf("project:///__main__.py#12")).toEqual({ file: "__main__.py", line: 12 });
    expect(declaredAtOf("project:///../../../node_modules/@acme/hooks/index.ts#3,1")).toBeUndefined();
    expect(
      declaredAtOf("project:///../../../../../github.com/pulumi/pulumi-yaml/pkg/server/server.go#316"),
    ).toBeUndefined();
    expect(declaredAtOf(undefined)).toBeUndefined();
    // A URL: its path decoded; ./ and a/../ folded; a Windows path, or no line, is not a project file's.
    expect(declaredAtOf("project:///src/my%20hooks.ts#3,1")).toEqual({ file: "src/my hooks.ts", line: 3 });
    expect(declaredAtOf("project:///./src/../index.ts#9,1")).toEqual({ file: "index.ts", line: 9 });
    expect(declaredAtOf("project:///src/..%2F..%2Fx.ts#1")).toBeUndefined();
    expect(declaredAtOf("project:///C:/work/index.ts#1")).toBeUndefined();
    expect(declaredAtOf("project:///src\\index.ts#1")).toBeUndefined();
    expect(declaredAtOf("project:///index.ts#0")).toBeUndefined();
  });
});

describe("unwrapValue", () => {
  it("unwraps exported secrets and recognises masked ones", () => {
    expect(unwrapValue(secret("x"))).toBe("x");
    expect(unwrapValue({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" })).toBe(MASKED);
    expect(unwrapValue(null)).toBeNull();
    expect(unwrapValue(undefined)).toBeUndefined();
  });
});

describe("resourceName", () => {
  it("is the URN's last segment", () => {
    expect(resourceName(`urn:pulumi:dev::proj::${TYPE}::orders-created`)).toBe("orders-created");
  });
});
