/**
 * The Pulumi YAML target's writer (adopt/write/pulumi/yaml.ts): the subscriptions go into the
 * program's own file, every byte of it outside the added blocks kept; values escaped for YAML and
 * for pulumi-yaml's interpolation; a header value only ever a secret config key; conflicts refused
 * unless forced; the program found where the YAML language host finds it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { yamlWriter } from "../../adopt/write/pulumi/yaml";
import { WriteError, type Adopted, type Written } from "../../adopt/write/writer";
import { adoptionNames, headerValueConfigKey, type LiveSubscription } from "../../drift";
import { REPO_ROOT } from "../support/engine";
import { liveSubscription } from "../support/liveSubscription";

const EXAMPLE = readFileSync(join(REPO_ROOT, "examples", "yaml", "Pulumi.yaml"), "utf8");

/** A live subscription: type-scoped BusinessObjectCreated on orders.example.com unless told otherwise. */
function live(guid: string, fields: Partial<LiveSubscription> = {}): LiveSubscription {
  return liveSubscription({ guid, ...fields });
}

/** The subscriptions as adopt hands them over: named by adoptionNames, a secret key for each header value. */
function adopted(...subscriptions: LiveSubscription[]): Adopted[] {
  const names = adoptionNames(subscriptions);
  return subscriptions.map((subscription) => {
    const name = names.get(subscription.guid)!;
    return subscription.hasCustomHeaderValue
      ? { subscription, name, secretKey: headerValueConfigKey(name) }
      : { subscription, name };
  });
}

/** The writer on a target directory holding `files`. */
function write(files: Record<string, string>, subscriptions: readonly Adopted[], force = false): Written {
  return yamlWriter({
    adopted: subscriptions,
    existing: (path) => files[path],
    listFiles: () => Object.keys(files),
    force,
  });
}

/** The one file written, checked to be an edit of the file it names. */
function written(files: Record<string, string>, subscriptions: readonly Adopted[], force = false): string {
  const result = write(files, subscriptions, force);
  expect(result.files).toEqual([{ path: result.output, content: expect.any(String), edit: true }]);
  return result.files[0]!.content;
}

/** `text` with `block` inserted before the one line `line` (which must be there once). */
function before(text: string, line: string, block: string): string {
  const at = text.indexOf(`\n${line}\n`);
  expect(at, `one line ${line}`).toBeGreaterThan(-1);
  expect(text.indexOf(`\n${line}\n`, at + 1), `one line ${line}`).toBe(-1);
  return text.slice(0, at + 1) + block + text.slice(at + 1);
}

