/**
 * How the single executable picks its door (launcher/pickDoor.ts): the CLI's words first, then
 * go-plugin's cookie, then the CLI's own name with no arguments, else the Pulumi plugin, started
 * by the engine with its address.
 */
import { describe, expect, it } from "vitest";
import { FIRST_WORDS } from "../../cli/index";
import { CLI_WORDS, pickDoor } from "../../launcher/pickDoor";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../provider/terraform/goPlugin/handshake";

const TERRAFORM = { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6" };

describe("pickDoor", () => {
  it("knows every first argument the CLI knows, and no other", () => {
    expect([...CLI_WORDS].sort()).toEqual([...FIRST_WORDS].sort());
  });

  it("starts the CLI on each of its words, whatever the environment holds", () => {
    for (const word of CLI_WORDS) {
      expect(pickDoor({ args: [word], env: {} }), word).toBe("cli");
      expect(pickDoor({ args: [word, "--help"], env: TERRAFORM }), word).toBe("cli");
    }
  });

  it("serves Terraform when started with go-plugin's cookie, under any name", () => {
    expect(pickDoor({ args: [], env: TERRAFORM, names: ["/p/terraform-provider-webhooks_v1.2.3"] })).toBe("terraform");
    expect(pickDoor({ args: [], env: TERRAFORM, names: ["/usr/local/bin/webhook-subscriptions"] })).toBe("terraform");
    // Another cookie is another application's plugin: not ours to serve as Terraform.
    expect(pickDoor({ args: [], env: { [MAGIC_COOKIE_KEY]: "another" } })).toBe("pulumi");
  });

  it("serves the Pulumi plugin as the engine starts it: its address first, or its logging flags", () => {
    expect(pickDoor({ args: ["127.0.0.1:52011"], env: {}, names: ["pulumi-resource-webhooks"] })).toBe("pulumi");
    expect(pickDoor({ args: ["--logtostderr", "-v=9", "127.0.0.1:52011"], env: {} })).toBe("pulumi");
    expect(pickDoor({ args: ["--tracing", "http://127.0.0.1:1", "127.0.0.1:52011"], env: {} })).toBe("pulumi");
    // Named as the CLI, with the engine's address: still the engine's.
    expect(pickDoor({ args: ["127.0.0.1:52011"], env: {}, names: ["webhook-subscriptions"] })).toBe("pulumi");
  });

  it("with no arguments, serves the plugin, unless the executable is named as the CLI's archives name it", () => {
    expect(pickDoor({ args: [], env: {}, names: ["./pulumi-resource-webhooks"] })).toBe("pulumi");
    expect(pickDoor({ args: [], env: {} })).toBe("pulumi");
    expect(pickDoor({ args: [], env: {}, names: ["webhook-subscriptions", "/opt/ws/webhook-subscriptions"] })).toBe(
      "cli",
    );
    expect(pickDoor({ args: [], env: {}, names: ["C:\\tools\\webhook-subscriptions.exe"] })).toBe("cli");
    expect(pickDoor({ args: [], env: {}, names: ["/x/webhook-subscriptions-old"] })).toBe("pulumi");
  });

  it("starts the CLI for any other first word, so that a typo or a command this release lacks is a usage error, not a plugin waiting for an engine", () => {
    for (const args of [
      ["adpot"],
      ["adopt", "--help"],
      ["--stack", "dev"],
      ["127.0.0.1:1", "extra"],
      ["not an address"],
    ])
      expect(pickDoor({ args, env: {}, names: ["/opt/ws/webhook-subscriptions"] }), args.join(" ")).toBe("cli");
    expect(pickDoor({ args: ["[::1]:52011"], env: {} })).toBe("pulumi");
    expect(pickDoor({ args: ["localhost:52011"], env: {} })).toBe("pulumi");
  });
});
