/**
 * The Pulumi writers of adopt (adopt/write/pulumi/): each declares every subscription with exactly
 * its live values in the program's language, with the front door's takeover (`adoptGuid`, or the
 * `import` resource option), reads a header value from secret config and never holds one, and makes
 * the new file part of the program once. That the code runs, imports and plans empty is proven
 * against the engine by the end-to-end test of adopt.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { liveSubscription } from "../support/liveSubscription";
import { tempDirs } from "../support/tempDirs";
import { goWriter } from "../../adopt/write/pulumi/go";
import { javaWriter } from "../../adopt/write/pulumi/java";
import { pythonWriter } from "../../adopt/write/pulumi/python";
import { typescriptDynamicWriter } from "../../adopt/write/pulumi/typescriptDynamic";
import { typescriptNativeWriter } from "../../adopt/write/pulumi/typescriptNative";
import { WriteError, type Adopted, type WriteInput, type Written, type Writer } from "../../adopt/write/writer";
import { adoptionNames, headerValueConfigKey, type LiveSubscription } from "../../drift";

const EXAMPLES = join(__dirname, "..", "..", "examples");

/** A live subscription as the review describes it. */
function live(guid: string, fields: Partial<LiveSubscription> & Pick<LiveSubscription, "webhook" | "subscriberUrl">) {
  return liveSubscription({ guid, webhookName: null, ...fields });
}

/** Three subscriptions: object-scoped with a header value, type-scoped, and an event newer than this package with an odd URL. */
const LIVE: LiveSubscription[] = [
  live("3f2a9c1d-0000-4000-8000-000000000001", {
    webhook: 0,
    webhookName: "PacketCreated",
    filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
    subscriberUrl: "https://orders.example.com/hooks",
    customHeader: "X-Api-Key",
    hasCustomHeaderValue: true,
  }),
  live("77777777-0000-4000-8000-000000000002", {
    webhook: 3,
    webhookName: "BusinessObjectCreated",
    filterObjectType: 7,
    subscriberUrl: "https://catalogue.example.com/objects",
  }),
  live("88888888-0000-4000-8000-000000000003", {
    webhook: 9,
    filterObjectType: 0,
    subscriberUrl: 'https://audit.example.com/q"uote\\back',
  }),
];

/** The subscriptions as adopt hands them over: named, and with their secret config key where they have a header value. */
function adopted(subscriptions: readonly LiveSubscription[] = LIVE): Adopted[] {
  const names = adoptionNames(subscriptions);
  return subscriptions.map((subscription) => {
    const name = names.get(subscription.guid)!;
    return {
      subscription,
      name,
      ...(subscription.hasCustomHeaderValue ? { secretKey: headerValueConfigKey(name) } : {}),
    };
  });
}

/** A writer's input over `files` (path → text). */
function input(files: Record<string, string>, subscriptions?: readonly LiveSubscription[]): WriteInput {
  return {
    adopted: adopted(subscriptions),
    existing: (path) => files[path],
    listFiles: () => Object.keys(files),
    force: false,
  };
}

/** `files` with what `written` writes applied: the second run of adopt sees these. */
function applied(files: Record<string, string>, written: Written): Record<string, string> {
  return { ...files, ...Object.fromEntries(written.files.map((f) => [f.path, f.content])) };
}

const example = (...path: string[]) => readFileSync(join(EXAMPLES, ...path), "utf8");
const generated = (written: Written) => written.files.find((f) => f.path === written.output)!.content;
const editOf = (written: Written) => written.files.find((f) => f.edit)?.content;

const SECRET_KEY = "ordersExampleComHooksPacketCreatedHeaderValue";

