/**
 * The package as users get it (served from dist/ through the self-dependency): the public
 * surface of every entry point, as product.md fixes it, and what each entry loads.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as pkg from "pulumi-webhook-subscriptions";
import { Webhook, WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";
import * as client from "pulumi-webhook-subscriptions/client";
import * as drift from "pulumi-webhook-subscriptions/drift";
import * as emulator from "pulumi-webhook-subscriptions/emulator";
import * as native from "pulumi-webhook-subscriptions/native";
import * as receiver from "pulumi-webhook-subscriptions/receiver";
import semver from "semver";
import { REPO_ROOT } from "./support/engine";
import { lockedPackagesRefusingNode, packagesExcludingSupportedNode } from "./support/nodeEngines";
import { phoneHomeSuspects, unreviewedInstallScripts } from "./support/phoneHome";
import { TOOLCHAINS } from "./support/toolchain";

/** The modules `require(entry)` loads in a fresh node process (paths as node resolved them). */
function modulesLoadedBy(entry: string): string[] {
  const script = `require(${JSON.stringify(entry)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
}

/** The names `require(entry)` gives a CommonJS user. */
function namesExportedBy(entry: string): string[] {
  const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(entry)}))));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
}

const manifestVersion = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

const loading = (modules: readonly string[], fragment: string) => modules.filter((path) => path.includes(fragment));

describe("package entry", () => {
  it("maps the six event names to the service's integers", () => {
    expect(Webhook).toEqual({
      PacketCreated: 0,
      PacketUpdated: 1,
      NewCommunication: 2,
      BusinessObjectCreated: 3,
      SpecificBusinessObjectUpdated: 4,
      BusinessObjectTypeUpdated: 5,
    });
    expectTypeOf(Webhook.PacketCreated).toEqualTypeOf<0>();
  });

  it("exports a curated list: the resource, the client and its errors, the receiver helpers, and no internals", () => {
    expect(namesExportedBy("pulumi-webhook-subscriptions").sort()).toEqual(
      [
        "WebhookSubscription",
        "WEBHOOK_SUBSCRIPTION_TYPE",
        "Provider",
        "listWebhookSubscriptions",
        "Webhook",
        "WebhookSubscriptionClient",
        "ErrorCode",
        "WebhookApiError",
        "UnauthorizedError",
        "ForbiddenError",
        "NotFoundError",
        "ValidationFailedError",
        "ClosedWorkItemError",
        "UnreadableRequestError",
        "VersionCannotRepresentError",
        "RateLimitedError",
        "TransportError",
        "ServerError",
        "UnexpectedResponseError",
        "AmbiguousResultError",
        "UnsupportedOperationError",
        "ConfigurationError",
        "verifySignature",
        "assertSignature",
        "createVerifier",
        "signatureHeaderName",
        "SignatureVerificationError",
        "SignatureErrorCode",
        "SignatureOptionsError",
        "SignatureOptionsErrorCode",
      ].sort(),
    );
    for (const internal of ["AGENT_OPTIONS", "systemClock", "sharedLimiter", "startEmulator", "reviewDrift"])
      expect(pkg, internal).not.toHaveProperty(internal);
  });

  it("types the arguments as Pulumi inputs and the outputs as Outputs", () => {
    expectTypeOf<WebhookSubscriptionArgs["subscriberUrl"]>().toEqualTypeOf<pulumi.Input<string>>();
    expectTypeOf<WebhookSubscriptionArgs["webhook"]>().toEqualTypeOf<pulumi.Input<number | pkg.WebhookName>>();
    expectTypeOf<WebhookSubscription["guid"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<WebhookSubscription["signature"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf(pkg.verifySignature).returns.toEqualTypeOf<boolean>();
    expectTypeOf<ConstructorParameters<typeof pkg.WebhookSubscriptionClient>[0]>().toEqualTypeOf<pkg.ClientSettings>();
  });

  it("is served from the build output, as users get it", () => {
    expect(require.resolve("pulumi-webhook-subscriptions")).toMatch(/dist[\\/]index\.js$/);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved the way the engine does
    expect(require("pulumi-webhook-subscriptions/runtime")).toMatchObject({
      create: expect.any(Function),
      delete: expect.any(Function),
    });
  });
});

describe("the manifest", () => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    license: string;
    engines: { node: string };
    dependencies: Record<string, string>;
    allowScripts?: Record<string, boolean>;
    scarfSettings?: unknown;
  };

  it("no runtime dependency the lockfile pins leaves out a Node version engines.node names (npm would warn EBADENGINE)", () => {
    expect(packagesExcludingSupportedNode(join(REPO_ROOT, "package-lock.json"), manifest.engines.node)).toEqual([]);
  });

  // The test above leaves development packages out (a user never installs them), so it missed
  // puppeteer-core 25 (Node >= 22.12), which made `npm ci` in a clone warn on Node 20.
  it("`npm ci` in a clone warns EBADENGINE on none of the Node versions we test (development packages included)", () => {
    const nodes = TOOLCHAINS.map((t) => t.node);
    for (const node of nodes) expect(semver.satisfies(node, manifest.engines.node), node).toBe(true);
    expect(lockedPackagesRefusingNode(join(REPO_ROOT, "package-lock.json"), nodes)).toEqual([]);
  });

  it("no runtime dependency the lockfile pins phones home (swagger-ui-dist's @scarf/scarf made it one)", () => {
    expect(phoneHomeSuspects(join(REPO_ROOT, "package-lock.json"))).toEqual([]);
  });

  // npm 11 runs only the install scripts allowScripts approves; npm 10 runs all, and Scarf's
  // postinstall then reads scarfSettings from the project's package.json.
  it("`npm ci` in a clone runs no telemetry: each install script is reviewed in allowScripts, Scarf's denied and off", () => {
    expect(unreviewedInstallScripts(join(REPO_ROOT, "package-lock.json"), manifest.allowScripts ?? {})).toEqual([]);
    expect(manifest.scarfSettings).toEqual({ enabled: false });
  });

  it("library dependencies are ranges, so a user's install can share them; the lockfile pins development", () => {
    const exact = Object.entries(manifest.dependencies).filter(([, range]) => semver.valid(range) !== null);
    expect(exact).toEqual([]);
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string }>;
    };
    for (const [name, range] of Object.entries(manifest.dependencies))
      expect(semver.satisfies(lock.packages[`node_modules/${name}`]?.version ?? "none", range), name).toBe(true);
  });

  it("types every subpath export for TypeScript without `exports` support too (typesVersions), at the same file", () => {
    const { exports, typesVersions } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string }>;
      typesVersions: { "*": Record<string, string[]> };
    };
    const typed = Object.entries(exports).flatMap(([path, target]) =>
      path !== "." && typeof target === "object" ? [[path.slice(2), [target.types.slice(2)]]] : [],
    );
    expect(typesVersions["*"]).toEqual(Object.fromEntries(typed));
  });

  it("has the LICENSE its license field names", () => {
    expect(manifest.license).toBe("Apache-2.0");
    const license = readFileSync(join(REPO_ROOT, "LICENSE"), "utf8");
    expect(license).toMatch(/^\s+Apache License\s+Version 2\.0, January 2004/);
    expect(license).toContain("END OF TERMS AND CONDITIONS");
  });
});

describe("the other entries", () => {
  it("/client: the typed client and its errors, the same classes as the root's", () => {
    expect(client.WebhookSubscriptionClient).toBe(pkg.WebhookSubscriptionClient);
    expect(client.NotFoundError).toBe(pkg.NotFoundError);
    expect(client).not.toHaveProperty("sharedLimiter");
    expect(client).not.toHaveProperty("AGENT_OPTIONS");
  });

  it("/receiver: verifySignature, createVerifier and assertSignature with their errors", () => {
    expect(receiver.verifySignature).toBe(pkg.verifySignature);
    expect(receiver.createVerifier).toBe(pkg.createVerifier);
    expectTypeOf(receiver.assertSignature).returns.toEqualTypeOf<void>();
    expect(receiver.SignatureVerificationError).toBe(pkg.SignatureVerificationError);
  });

  it("/emulator: startEmulator", () => {
    expectTypeOf(emulator.startEmulator).returns.resolves.toMatchTypeOf<{ url: string; close(): Promise<void> }>();
  });

  it("/native: the SDK generated from the plugin's schema, at the package's version", () => {
    expect(namesExportedBy("pulumi-webhook-subscriptions/native").sort()).toEqual(
      [
        "WebhookSubscription",
        "Provider",
        "getWebhookSubscription",
        "getWebhookSubscriptionOutput",
        "listWebhookSubscriptions",
        "listWebhookSubscriptionsOutput",
        "Webhook",
        "config",
        "types",
      ].sort(),
    );
    expect(native.WebhookSubscription.__pulumiType).toBe("webhooks:index:WebhookSubscription");
    expect(native.Webhook.BusinessObjectCreated).toBe("BusinessObjectCreated");
    expectTypeOf<native.WebhookSubscriptionArgs["subscriberUrl"]>().toEqualTypeOf<pulumi.Input<string>>();
    // The version its resources ask the engine for (the plugin's): the generated getVersion() reads it.
    const utilities = join(REPO_ROOT, "dist", "sdk", "nodejs", "utilities.js");
    const script = `process.stdout.write(require(${JSON.stringify(utilities)}).getVersion())`;
    expect(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })).toBe(manifestVersion);
  });

  it("/policy: WebhookGuard, the rules' settings and their error", () => {
    expect(namesExportedBy("pulumi-webhook-subscriptions/policy").sort()).toEqual(
      ["WebhookGuard", "DEFAULT_PACK_NAME", "parsePolicySettings", "PolicySettingsError"].sort(),
    );
  });

  it("/drift: reviewDrift over any mix of sources, and render", () => {
    expectTypeOf(drift.reviewDrift)
      .parameter(0)
      .toMatchTypeOf<{ stacks?: readonly { name: string; workDir?: string }[]; terraform?: readonly string[] }>();
    expectTypeOf(drift.reviewDrift).returns.resolves.toMatchTypeOf<{ version: 3; exitCode: 0 | 1 | 2 }>();
    expect(drift.reviewDrift).toBeTypeOf("function");
    expect(drift.render).toBeTypeOf("function");
  });
});

describe("what each entry loads (in a fresh process)", () => {
  it("/receiver loads node built-ins and its own files only", () => {
    const modules = modulesLoadedBy("pulumi-webhook-subscriptions/receiver");
    expect(loading(modules, "node_modules")).toEqual([]);
    expect(modules.every((path) => /dist[\\/]provider[\\/](receiver|wire[\\/]predicates)/.test(path))).toBe(true);
  });

  it("/client loads neither the Pulumi SDK nor fastify", () => {
    const modules = modulesLoadedBy("pulumi-webhook-subscriptions/client");
    expect(loading(modules, "@pulumi")).toEqual([]);
    expect(loading(modules, "fastify")).toEqual([]);
  });

  it("/native loads none of the dynamic provider, the client or the emulator", () => {
    const modules = modulesLoadedBy("pulumi-webhook-subscriptions/native");
    const ours = modules.filter((path) => path.startsWith(join(REPO_ROOT, "dist")));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((path) => !path.startsWith(join(REPO_ROOT, "dist", "sdk", "nodejs")))).toEqual([]);
  });

  it("/policy loads neither the emulator nor fastify", () => {
    const modules = modulesLoadedBy("pulumi-webhook-subscriptions/policy");
    expect(loading(modules, "@pulumi/policy").length).toBeGreaterThan(0);
    expect(loading(modules, "fastify")).toEqual([]);
    expect(modules.filter((path) => /dist[\\/](emulator|drift|cli)[\\/]/.test(path))).toEqual([]);
  });

  it("/emulator loads no Pulumi SDK", () => {
    expect(loading(modulesLoadedBy("pulumi-webhook-subscriptions/emulator"), "@pulumi")).toEqual([]);
  });

  it("the root loads neither fastify, the emulator nor the drift review", () => {
    const modules = modulesLoadedBy("pulumi-webhook-subscriptions");
    expect(loading(modules, "fastify")).toEqual([]);
    expect(modules.filter((path) => /dist[\\/](emulator|drift|cli)[\\/]/.test(path))).toEqual([]);
  });
});
