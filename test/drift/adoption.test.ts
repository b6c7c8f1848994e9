import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adoptionFrontDoor } from "../../drift/sources/pulumi/adoptionFrontDoor";
import { adoptionNames } from "../../drift/review/adoptionNames";
import { importCommand, pulumiAdoption, type StackTarget } from "../../drift/sources/pulumi/adoptionSnippet";
import { stateSnapshot, type StateSnapshot, type StateSubscription } from "../../drift/sources/pulumi/stateSnapshot";
import type { Subscription } from "../../provider/wire";
import { MANUAL_WITH_HEADER } from "./fixtures/live";

const withHeader = MANUAL_WITH_HEADER;
const plain: Subscription = { ...withHeader, guid: "77777777-0000-4000-8000-000000000002", customHeaderValue: null };
/** The name a subscription reviewed alone gets. */
const nameOf = (live: Subscription) => adoptionNames([live]).get(live.guid)!;

/** A real `pulumi stack export --show-secrets`, trimmed (see the file's `//`). */
function exported(fixture: string): StateSnapshot {
  return stateSnapshot(JSON.parse(readFileSync(join(__dirname, "fixtures", fixture), "utf8")));
}

const sub = (frontDoor: StateSubscription["frontDoor"], providerUrn: string | null = null): StateSubscription => ({
  urn: `urn::${frontDoor}`,
  name: frontDoor,
  guid: frontDoor,
  outputs: {},
  provider: providerUrn && "p",
  providerUrn,
  frontDoor,
});
const snapshot = (managed: StateSubscription[], nativeDefaultProvider = false): StateSnapshot => ({
  managed,
  guids: new Set(),
  providers: new Map(),
  nativeDefaultProvider,
  pendingCreates: [],
});

describe("adoptionFrontDoor", () => {
  it("an explicit provider: its own front door (real exports of both kinds)", () => {
    const both = exported("bothFrontDoors.json");
    const urn = (name: string) => [...both.providers.keys()].find((u) => u.endsWith(`::${name}`))!;
    expect(adoptionFrontDoor(both, urn("nat-prod"), "nodejs")).toBe("native");
    expect(adoptionFrontDoor(both, urn("dyn-prod"), "nodejs")).toBe("dynamic");
    const yaml = exported("nativeYaml.json");
    expect(adoptionFrontDoor(yaml, "urn:pulumi:dev::dn-yaml::pulumi:providers:webhooks::prod", "yaml")).toBe("native");
  });

  it("the default provider of a program that is not Node.js: native, whatever the state holds", () => {
    for (const runtime of ["yaml", "python", "go"])
      expect(adoptionFrontDoor(snapshot([]), null, runtime)).toBe("native");
  });

  it("the default provider of a Node.js program: dynamic when any subscription on it is, native when all are", () => {
    expect(adoptionFrontDoor(snapshot([sub("native"), sub("dynamic")]), null, "nodejs")).toBe("dynamic");
    expect(adoptionFrontDoor(snapshot([sub("native")]), null, "nodejs")).toBe("native");
    // Those on explicit providers do not count for the default provider.
    expect(adoptionFrontDoor(snapshot([sub("native"), sub("dynamic", "urn:p")]), null, "nodejs")).toBe("native");
    expect(adoptionFrontDoor(exported("bothFrontDoors.json"), null, "nodejs")).toBe("dynamic");
  });

  it("no subscription on the default provider: native if the state holds the native default provider, else dynamic", () => {
    expect(adoptionFrontDoor(snapshot([], true), null, "nodejs")).toBe("native");
    expect(adoptionFrontDoor(snapshot([]), null, "nodejs")).toBe("dynamic");
    expect(adoptionFrontDoor(snapshot([]), null)).toBe("dynamic");
  });
});