/** The thrown WriteError's message. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WriteError);
    return (err as Error).message;
  }
  throw new Error("no WriteError");
}

const PACKETS = live("a1a1a1a1-0000-4000-8000-000000000001", {
  webhook: 0,
  webhookName: "PacketCreated",
  filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
  subscriberUrl: "https://packets.example.com/in",
  customHeader: "X-Api-Key",
  hasCustomHeaderValue: true,
});
const ORDERS = live("b2b2b2b2-0000-4000-8000-000000000002");
const NEWER = live("c3c3c3c3-0000-4000-8000-000000000003", {
  webhook: 99,
  webhookName: null,
  filterObjectType: 4,
  subscriberUrl: "https://later.example.com/",
});

const RESOURCES_BLOCK = `  # Adopted by \`webhook-subscriptions adopt\`: \`pulumi up\` imports them as they are (options.import).
  later-example-com-webhook-99:
    type: webhooks:index:WebhookSubscription
    properties:
      webhook: 99
      filterObjectType: 4
      subscriberUrl: https://later.example.com/
    options:
      import: c3c3c3c3-0000-4000-8000-000000000003
  orders-example-com-hooks-business-object-created:
    type: webhooks:index:WebhookSubscription
    properties:
      webhook: BusinessObjectCreated
      filterObjectType: 2
      subscriberUrl: https://orders.example.com/hooks
    options:
      import: b2b2b2b2-0000-4000-8000-000000000002
  packets-example-com-in-packet-created:
    type: webhooks:index:WebhookSubscription
    properties:
      webhook: PacketCreated
      filterObjectType: 2
      filterObjectGuid: 6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b
      subscriberUrl: https://packets.example.com/in
      customHeader: X-Api-Key
      customHeaderValue: \${packetsExampleComInPacketCreatedHeaderValue}
    options:
      import: a1a1a1a1-0000-4000-8000-000000000001
`;
const CONFIG_BLOCK = `  # Custom header values of adopted subscriptions: secret stack config (pulumi config set --secret <key>).
  packetsExampleComInPacketCreatedHeaderValue:
    type: string
    secret: true
`;

describe("the program's Pulumi.yaml (examples/yaml)", () => {
  it("gets two blocks, the config keys before `resources:` and the resources after the last one; every other byte is kept", () => {
    const content = written({ "Pulumi.yaml": EXAMPLE }, adopted(PACKETS, ORDERS, NEWER));
    expect(content).toBe(
      before(before(EXAMPLE, "resources:", `config:\n${CONFIG_BLOCK}`), "variables:", RESOURCES_BLOCK),
    );
    expect(write({ "Pulumi.yaml": EXAMPLE }, adopted(PACKETS)).output).toBe("Pulumi.yaml");
  });

  it("writes the same text whatever order the subscriptions come in", () => {
    const files = { "Pulumi.yaml": EXAMPLE };
    expect(written(files, adopted(NEWER, PACKETS, ORDERS))).toBe(written(files, adopted(ORDERS, NEWER, PACKETS)));
  });

  it("writes no header value, only the secret key's reference, and no customHeaderValue without a value", () => {
    const content = written({ "Pulumi.yaml": EXAMPLE }, adopted(PACKETS, ORDERS));
    const program = parse(content) as {
      resources: Record<string, { properties: Record<string, unknown> }>;
      config: Record<string, unknown>;
    };
    expect(program.resources["packets-example-com-in-packet-created"]!.properties.customHeaderValue).toBe(
      "${packetsExampleComInPacketCreatedHeaderValue}",
    );
    expect(program.config.packetsExampleComInPacketCreatedHeaderValue).toEqual({ type: "string", secret: true });
    expect(program.resources["orders-example-com-hooks-business-object-created"]!.properties).not.toHaveProperty(
      "customHeaderValue",
    );
    // The example's own literal is the only fn::secret in the file.
    expect(content.match(/fn::secret/g)).toHaveLength(1);
  });

  it("refuses a subscription with a header value and no secret key to read it from", () => {
    const [packets] = adopted(PACKETS);
    const { secretKey: _dropped, ...noKey } = packets!;
    expect(refusal(() => write({ "Pulumi.yaml": EXAMPLE }, [noKey]))).toBe(
      "subscription a1a1a1a1-0000-4000-8000-000000000001 has a custom header value but no secret config key to read it from",
    );
  });
});

describe("values", () => {
  it("escapes what YAML would read otherwise (`#`, `: `, quotes) and doubles `$`, which pulumi-yaml interpolates", () => {
    const url = `https://odd.example.com/a#frag: 'single' "double" $HOME \${notInterpolated}`;
    const sub = live("d4d4d4d4-0000-4000-8000-000000000004", { subscriberUrl: url });
    const [a] = adopted(sub);
    const content = written({ "Pulumi.yaml": "name: odd\nruntime: yaml\n" }, [a!]);
    expect(content).toContain(
      '      subscriberUrl: "https://odd.example.com/a#frag: \'single\' \\"double\\" $$HOME $${notInterpolated}"',
    );
    for (const version of ["1.1", "1.2"] as const) {
      const program = parse(content, { version }) as {
        resources: Record<string, { properties: { subscriberUrl: string } }>;
      };
      const written = program.resources[a!.name.kebab]!.properties.subscriberUrl;
      // pulumi-yaml reads `$$` as `$`: the engine gets the live URL.
      expect(written.replace(/\$\$/g, "$")).toBe(url);
    }
  });

  it("quotes a string that YAML 1.1 or 1.2 would read as a number, a boolean or null", () => {
    const subs = ["yes", "On", "1_000", "0o17", "0b11", "null", "12:30"].map((customHeader, i) =>
      live(`e5e5e5e5-0000-4000-8000-00000000000${i}`, { customHeader, subscriberUrl: `https://h${i}.example.com/` }),
    );
    const content = written({ "Pulumi.yaml": "name: q\nruntime: yaml\n" }, adopted(...subs));
    for (const version of ["1.1", "1.2"] as const) {
      const program = parse(content, { version }) as {
        resources: Record<string, { properties: { customHeader: unknown } }>;
      };
      expect(Object.values(program.resources).map((r) => r.properties.customHeader)).toEqual(
        subs.map((s) => s.customHeader),
      );
    }
    expect(content).toContain('customHeader: "1_000"');
    expect(content).toContain('customHeader: "yes"');
  });

  it("writes an event newer than this package as its number", () => {
    const content = written({ "Pulumi.yaml": "name: n\nruntime: yaml\n" }, adopted(NEWER));
    expect(content).toContain("\n      webhook: 99\n");
    expect(
      (parse(content) as { resources: Record<string, { properties: { webhook: unknown } }> }).resources[
        "later-example-com-webhook-99"
      ]!.properties.webhook,
    ).toBe(99);
  });
});

describe("conflicts", () => {
  const first = () => written({ "Pulumi.yaml": EXAMPLE }, adopted(PACKETS, ORDERS));

  it("refuses a resource key that is already there, naming it, and writes nothing", () => {
    expect(refusal(() => write({ "Pulumi.yaml": first() }, adopted(ORDERS, NEWER)))).toBe(
      "Pulumi.yaml already declares resource orders-example-com-hooks-business-object-created: " +
        "run adopt with --force to replace it, or give the subscription another name with --names",
    );
  });

  it("with --force replaces the resource where it is; running it again changes nothing", () => {
    const once = first();
    const moved = { ...ORDERS, subscriberUrl: "https://orders.example.com/hooks?v=2" };
    const names = adopted(ORDERS);
    const forced = written({ "Pulumi.yaml": once }, [{ ...names[0]!, subscription: moved }], true);
    expect(forced).toBe(
      once.replace(
        "      subscriberUrl: https://orders.example.com/hooks\n",
        "      subscriberUrl: https://orders.example.com/hooks?v=2\n",
      ),
    );
    expect(written({ "Pulumi.yaml": once }, adopted(PACKETS, ORDERS), true)).toBe(once);
  });

  it("keeps a config key already declared secret, refuses one declared otherwise unless forced", () => {
    const declared = EXAMPLE.replace(
      "plugins:\n",
      "config:\n  packetsExampleComInPacketCreatedHeaderValue:\n    type: string\n    secret: true\n    description: kept\nplugins:\n",
    );
    expect(written({ "Pulumi.yaml": declared }, adopted(PACKETS))).not.toContain("# Custom header values");

    const plain = EXAMPLE.replace(
      "plugins:\n",
      "config:\n  packetsExampleComInPacketCreatedHeaderValue:\n    type: string\nplugins:\n",
    );
    expect(refusal(() => write({ "Pulumi.yaml": plain }, adopted(PACKETS)))).toContain(
      "config key packetsExampleComInPacketCreatedHeaderValue, declared other than { type: string, secret: true }",
    );
    expect(written({ "Pulumi.yaml": plain }, adopted(PACKETS), true)).toContain(
      "config:\n  packetsExampleComInPacketCreatedHeaderValue:\n    type: string\n    secret: true\nplugins:\n",
    );
  });

  it("refuses, even with --force, a name a variable holds, and a subscription another resource already imports", () => {
    const variable = EXAMPLE.replace(
      "variables:\n",
      "variables:\n  orders-example-com-hooks-business-object-created: 1\n",
    );
    expect(refusal(() => write({ "Pulumi.yaml": variable }, adopted(ORDERS), true))).toBe(
      "Pulumi.yaml already uses the name orders-example-com-hooks-business-object-created (under variables:) for something " +
        "other than an adopted subscription: give the subscription another name with --names",
    );
    const renamed = first().replace("  orders-example-com-hooks-business-object-created:\n", "  orders:\n");
    expect(refusal(() => write({ "Pulumi.yaml": renamed }, adopted(ORDERS), true))).toBe(
      "Pulumi.yaml already imports b2b2b2b2-0000-4000-8000-000000000002 (as orders): run `pulumi up` to finish that " +
        "adoption, or remove that resource first",
    );
  });

  it("refuses two subscriptions given one name", () => {
    const [a, b] = adopted(ORDERS, NEWER);
    expect(refusal(() => write({ "Pulumi.yaml": EXAMPLE }, [a!, { ...b!, name: a!.name }]))).toBe(
      "subscriptions b2b2b2b2-0000-4000-8000-000000000002 and c3c3c3c3-0000-4000-8000-000000000003 would both be named " +
        "orders-example-com-hooks-business-object-created: give one another name with --names",
    );
  });
});

describe("the file's shape", () => {
  const one = adopted(PACKETS);
  const config = `config:\n${CONFIG_BLOCK}`;
  /** The resources block with the packets subscription only. */
  const resources = RESOURCES_BLOCK.replace(/ {2}later-example[\s\S]*?(?= {2}packets-example)/, "");

  it("with no `config:` nor `resources:` yet, both are added at the end (a missing final line break added first)", () => {
    const project = "# A project with no program yet.\nname: bare\nruntime: yaml\n";
    expect(written({ "Pulumi.yaml": project }, one)).toBe(`${project}${config}resources:\n${resources}`);
    expect(written({ "Pulumi.yaml": project.trimEnd() }, one)).toBe(`${project}${config}resources:\n${resources}`);
  });

  it("with empty `config:` and `resources: {}`, fills them where they are, keeping their comments", () => {
    const project = "name: e\nruntime: yaml\nconfig: # none yet\nresources: {} # none yet\noutputs: {}\n";
    expect(written({ "Pulumi.yaml": project }, one)).toBe(
      `name: e\nruntime: yaml\nconfig: # none yet\n${CONFIG_BLOCK}resources: # none yet\n${resources}outputs: {}\n`,
    );
  });

  it("adds to a 4-space file at its indentation, and keeps its CRLF line breaks", () => {
    const project =
      "name: w\r\nruntime: yaml\r\nresources:\r\n    existing:\r\n        type: random:index:RandomId\r\n";
    const content = written({ "Pulumi.yaml": project }, adopted(ORDERS));
    expect(content).toBe(
      project +
        [
          "    # Adopted by `webhook-subscriptions adopt`: `pulumi up` imports them as they are (options.import).",
          "    orders-example-com-hooks-business-object-created:",
          "        type: webhooks:index:WebhookSubscription",
          "        properties:",
          "            webhook: BusinessObjectCreated",
          "            filterObjectType: 2",
          "            subscriberUrl: https://orders.example.com/hooks",
          "        options:",
          "            import: b2b2b2b2-0000-4000-8000-000000000002",
          "",
        ].join("\r\n"),
    );
  });

  it("refuses flow-style `resources:` with entries, and a file that is not YAML, naming the file", () => {
    expect(
      refusal(() => write({ "Pulumi.yaml": "name: f\nruntime: yaml\nresources: { a: { type: x } }\n" }, one)),
    ).toBe(
      "Pulumi.yaml: `resources:` is written in flow style ({ … }): write it as a block mapping (one key a line), then run adopt again",
    );
    expect(refusal(() => write({ "Pulumi.yaml": "name: [\n" }, one))).toMatch(/^Pulumi\.yaml is not valid YAML \(/);
  });

  it("leaves a flow-style `config:` alone when no key goes into it", () => {
    const project = "name: f\nruntime: yaml\nconfig: { greeting: { type: string } }\nresources:\n  a:\n    type: x\n";
    expect(written({ "Pulumi.yaml": project }, adopted(ORDERS)).startsWith(project)).toBe(true);
    expect(refusal(() => write({ "Pulumi.yaml": project }, one))).toMatch(
      /^Pulumi\.yaml: `config:` is written in flow style/,
    );
  });
});

