/**
 * What `npm start` counts as found out of band by the refresh of its `up --refresh`: a change of
 * what the subscription is, or its disappearance; never the record of the instance's address
 * alone (the embedded emulator moved to another port), which the drift review does not count either.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { expect, it } from "vitest";
import { describeChanges, refreshChanges } from "../../scripts/startSummary";

const TYPE = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const live = { guid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b", subscriberUrl: "https://hooks.example.com/a" };

/** A step's state as the engine reports it: only the type and the outputs matter here. */
function state(type: string, outputs: Record<string, unknown>) {
  return {
    type,
    urn: "",
    custom: true,
    delete: false,
    id: "",
    parent: "",
    protect: false,
    inputs: {},
    outputs,
    provider: "",
  };
}

/** The event of one resource's refresh step, from its outputs before and after (none: it is gone). */
function refreshed(before: Record<string, unknown>, after?: Record<string, unknown>, type = TYPE): EngineEvent {
  const metadata = {
    op: "refresh",
    urn: `urn:pulumi:dev::p::${type}::x`,
    type,
    old: state(type, before),
    ...(after === undefined ? {} : { new: state(type, after) }),
    provider: "",
  };
  return { sequence: 0, timestamp: 0, resOutputsEvent: { metadata } } as unknown as EngineEvent;
}

it("does not count a refresh that only records the instance's new address", () => {
  const counts = refreshChanges([
    refreshed({ ...live, baseUrl: "http://127.0.0.1:40001" }, { ...live, baseUrl: "http://127.0.0.1:40002" }),
    refreshed({ ...live, baseUrl: "http://127.0.0.1:40001" }, { ...live, baseUrl: "http://127.0.0.1:40002" }),
  ]);
  expect(describeChanges(counts, { update: "changed", delete: "gone" })).toBe("");
});

it("counts a subscription changed out of band, also when its address moved, and one that is gone", () => {
  const counts = refreshChanges([
    refreshed(
      { ...live, baseUrl: "http://127.0.0.1:40001" },
      { ...live, subscriberUrl: "https://out-of-band.example.com/", baseUrl: "http://127.0.0.1:40002" },
    ),
    refreshed({ ...live, baseUrl: "http://127.0.0.1:40001" }, { ...live, baseUrl: "http://127.0.0.1:40002" }),
    refreshed({ ...live, baseUrl: "http://127.0.0.1:40001" }),
    // Providers are not subscriptions: never counted.
    refreshed({ version: "1" }, { version: "2" }, "pulumi:providers:pulumi-nodejs"),
  ]);
  expect(describeChanges(counts, { update: "changed", delete: "gone" })).toBe("1 changed, 1 gone");
});