describe("importCommand", () => {
  it("imports the native resource under the suggested name into the reviewed stack, the code into a file in the program's language", () => {
    expect(importCommand(plain, { stack: "dev", provider: null, runtime: "yaml" }, nameOf(plain))).toBe(
      "pulumi import webhooks:index:WebhookSubscription manual-example-org-hook-specific-business-object-updated 77777777-0000-4000-8000-000000000002 --stack dev --out manual-example-org-hook-specific-business-object-updated.yaml",
    );
    const out = (runtime?: string) =>
      importCommand(plain, { stack: "dev", provider: null, ...(runtime ? { runtime } : {}) }, nameOf(plain))
        .split(" ")
        .at(-1);
    expect([out("python"), out("nodejs"), out("go"), out()]).toEqual(
      ["py", "ts", "go", "txt"].map((ext) => `manual-example-org-hook-specific-business-object-updated.${ext}`),
    );
  });

  it("names an explicit provider as `--provider <name>=<urn>`, quoted for the shell where needed", () => {
    const urn = "urn:pulumi:org/prod::p::my:comp$pulumi:providers:webhooks::eu";
    expect(importCommand(plain, { stack: "org/prod", provider: { name: "eu", urn } }, nameOf(plain))).toMatch(
      / --stack org\/prod --provider 'eu=urn:pulumi:org\/prod::p::my:comp\$pulumi:providers:webhooks::eu' --out /,
    );
  });

  it("a custom header value: comment lines say to move it into secret config, never showing it", () => {
    const command = importCommand(withHeader, { stack: "dev", provider: null, runtime: "yaml" }, nameOf(withHeader));
    expect(command).toMatchInlineSnapshot(`
      "# manual-example-org-hook-specific-business-object-updated has a custom header value: the code pulumi import writes to manual-example-org-hook-specific-business-object-updated.yaml holds it in plain text.
      # Move it into secret config (pulumi config set --secret manualExampleOrgHookSpecificBusinessObjectUpdatedHeaderValue <value>) and read it from there.
      pulumi import webhooks:index:WebhookSubscription manual-example-org-hook-specific-business-object-updated 3f2a9c1d-0000-4000-8000-000000000001 --stack dev --out manual-example-org-hook-specific-business-object-updated.yaml"
    `);
  });
});

describe("pulumiAdoption, by front door", () => {
  const target = (frontDoor: StackTarget["frontDoor"], provider: StackTarget["provider"] = null): StackTarget => ({
    kind: "pulumi-stack",
    frontDoor,
    stack: "dev",
    provider,
  });

  it("native: the `pulumi import` command; dynamic: a TypeScript statement, on the instance's provider", () => {
    const onNative = pulumiAdoption(withHeader, target("native"), nameOf(withHeader));
    expect([onNative.kind, onNative.snippet.split("\n").at(-1)]).toEqual([
      "pulumi-import",
      "pulumi import webhooks:index:WebhookSubscription manual-example-org-hook-specific-business-object-updated 3f2a9c1d-0000-4000-8000-000000000001 --stack dev --out manual-example-org-hook-specific-business-object-updated.txt",
    ]);
    const onDynamic = pulumiAdoption(plain, target("dynamic", { name: "us", urn: "urn:us" }), nameOf(plain));
    expect(onDynamic.kind).toBe("typescript");
    expect(onDynamic.snippet).toMatch(/\}, \{ provider: us \}\);$/);
    expect(onDynamic.snippet).not.toContain("requireSecret");
  });

  it("a custom header value: the TypeScript statement reads it from secret config", () => {
    expect(pulumiAdoption(withHeader, target("dynamic"), nameOf(withHeader)).snippet).toContain(
      "new pulumi.Config().requireSecret(",
    );
  });

  it("an empty custom header value is no value: no secret config to read, no plain text to warn of", () => {
    const empty: Subscription = { ...plain, customHeader: "X-Token", customHeaderValue: "" };
    const statement = pulumiAdoption(empty, target("dynamic"), nameOf(empty)).snippet;
    expect(statement).not.toMatch(/customHeaderValue|requireSecret|config set --secret/);
    expect(statement).toContain('customHeader: "X-Token",');
    const command = pulumiAdoption(empty, { ...target("native"), runtime: "yaml" }, nameOf(empty)).snippet;
    expect(command).toBe(importCommand(plain, { stack: "dev", provider: null, runtime: "yaml" }, nameOf(plain)));
    expect(command).not.toContain("plain text");
  });
});