describe("where the program is (as the YAML language host looks)", () => {
  const project = "name: p\nruntime: yaml\n";
  const main = "resources:\n  x:\n    type: random:index:RandomId\n";

  it("in Main.yaml beside Pulumi.yaml or Pulumi.yml, or in the directory `main:` names", () => {
    const layouts: Record<string, string>[] = [
      { "Pulumi.yaml": project, "Main.yaml": main },
      { "Pulumi.yml": project, "Main.yaml": main },
      { "Pulumi.yaml": `${project}main: ./infra/\n`, "infra/Main.yaml": main },
      { "Pulumi.yaml": `${project}main: infra\n`, "infra/Pulumi.yaml": main },
    ];
    for (const files of layouts) {
      const result = write(files, adopted(ORDERS));
      const program = Object.keys(files)[1]!;
      expect(result.output).toBe(program);
      expect(result.files.map((f) => f.path)).toEqual([program]);
      expect(result.files[0]!.content.startsWith(main)).toBe(true);
    }
  });

  it("refuses a JSON program, a project without one, and a directory with no project", () => {
    expect(refusal(() => write({ "Pulumi.yaml": project, "Main.json": "{}" }, adopted(ORDERS)))).toMatch(
      /^Main\.json is a JSON program/,
    );
    expect(refusal(() => write({ "Pulumi.yml": project }, adopted(ORDERS)))).toBe(
      "Pulumi.yml names no YAML program: the YAML language host reads Main.json, Main.yaml, Pulumi.yaml in the project directory, and none is there",
    );
    expect(refusal(() => write({}, adopted(ORDERS)))).toBe(
      "the target directory has no Pulumi.yaml: adopt into an initialised Pulumi project",
    );
  });
});
