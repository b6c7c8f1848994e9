/**
 * The Terraform/OpenTofu target's writer (adopt/write/terraform.ts): `adopted.tf` in either
 * layout, as HCL that `tofu fmt` leaves unchanged, strings escaped so that no template is read in
 * them, sorted by name, and no header value anywhere — only the ephemeral variables that give one.
 * That tofu and terraform plan it as imports alone is the end-to-end test's.
 */
import { describe, expect, it } from "vitest";
import type { AdoptionName, LiveSubscription } from "../../drift";
import * as writer from "../../adopt/write/terraform";
import { WriteError, type Adopted, type WriteInput } from "../../adopt/write/writer";
import * as door from "../../provider/terraform/schema";
import { RESOURCE_TYPE } from "../../provider/terraform/names";
import { testResourceDescription } from "../support/tfpluginService";
import { liveSubscription } from "../support/liveSubscription";

/** A name in every style from its words. */
function nameOf(...words: string[]): AdoptionName {
  return {
    kebab: words.join("-"),
    snake: words.join("_"),
    camel: words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join(""),
  };
}

/** An adopted subscription: a type-scoped BusinessObjectCreated with no header unless `fields` say. */
function adopted(name: AdoptionName, fields: Partial<LiveSubscription> = {}): Adopted {
  return { name, subscription: liveSubscription(fields) };
}

/** A subscription of each kind: a header with a value, a filter GUID, a header name alone. */
const WITH_VALUE = adopted(nameOf("orders", "example", "com", "hooks", "business", "object", "created"), {
  customHeader: "X-Api-Key",
  hasCustomHeaderValue: true,
});
const WITH_FILTER = adopted(nameOf("billing", "example", "net", "packet", "created"), {
  guid: "7c4d0b2e-0000-4000-8000-000000000002",
  webhook: 0,
  webhookName: "PacketCreated",
  filterObjectGuid: "6f1c2a3b-0000-4000-8000-000000000001",
  subscriberUrl: "https://billing.example.net/packets",
});
const HEADER_NAME_ONLY = adopted(nameOf("types", "example", "org", "business", "object", "type", "updated"), {
  guid: "9a8b7c6d-0000-4000-8000-000000000003",
  webhook: 5,
  webhookName: "BusinessObjectTypeUpdated",
  subscriberUrl: "https://types.example.org/",
  customHeader: "X-Source",
});

/** What a writer reads, with `files` (path → text) as the target directory. */
function input(list: readonly Adopted[], files: Record<string, string> = {}): WriteInput {
  return { adopted: list, existing: (path) => files[path], listFiles: () => Object.keys(files), force: false };
}

/** The one file a layout writes for `list`. */
function written(layout: "each" | "for-each", list: readonly Adopted[], files?: Record<string, string>): string {
  const result = writer.terraformWriter(layout)(input(list, files));
  expect(result.output).toBe("adopted.tf");
  expect(result.files.map((f) => f.path)).toEqual(["adopted.tf"]);
  expect(result.files[0]!.edit).toBeUndefined();
  return result.files[0]!.content;
}

describe("the Terraform door's names, stated again in the writer", () => {
  it("are the door's: the resource type, the write-only value, its version, the version an import records", () => {
    expect(writer.RESOURCE_TYPE).toBe(RESOURCE_TYPE);
    expect(writer.WRITE_ONLY_VALUE).toBe(door.WRITE_ONLY_VALUE);
    expect(writer.WRITE_ONLY_VERSION).toBe(door.WRITE_ONLY_VERSION);
    expect(writer.IMPORTED_VERSION).toBe(door.IMPORTED_VERSION);
  });

  it("write only arguments the resource's schema has, none of them computed", () => {
    const schema = door.terraformSchema(JSON.parse(testResourceDescription())).resources[RESOURCE_TYPE]!;
    const settable = schema.attributes.filter((a) => a.required || a.optional).map((a) => a.name);
    const text = [written("each", [WITH_VALUE, WITH_FILTER, HEADER_NAME_ONLY]), written("for-each", [WITH_VALUE])];
    const resources = text.flatMap((t) => [...t.matchAll(/^resource "webhooks_subscription" "\w+" \{\n([^}]*)\}/gm)]);
    const names = new Set(resources.flatMap((m) => [...m[1]!.matchAll(/^ {2}(\w+) +=/gm)].map((a) => a[1]!)));
    names.delete("for_each");
    expect([...names].filter((name) => !settable.includes(name))).toEqual([]);
    expect(names.size).toBe(7);
  }, 60_000);
});

