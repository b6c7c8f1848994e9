/** The public API a Pulumi program imports, as product.md fixes it: names, values and types. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as pkg from "pulumi-webhook-subscriptions";
import { Webhook, WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";

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

  it("exports the resource, the client, the error classes and the receiver helpers", () => {
    for (const name of [
      "WebhookSubscription",
      "WebhookSubscriptionClient",
      "WebhookApiError",
      "NotFoundError",
      "AmbiguousResultError",
      "ConfigurationError",
      "verifySignature",
      "assertSignature",
    ])
      expect(typeof (pkg as Record<string, unknown>)[name], name).toBe("function");
  });

  it("types the arguments as Pulumi inputs and the outputs as Outputs", () => {
    expectTypeOf<WebhookSubscriptionArgs["subscriberUrl"]>().toEqualTypeOf<pulumi.Input<string>>();
    expectTypeOf<WebhookSubscriptionArgs["webhook"]>().toEqualTypeOf<pulumi.Input<number | pkg.WebhookName>>();
    expectTypeOf<WebhookSubscription["guid"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<WebhookSubscription["signature"]>().toEqualTypeOf<pulumi.Output<string>>();
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