describe("every Pulumi writer", () => {
  const cases: [string, Writer, Record<string, string>][] = [
    [
      "typescript dynamic",
      typescriptDynamicWriter,
      { "Pulumi.yaml": example("basic", "Pulumi.yaml"), "index.ts": example("basic", "index.ts") },
    ],
    [
      "typescript native",
      typescriptNativeWriter,
      {
        "Pulumi.yaml": example("typescript-native", "Pulumi.yaml"),
        "index.ts": example("typescript-native", "index.ts"),
      },
    ],
    [
      "python",
      pythonWriter,
      { "Pulumi.yaml": example("python", "Pulumi.yaml"), "__main__.py": example("python", "__main__.py") },
    ],
    ["go", goWriter, { "Pulumi.yaml": example("go", "Pulumi.yaml"), "main.go": example("go", "main.go") }],
    [
      "java",
      javaWriter,
      {
        "Pulumi.yaml": example("java", "Pulumi.yaml"),
        "src/main/java/example/App.java": example("java", "src", "main", "java", "example", "App.java"),
      },
    ],
  ];

  it.each(cases)(
    "%s: the same file on every run, in name order, whatever order the subscriptions come in",
    (_, writer, files) => {
      const once = writer(input(files));
      expect(writer(input(files, [...LIVE].reverse()))).toEqual(once);
      const content = generated(once);
      const at = (text: string) => content.indexOf(text);
      expect(at("audit-example-com-q-uote-back-webhook-9")).toBeGreaterThan(0);
      expect(at("audit-example-com")).toBeLessThan(at("catalogue-example-com"));
      expect(at("catalogue-example-com")).toBeLessThan(at("orders-example-com"));
    },
  );

  it.each(cases)(
    "%s: says what it is, and holds each GUID and the secret key, never a header value",
    (_, writer, files) => {
      const content = generated(writer(input(files)));
      expect(content).toContain("Generated by `webhook-subscriptions adopt`");
      expect(content).toContain("secret config");
      for (const s of LIVE) expect(content).toContain(`"${s.guid}"`);
      expect(content).toContain(`"${SECRET_KEY}"`);
      // The key is read once, for the one subscription that has a header value, and no value is made secret in code.
      const reads = /(?:requireSecret|require_secret|adoptedSecret)\((?:ctx, )?"([^"]*)"\)/g;
      expect([...content.matchAll(reads)].map((m) => m[1])).toEqual([SECRET_KEY]);
      expect(content).not.toMatch(/(?:pulumi\.secret|Output\.secret|ofSecret|ToSecret\(pulumi\.String)\(\s*"/);
    },
  );

  it.each(cases)("%s: escapes quotes and backslashes in a string", (_, writer, files) => {
    expect(generated(writer(input(files)))).toContain(String.raw`"https://audit.example.com/q\"uote\\back"`);
  });

  it.each(cases)("%s: includes the file in the program once: a second run edits nothing", (_, writer, files) => {
    const first = writer(input(files));
    expect(first.include).toBeUndefined();
    expect(first.files.filter((f) => f.edit)).toHaveLength(1);
    const second = writer(input(applied(files, first)));
    expect(second.files.filter((f) => f.edit)).toEqual([]);
    expect(second.include).toBeUndefined();
    expect(generated(second)).toBe(generated(first));
  });
});

describe("typescript, dynamic provider", () => {
  const files = { "index.ts": example("basic", "index.ts") };

  it("declares each subscription as the review's adoption snippet, adopted by adoptGuid", () => {
    expect(generated(typescriptDynamicWriter(input(files)))).toMatchInlineSnapshot(`
      "// Generated by \`webhook-subscriptions adopt\`: the webhook subscriptions no program declared, each
      // with the values it has on the instance. Its \`adoptGuid\` makes the next \`pulumi up\` take it over,
      // keeping its GUID and Signature; every value being the live one, nothing changes on the instance.
      // Custom header values are not in this file: the code reads them from the stack's secret config,
      // where adopt stored them encrypted (\`pulumi config set --secret <key>\`).

      import * as pulumi from "@pulumi/pulumi";
      import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

      export const auditExampleComQUoteBackWebhook9 = new WebhookSubscription("audit-example-com-q-uote-back-webhook-9", {
        adoptGuid: "88888888-0000-4000-8000-000000000003",
        webhook: 9,
        filterObjectType: 0,
        subscriberUrl: "https://audit.example.com/q\\"uote\\\\back",
      });

      export const catalogueExampleComObjectsBusinessObjectCreated = new WebhookSubscription("catalogue-example-com-objects-business-object-created", {
        adoptGuid: "77777777-0000-4000-8000-000000000002",
        webhook: Webhook.BusinessObjectCreated,
        filterObjectType: 7,
        subscriberUrl: "https://catalogue.example.com/objects",
      });

      export const ordersExampleComHooksPacketCreated = new WebhookSubscription("orders-example-com-hooks-packet-created", {
        adoptGuid: "3f2a9c1d-0000-4000-8000-000000000001",
        webhook: Webhook.PacketCreated,
        filterObjectType: 2,
        filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
        subscriberUrl: "https://orders.example.com/hooks",
        customHeader: "X-Api-Key",
        // The live value, from the stack's secret config: adopt stores it there; by hand, pulumi config set --secret ordersExampleComHooksPacketCreatedHeaderValue <value>
        customHeaderValue: new pulumi.Config().requireSecret("ordersExampleComHooksPacketCreatedHeaderValue"),
      });
      "
    `);
  });

  it("imports the file after the entry's last import", () => {
    const written = typescriptDynamicWriter(input(files));
    expect(written.output).toBe("webhooks-adopted.ts");
    expect(editOf(written)).toBe(
      files["index.ts"].replace(
        'from "pulumi-webhook-subscriptions";\n',
        'from "pulumi-webhook-subscriptions";\nimport "./webhooks-adopted";\n',
      ),
    );
  });
});

describe("typescript, native plugin", () => {
  const files = { "Pulumi.yaml": "name: p\nruntime: nodejs\n", "index.ts": example("typescript-native", "index.ts") };

  it("declares each subscription through the SDK, with the import resource option", () => {
    expect(generated(typescriptNativeWriter(input(files)))).toMatchInlineSnapshot(`
      "// Generated by \`webhook-subscriptions adopt\`: the webhook subscriptions no program declared, each
      // with the values it has on the instance. The \`import\` resource option makes the next \`pulumi up\`
      // take each one over into the stack's state; every value being the live one, nothing changes on
      // the instance.
      // Custom header values are not in this file: the code reads them from the stack's secret config,
      // where adopt stored them encrypted (\`pulumi config set --secret <key>\`).

      import * as pulumi from "@pulumi/pulumi";
      import * as webhooks from "pulumi-webhook-subscriptions/native";

      export const auditExampleComQUoteBackWebhook9 = new webhooks.WebhookSubscription(
        "audit-example-com-q-uote-back-webhook-9",
        {
          // Event 9 is newer than the adopt that wrote this: the SDK's Webhook member for it reads better.
          webhook: 9 as unknown as webhooks.Webhook,
          filterObjectType: 0,
          subscriberUrl: "https://audit.example.com/q\\"uote\\\\back",
        },
        { import: "88888888-0000-4000-8000-000000000003" },
      );

      export const catalogueExampleComObjectsBusinessObjectCreated = new webhooks.WebhookSubscription(
        "catalogue-example-com-objects-business-object-created",
        {
          webhook: webhooks.Webhook.BusinessObjectCreated,
          filterObjectType: 7,
          subscriberUrl: "https://catalogue.example.com/objects",
        },
        { import: "77777777-0000-4000-8000-000000000002" },
      );

      export const ordersExampleComHooksPacketCreated = new webhooks.WebhookSubscription(
        "orders-example-com-hooks-packet-created",
        {
          webhook: webhooks.Webhook.PacketCreated,
          filterObjectType: 2,
          filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
          subscriberUrl: "https://orders.example.com/hooks",
          customHeader: "X-Api-Key",
          customHeaderValue: new pulumi.Config().requireSecret("ordersExampleComHooksPacketCreatedHeaderValue"),
        },
        { import: "3f2a9c1d-0000-4000-8000-000000000001" },
      );
      "
    `);
  });

  it("finds the entry through Pulumi.yaml's main, else package.json's (its .ts source), and writes beside it", () => {
    const main = typescriptNativeWriter(
      input({
        "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: src/program.ts\n",
        "src/program.ts": 'import * as x from "y";\n',
      }),
    );
    expect(main.output).toBe("src/webhooks-adopted.ts");
    expect(main.files.find((f) => f.edit)?.path).toBe("src/program.ts");
    const pkg = typescriptNativeWriter(
      input({
        "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: app/\n",
        "app/package.json": '{"main": "bin/index.js"}',
        "app/bin/index.ts": 'import * as x from "y";\n',
      }),
    );
    expect(pkg.output).toBe("app/bin/webhooks-adopted.ts");
    expect(editOf(pkg)).toBe('import * as x from "y";\nimport "./webhooks-adopted";\n');
  });

  it("puts the import after a last import that spans lines", () => {
    const text = 'import {\n  a,\n  b,\n} from "x";\n\nconst c = a;\n';
    expect(editOf(typescriptNativeWriter(input({ "index.ts": text })))).toBe(
      'import {\n  a,\n  b,\n} from "x";\nimport "./webhooks-adopted";\n\nconst c = a;\n',
    );
  });

  it("edits nothing, and says the one line to add and where, when the entry has no import or does not exist", () => {
    for (const files of [{ "index.ts": "export const x = 1;\n" }, {}] as Record<string, string>[]) {
      const written = typescriptNativeWriter(input(files));
      expect(written.files.map((f) => f.path)).toEqual(["webhooks-adopted.ts"]);
      expect(written.include).toBe(
        'Add `import "./webhooks-adopted";` to index.ts after its last import, so that the program declares the adopted subscriptions.',
      );
    }
  });
});

const tempDir = tempDirs();

describe("python", () => {
  const files = { "__main__.py": example("python", "__main__.py") };

  it("declares each subscription through pulumi_webhooks, with import_", () => {
    expect(generated(pythonWriter(input(files)))).toMatchInlineSnapshot(`
      "# Generated by \`webhook-subscriptions adopt\`: the webhook subscriptions no program declared, each
      # with the values it has on the instance. The \`import\` resource option makes the next \`pulumi up\`
      # take each one over into the stack's state; every value being the live one, nothing changes on
      # the instance.
      # Custom header values are not in this file: the code reads them from the stack's secret config,
      # where adopt stored them encrypted (\`pulumi config set --secret <key>\`).

      import pulumi
      import pulumi_webhooks as webhooks

      audit_example_com_q_uote_back_webhook_9 = webhooks.WebhookSubscription(
          "audit-example-com-q-uote-back-webhook-9",
          # Event 9 is newer than the adopt that wrote this: the SDK's Webhook member for it reads better.
          webhook=9,
          filter_object_type=0,
          subscriber_url="https://audit.example.com/q\\"uote\\\\back",
          opts=pulumi.ResourceOptions(import_="88888888-0000-4000-8000-000000000003"),
      )

      catalogue_example_com_objects_business_object_created = webhooks.WebhookSubscription(
          "catalogue-example-com-objects-business-object-created",
          webhook=webhooks.Webhook.BUSINESS_OBJECT_CREATED,
          filter_object_type=7,
          subscriber_url="https://catalogue.example.com/objects",
          opts=pulumi.ResourceOptions(import_="77777777-0000-4000-8000-000000000002"),
      )

      orders_example_com_hooks_packet_created = webhooks.WebhookSubscription(
          "orders-example-com-hooks-packet-created",
          webhook=webhooks.Webhook.PACKET_CREATED,
          filter_object_type=2,
          filter_object_guid="6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
          subscriber_url="https://orders.example.com/hooks",
          custom_header="X-Api-Key",
          custom_header_value=pulumi.Config().require_secret("ordersExampleComHooksPacketCreatedHeaderValue"),
          opts=pulumi.ResourceOptions(import_="3f2a9c1d-0000-4000-8000-000000000001"),
      )
      "
    `);
  });

  it("writes webhooks_adopted.py and imports it after the last import, a parenthesised one included", () => {
    const written = pythonWriter(input(files));
    expect(written.output).toBe("webhooks_adopted.py");
    expect(editOf(written)).toBe(
      files["__main__.py"].replace(
        "import pulumi_webhooks as webhooks\n",
        "import pulumi_webhooks as webhooks\nimport webhooks_adopted  # noqa: F401\n",
      ),
    );
    const text = '"""Doc."""\nimport pulumi\nfrom x import (\n    a,\n    b,\n)\n\nprint(a)\n';
    expect(editOf(pythonWriter(input({ "__main__.py": text })))).toBe(
      '"""Doc."""\nimport pulumi\nfrom x import (\n    a,\n    b,\n)\nimport webhooks_adopted  # noqa: F401\n\nprint(a)\n',
    );
  });

  it("a file main runs the module's file, as runpy runs the main (its folder is not on sys.path)", () => {
    const dir = tempDir("adopt-python-main-");
    const prog = "import pulumi\n\npulumi.export('ok', 1)\n";
    const written = pythonWriter(
      input({ "Pulumi.yaml": "name: p\nruntime: python\nmain: prog.py\n", "prog.py": prog }),
    );
    expect(written.output).toBe("webhooks_adopted.py");
    const entry = editOf(written)!;
    expect(entry).toContain(
      'runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "webhooks_adopted.py"))',
    );
    // As pulumi-language-python-exec runs it: runpy.run_path from another folder, with stand-ins for the SDK.
    writeFileSync(join(dir, "prog.py"), entry);
    writeFileSync(join(dir, "webhooks_adopted.py"), "print('adopted')\n");
    mkdirSync(join(dir, "sdk", "pulumi"), { recursive: true });
    writeFileSync(join(dir, "sdk", "pulumi", "__init__.py"), "def export(name, value):\n    pass\n");
    const out = execFileSync(
      "python3",
      ["-c", `import runpy; runpy.run_path(${JSON.stringify(join(dir, "prog.py"))}, run_name="__main__")`],
      {
        cwd: tmpdir(),
        env: { ...process.env, PYTHONPATH: join(dir, "sdk") },
        encoding: "utf8",
      },
    );
    expect(out).toBe("adopted\n");
    // Written once: a second run finds it included.
    expect(
      editOf(pythonWriter(input({ "Pulumi.yaml": "name: p\nruntime: python\nmain: prog.py\n", "prog.py": entry }))),
    ).toBeUndefined();
  });

  it("says where to add the import when __main__.py has none", () => {
    const written = pythonWriter(input({ "__main__.py": "print(1)\n" }));
    expect(written.files.filter((f) => f.edit)).toEqual([]);
    expect(written.include).toBe(
      "Add `import webhooks_adopted  # noqa: F401` to __main__.py after its last import, so that the program declares the adopted subscriptions.",
    );
  });
});

describe("go", () => {
  const files = { "main.go": example("go", "main.go"), "go.mod": example("go", "go.mod") };

  it("declares each subscription through the Go SDK, with pulumi.Import, in one function", () => {
    expect(generated(goWriter(input(files)))).toMatchInlineSnapshot(`
      "// Generated by \`webhook-subscriptions adopt\`: the webhook subscriptions no program declared, each
      // with the values it has on the instance. The \`import\` resource option makes the next \`pulumi up\`
      // take each one over into the stack's state; every value being the live one, nothing changes on
      // the instance.
      // Custom header values are not in this file: the code reads them from the stack's secret config,
      // where adopt stored them encrypted (\`pulumi config set --secret <key>\`).

      package main

      import (
      	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
      	"github.com/webhook-subscriptions/pulumi-webhook-subscriptions/sdk/go/webhooks"
      )

      // adoptedWebhooks declares the adopted subscriptions; the function pulumi.Run runs calls it.
      func adoptedWebhooks(ctx *pulumi.Context) error {
      	// Event 9 is newer than the adopt that wrote this, and the SDK's Webhook type holds names only:
      	// write its name (the SDK's Webhook constant for it) before running the program.
      	if _, err := webhooks.NewWebhookSubscription(ctx, "audit-example-com-q-uote-back-webhook-9", &webhooks.WebhookSubscriptionArgs{
      		Webhook:          webhooks.Webhook("9"),
      		FilterObjectType: pulumi.Int(0),
      		SubscriberUrl:    pulumi.String("https://audit.example.com/q\\"uote\\\\back"),
      	}, pulumi.Import(pulumi.ID("88888888-0000-4000-8000-000000000003"))); err != nil {
      		return err
      	}
      	if _, err := webhooks.NewWebhookSubscription(ctx, "catalogue-example-com-objects-business-object-created", &webhooks.WebhookSubscriptionArgs{
      		Webhook:          webhooks.WebhookBusinessObjectCreated,
      		FilterObjectType: pulumi.Int(7),
      		SubscriberUrl:    pulumi.String("https://catalogue.example.com/objects"),
      	}, pulumi.Import(pulumi.ID("77777777-0000-4000-8000-000000000002"))); err != nil {
      		return err
      	}
      	if _, err := webhooks.NewWebhookSubscription(ctx, "orders-example-com-hooks-packet-created", &webhooks.WebhookSubscriptionArgs{
      		Webhook:           webhooks.WebhookPacketCreated,
      		FilterObjectType:  pulumi.Int(2),
      		FilterObjectGuid:  pulumi.String("6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b"),
      		SubscriberUrl:     pulumi.String("https://orders.example.com/hooks"),
      		CustomHeader:      pulumi.String("X-Api-Key"),
      		CustomHeaderValue: adoptedSecret(ctx, "ordersExampleComHooksPacketCreatedHeaderValue"),
      	}, pulumi.Import(pulumi.ID("3f2a9c1d-0000-4000-8000-000000000001"))); err != nil {
      		return err
      	}
      	return nil
      }

      // adoptedSecret is the stack's secret config value of key, kept secret, as config.RequireSecret gives it.
      func adoptedSecret(ctx *pulumi.Context, key string) pulumi.StringOutput {
      	value, ok := ctx.GetConfig(ctx.Project() + ":" + key)
      	if !ok {
      		panic("missing required configuration variable '" + ctx.Project() + ":" + key + "': set it with \`pulumi config set --secret " + key + " <value>\`")
      	}
      	return pulumi.ToSecret(pulumi.String(value)).(pulumi.StringOutput)
      }
      "
    `);
  });

  it("calls the function first in the pulumi.Run literal", () => {
    const written = goWriter(input(files));
    expect(written.output).toBe("webhooks_adopted.go");
    expect(editOf(written)).toBe(
      files["main.go"].replace(
        "\tpulumi.Run(func(ctx *pulumi.Context) error {\n",
        "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tif err := adoptedWebhooks(ctx); err != nil {\n\t\t\treturn err\n\t\t}\n",
      ),
    );
  });

  it("calls it first in a function pulumi.Run is given by name, with that function's context", () => {
    const main = "package main\n\nfunc main() {\n\tpulumi.Run(program)\n}\n";
    const program = "package main\n\nfunc program(c *pulumi.Context) error {\n\treturn nil\n}\n";
    const written = goWriter(input({ "main.go": main, "program.go": program }));
    expect(written.files.find((f) => f.edit)).toEqual({
      path: "program.go",
      content:
        "package main\n\nfunc program(c *pulumi.Context) error {\n\tif err := adoptedWebhooks(c); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
      edit: true,
    });
  });

  it("says what to add where when no pulumi.Run is found", () => {
    const written = goWriter(input({ "main.go": "package main\n\nfunc main() {}\n" }));
    expect(written.files.filter((f) => f.edit)).toEqual([]);
    expect(written.include).toBe(
      "Add `if err := adoptedWebhooks(ctx); err != nil { return err }` to main.go as the first statement of the function pulumi.Run runs, so that the program declares the adopted subscriptions.",
    );
  });

  it("imports the SDK under the module path the program's go.mod requires", () => {
    const goMod = "module m\n\nrequire (\n\tgithub.com/acme/pulumi-webhook-subscriptions/sdk/go v0.2.0\n)\n";
    expect(generated(goWriter(input({ "go.mod": goMod })))).toContain(
      '\t"github.com/acme/pulumi-webhook-subscriptions/sdk/go/webhooks"\n',
    );
  });
});

describe("java", () => {
  const APP = "src/main/java/example/App.java";
  const files = { [APP]: example("java", "src", "main", "java", "example", "App.java") };

  it("declares each subscription through the Java SDK, with importId, in WebhooksAdopted.declare", () => {
    expect(generated(javaWriter(input(files)))).toMatchInlineSnapshot(`
      "// Generated by \`webhook-subscriptions adopt\`: the webhook subscriptions no program declared, each
      // with the values it has on the instance. The \`import\` resource option makes the next \`pulumi up\`
      // take each one over into the stack's state; every value being the live one, nothing changes on
      // the instance.
      // Custom header values are not in this file: the code reads them from the stack's secret config,
      // where adopt stored them encrypted (\`pulumi config set --secret <key>\`).

      package example;

      import com.pulumi.Context;
      import com.pulumi.core.Output;
      import com.pulumi.resources.CustomResourceOptions;
      import io.github.webhooksubscriptions.webhooks.WebhookSubscription;
      import io.github.webhooksubscriptions.webhooks.WebhookSubscriptionArgs;
      import io.github.webhooksubscriptions.webhooks.enums.Webhook;

      /** The adopted webhook subscriptions: the program's Pulumi.run calls {@link #declare} first. */
      public final class WebhooksAdopted {
          private WebhooksAdopted() {}

          /** Declares each adopted subscription, to be imported with its live values. */
          @SuppressWarnings("unchecked")
          public static void declare(Context ctx) {
              // Event 9 is newer than the adopt that wrote this: the SDK's Webhook member for it reads better.
              var auditExampleComQUoteBackWebhook9 = new WebhookSubscription("audit-example-com-q-uote-back-webhook-9", WebhookSubscriptionArgs.builder()
                  .webhook((Output<Webhook>) (Output<?>) Output.of(9))
                  .filterObjectType(0)
                  .subscriberUrl("https://audit.example.com/q\\"uote\\\\back")
                  .build(),
                  CustomResourceOptions.builder().importId("88888888-0000-4000-8000-000000000003").build());
              var catalogueExampleComObjectsBusinessObjectCreated = new WebhookSubscription("catalogue-example-com-objects-business-object-created", WebhookSubscriptionArgs.builder()
                  .webhook(Webhook.BusinessObjectCreated)
                  .filterObjectType(7)
                  .subscriberUrl("https://catalogue.example.com/objects")
                  .build(),
                  CustomResourceOptions.builder().importId("77777777-0000-4000-8000-000000000002").build());
              var ordersExampleComHooksPacketCreated = new WebhookSubscription("orders-example-com-hooks-packet-created", WebhookSubscriptionArgs.builder()
                  .webhook(Webhook.PacketCreated)
                  .filterObjectType(2)
                  .filterObjectGuid("6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b")
                  .subscriberUrl("https://orders.example.com/hooks")
                  .customHeader("X-Api-Key")
                  .customHeaderValue(ctx.config().requireSecret("ordersExampleComHooksPacketCreatedHeaderValue"))
                  .build(),
                  CustomResourceOptions.builder().importId("3f2a9c1d-0000-4000-8000-000000000001").build());
          }
      }
      "
    `);
  });

  it("writes beside the class calling Pulumi.run, in its package, and calls declare first in the method it runs", () => {
    const written = javaWriter(input(files));
    expect(written.output).toBe("src/main/java/example/WebhooksAdopted.java");
    expect(generated(written)).toContain("\npackage example;\n");
    expect(editOf(written)).toBe(
      files[APP].replace(
        "    static void stack(Context ctx) {\n",
        "    static void stack(Context ctx) {\n        WebhooksAdopted.declare(ctx);\n",
      ),
    );
  });

  it("calls declare first in a Pulumi.run lambda", () => {
    const app =
      'package a.b;\n\npublic class Main {\n    public static void main(String[] args) {\n        Pulumi.run(context -> {\n            context.export("x", Output.of(1));\n        });\n    }\n}\n';
    const written = javaWriter(input({ "src/main/java/a/b/Main.java": app }));
    expect(written.output).toBe("src/main/java/a/b/WebhooksAdopted.java");
    expect(editOf(written)).toBe(
      app.replace(
        "Pulumi.run(context -> {\n",
        "Pulumi.run(context -> {\n            WebhooksAdopted.declare(context);\n",
      ),
    );
  });

  it("says what to add where when Pulumi.run's argument is neither a block lambda nor a method of its class", () => {
    const app = "package a;\nclass Main { public static void main(String[] a) { Pulumi.run(Other::go); } }\n";
    const written = javaWriter(input({ "Main.java": app }));
    expect(written.output).toBe("WebhooksAdopted.java");
    expect(written.files.filter((f) => f.edit)).toEqual([]);
    expect(written.include).toBe(
      "Add `WebhooksAdopted.declare(ctx);` to Main.java as the first statement of what its Pulumi.run runs, so that the program declares the adopted subscriptions.",
    );
  });

  it("refuses a program without a class calling Pulumi.run", () => {
    expect(() => javaWriter(input({ "src/main/java/a/Util.java": "class Util {}\n" }))).toThrowError(WriteError);
    expect(() => javaWriter(input({}))).toThrowErrorMatchingInlineSnapshot(
      `[WriteError: No Java class of this program calls Pulumi.run, so adopt cannot tell where WebhooksAdopted.java goes: it belongs beside that class, in its package. Point --cwd at the program's directory (the one with Pulumi.yaml and the class).]`,
    );
  });
});