describe("hclString", () => {
  it("escapes quotes, backslashes and control characters, and doubles template introducers", () => {
    expect(writer.hclString('a "quoted" \\ path')).toBe('"a \\"quoted\\" \\\\ path"');
    expect(writer.hclString("x=${y}&q=%{z}")).toBe('"x=$${y}&q=%%{z}"');
    // Already doubled: each introducer is doubled again, so the text reads back as written.
    expect(writer.hclString("$${a} %%{b}")).toBe('"$$${a} %%%{b}"');
    expect(writer.hclString("a $ b % c {d}")).toBe('"a $ b % c {d}"');
    expect(writer.hclString("line\nnext\r\ttab\u0001\u200b")).toBe('"line\\nnext\\r\\ttab\\u0001\\u200b"');
    expect(writer.hclString("café ✓ 😀")).toBe('"café ✓ 😀"');
  });
});

describe("layout each", () => {
  it("writes a resource with the live values, its import block, and an ephemeral variable for a header value", () => {
    expect(written("each", [WITH_VALUE]))
      .toBe(`# Written by \`webhook-subscriptions adopt\`: 1 webhook subscription(s) no configuration managed,
# each declared with its live values. The \`import\` blocks take them under this configuration at the
# next apply, which changes nothing on the instance; afterwards they may stay or be deleted.
#
# No custom header value is in this file or in the state, and none is needed to adopt: each goes to
# the write-only custom_header_value_wo from an ephemeral variable, null unless set. To change a
# subscription with a header value, set its value in the environment, TF_VAR_<name>_header_value,
# and change its custom_header_value_wo_version (e.g. from 0 to 1) so that it is sent again.

resource "webhooks_subscription" "orders_example_com_hooks_business_object_created" {
  webhook                        = "BusinessObjectCreated"
  filter_object_type             = 2
  subscriber_url                 = "https://orders.example.com/hooks"
  custom_header                  = "X-Api-Key"
  custom_header_value_wo         = var.orders_example_com_hooks_business_object_created_header_value
  custom_header_value_wo_version = 0
}

import {
  to = webhooks_subscription.orders_example_com_hooks_business_object_created
  id = "3f2a9c1d-0000-4000-8000-000000000001"
}

variable "orders_example_com_hooks_business_object_created_header_value" {
  type        = string
  ephemeral   = true
  default     = null
  description = "The X-Api-Key header value of webhooks_subscription.orders_example_com_hooks_business_object_created (write-only, stored nowhere): set TF_VAR_orders_example_com_hooks_business_object_created_header_value only to change the subscription, and change its custom_header_value_wo_version too."
}
`);
  });

  it("writes filter_object_guid only when set, custom_header only when named, and no variable without a value", () => {
    const text = written("each", [WITH_FILTER, HEADER_NAME_ONLY]);
    expect(text).toContain(`resource "webhooks_subscription" "billing_example_net_packet_created" {
  webhook            = "PacketCreated"
  filter_object_type = 2
  filter_object_guid = "6f1c2a3b-0000-4000-8000-000000000001"
  subscriber_url     = "https://billing.example.net/packets"
}`);
    expect(text).toContain(`resource "webhooks_subscription" "types_example_org_business_object_type_updated" {
  webhook            = "BusinessObjectTypeUpdated"
  filter_object_type = 2
  subscriber_url     = "https://types.example.org/"
  custom_header      = "X-Source"
}`);
    expect(text).not.toMatch(/variable|custom_header_value|TF_VAR/);
    expect(text.match(/^import \{$/gm)).toHaveLength(2);
  });

  it("escapes a subscriber URL holding quotes, backslashes and template introducers", () => {
    const text = written("each", [
      adopted(nameOf("odd"), { subscriberUrl: 'https://odd.example.com/a?x=${y}&q=%{z}&b=\\"' }),
    ]);
    expect(text).toContain('subscriber_url     = "https://odd.example.com/a?x=$${y}&q=%%{z}&b=\\\\\\""');
  });
});

describe("layout for-each", () => {
  it("writes one map of the live values, one resource and one import block over it, and one variable", () => {
    expect(written("for-each", [WITH_VALUE, WITH_FILTER]))
      .toBe(`# Written by \`webhook-subscriptions adopt\`: 2 webhook subscription(s) no configuration managed,
# each declared with its live values. The \`import\` blocks take them under this configuration at the
# next apply, which changes nothing on the instance; afterwards they may stay or be deleted.
#
# No custom header value is in this file or in the state, and none is needed to adopt: each goes to
# the write-only custom_header_value_wo from an ephemeral variable, null unless set. To change a
# subscription with a header value, set TF_VAR_adopted_header_values to a map from its key in
# local.adopted_webhooks to its value, e.g.
# TF_VAR_adopted_header_values='{ orders_example_com_hooks_business_object_created = "…" }',
# and change its custom_header_value_wo_version there (e.g. from 0 to 1) so that it is sent again.

locals {
  adopted_webhooks = {
    "billing_example_net_packet_created" = {
      guid                           = "7c4d0b2e-0000-4000-8000-000000000002"
      webhook                        = "PacketCreated"
      filter_object_type             = 2
      filter_object_guid             = "6f1c2a3b-0000-4000-8000-000000000001"
      subscriber_url                 = "https://billing.example.net/packets"
      custom_header                  = null
      custom_header_value_wo_version = null
    }
    "orders_example_com_hooks_business_object_created" = {
      guid                           = "3f2a9c1d-0000-4000-8000-000000000001"
      webhook                        = "BusinessObjectCreated"
      filter_object_type             = 2
      filter_object_guid             = null
      subscriber_url                 = "https://orders.example.com/hooks"
      custom_header                  = "X-Api-Key"
      custom_header_value_wo_version = 0
    }
  }
}

resource "webhooks_subscription" "adopted" {
  for_each = local.adopted_webhooks

  webhook                        = each.value.webhook
  filter_object_type             = each.value.filter_object_type
  filter_object_guid             = each.value.filter_object_guid
  subscriber_url                 = each.value.subscriber_url
  custom_header                  = each.value.custom_header
  custom_header_value_wo         = lookup(var.adopted_header_values, each.key, null)
  custom_header_value_wo_version = each.value.custom_header_value_wo_version
}

import {
  for_each = local.adopted_webhooks
  to       = webhooks_subscription.adopted[each.key]
  id       = each.value.guid
}

variable "adopted_header_values" {
  type        = map(string)
  ephemeral   = true
  default     = {}
  description = "The custom header values of local.adopted_webhooks, by key (write-only, stored nowhere): set TF_VAR_adopted_header_values only to change a subscription, and change its custom_header_value_wo_version too."
}
`);
  });

  it("writes an empty map, and says nothing of header values in its comment, when there is nothing with one", () => {
    const text = written("for-each", []);
    expect(text).toContain("locals {\n  adopted_webhooks = {}\n}");
    expect(text).not.toContain("# No custom header value");
  });
});

describe("either layout", () => {
  it.each(["each", "for-each"] as const)("%s: is the same text whatever the order it is given", (layout) => {
    const text = written(layout, [WITH_VALUE, HEADER_NAME_ONLY, WITH_FILTER]);
    expect(written(layout, [WITH_FILTER, WITH_VALUE, HEADER_NAME_ONLY])).toBe(text);
    const declared = [...text.matchAll(/^(?:resource "webhooks_subscription" | {4})"(\w+)"/gm)].map((m) => m[1]);
    expect(declared.filter((name) => name !== "adopted")).toEqual([
      "billing_example_net_packet_created",
      "orders_example_com_hooks_business_object_created",
      "types_example_org_business_object_type_updated",
    ]);
  });

  it.each(["each", "for-each"] as const)("%s: refuses an event this release does not know, naming it", (layout) => {
    const unknown = adopted(nameOf("new", "event"), { webhook: 9, webhookName: null });
    expect(() => writer.terraformWriter(layout)(input([WITH_VALUE, unknown]))).toThrow(WriteError);
    expect(() => writer.terraformWriter(layout)(input([unknown]))).toThrow(
      "Subscription 3f2a9c1d-0000-4000-8000-000000000001 (new-event) listens to event 9, which this release does not know",
    );
  });

  it("refuses to declare what another file of the configuration declares, naming it and the file", () => {
    const files = {
      "main.tf": `resource "webhooks_subscription" "billing_example_net_packet_created" {}\n`,
      "variables.tf": `variable "orders_example_com_hooks_business_object_created_header_value" {}\n`,
      "adopted.tf": `resource "webhooks_subscription" "adopted" {}\n`,
      "modules/x.tf": `resource "webhooks_subscription" "orders_example_com_hooks_business_object_created" {}\n`,
    };
    expect(() => writer.terraformWriter("each")(input([WITH_VALUE, WITH_FILTER], files))).toThrow(
      "adopted.tf would declare what the configuration already declares: " +
        "webhooks_subscription.billing_example_net_packet_created (main.tf), " +
        "var.orders_example_com_hooks_business_object_created_header_value (variables.tf). " +
        "Name those subscriptions otherwise with --names",
    );
    // adopted.tf is the file being written (replaced with --force), and a module's files are not the root's.
    expect(() => writer.terraformWriter("for-each")(input([WITH_VALUE], files))).not.toThrow();
    const taken = { "main.tf": `locals {\n  adopted_webhooks = {}\n}\nvariable "adopted_header_values" {}\n` };
    expect(() => writer.terraformWriter("for-each")(input([WITH_VALUE], taken))).toThrow(
      "var.adopted_header_values (main.tf), local.adopted_webhooks (main.tf)",
    );
  });
});
