import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { KNOWN_AFTER_APPLY, programDifferences } from "../../drift/sources/pulumi/programDifferences";
import { ProgramObserver } from "../../drift/sources/pulumi/programObserver";
import { UNKNOWN } from "../../provider/model";
import { stepEvent, stepState } from "./fixtures/engineEvents";

const DYNAMIC = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const NATIVE = "webhooks:index:WebhookSubscription";
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const MASKED = { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "[secret]" };
const urn = (type: string, name: string) => `urn:pulumi:dev::app::${type}::${name}`;

/** A step event of a preview, as the engine sends it. */
function step(
  kind: "resourcePreEvent" | "resOutputsEvent",
  op: string,
  type: string,
  name: string,
  detail: {
    id?: string;
    live?: Record<string, unknown>;
    declared?: Record<string, unknown>;
    diffs?: string[];
    detailedDiff?: Record<string, unknown>;
  } = {},
): EngineEvent {
  const state = (fields: Record<string, unknown>) => stepState(type, urn(type, name), fields);
  return stepEvent(kind, op, type, urn(type, name), {
    ...(detail.live ? { old: state({ id: detail.id, inputs: {}, outputs: detail.live }) } : {}),
    ...(detail.declared ? { new: state({ inputs: detail.declared, outputs: {} }) } : {}),
    ...(detail.diffs ? { diffs: detail.diffs } : {}),
    ...(detail.detailedDiff ? { detailedDiff: detail.detailedDiff } : {}),
  });
}

const GUID = "f328bd91-c386-4faa-b5f8-b076d17651cb";
const live = {
  guid: GUID,
  webhook: 3,
  filterObjectType: 2,
  filterObjectGuid: null,
  subscriberUrl: "https://elsewhere.example.net/dynamic",
  customHeader: "X-Api-Key",
  customHeaderValue: MASKED,
  signature: MASKED,
};

function observe(...events: EngineEvent[]) {
  const observer = new ProgramObserver();
  for (const event of events) observer.onEvent(event);
  return programDifferences(observer.all());
}

describe("the program's preview, as differences from the program", () => {
  it("an update names each field with its live and declared value, a secret by name alone; both front doors", () => {
    const differences = observe(
      // The preview's own refresh steps say nothing about the program.
      step("resourcePreEvent", "refresh", DYNAMIC, "dynamic", { id: GUID, live }),
      // The dynamic provider's host names no fields: they are found by comparing the checked inputs with the live outputs.
      step("resourcePreEvent", "update", DYNAMIC, "dynamic", {
        id: GUID,
        live,
        declared: {
          webhook: 3,
          filterObjectType: 2,
          subscriberUrl: "https://hooks.example.com/dynamic",
          customHeader: "X-Api-Key",
          // No header value declared, while the live output's null is masked as a secret: no difference.
          __provider: "exports.handler = …",
        },
      }),
      step("resOutputsEvent", "update", DYNAMIC, "dynamic", { id: GUID, live }),
      step("resourcePreEvent", "update", NATIVE, "native", {
        id: "aa0c7a3e-1111-4222-8333-444444444444",
        live,
        declared: { customHeaderValue: MASKED },
        detailedDiff: { customHeaderValue: { kind: "update", inputDiff: true } },
      }),
    );
    expect(differences).toEqual([
      {
        urn: urn(DYNAMIC, "dynamic"),
        name: "dynamic",
        guid: GUID,
        step: "update",
        fields: [
          {
            field: "subscriberUrl",
            secret: false,
            live: "https://elsewhere.example.net/dynamic",
            declared: "https://hooks.example.com/dynamic",
          },
        ],
      },
      {
        urn: urn(NATIVE, "native"),
        name: "native",
        guid: "aa0c7a3e-1111-4222-8333-444444444444",
        step: "update",
        fields: [{ field: "customHeaderValue", secret: true }],
      },
    ]);
    expect(JSON.stringify(differences)).not.toContain("[secret]");
  });

  it("a dynamic step no visible field explains is the masked custom header value's", () => {
    const [difference] = observe(
      step("resourcePreEvent", "update", DYNAMIC, "header", {
        id: GUID,
        live,
        declared: {
          webhook: 3,
          filterObjectType: 2,
          subscriberUrl: live.subscriberUrl,
          customHeader: "X-Api-Key",
          customHeaderValue: MASKED,
        },
      }),
    );
    expect(difference!.fields).toEqual([{ field: "customHeaderValue", secret: true }]);
  });

  it("a subscription the program would create or delete; a replacement's halves are one replace", () => {
    const differences = observe(
      step("resourcePreEvent", "create", NATIVE, "gone-live", { declared: { subscriberUrl: "https://h.example.com" } }),
      step("resourcePreEvent", "delete", DYNAMIC, "dropped", { id: GUID, live }),
      step("resourcePreEvent", "create-replacement", NATIVE, "legacy", {
        declared: { subscriberUrl: "https://new.example.com" },
        diffs: ["subscriberUrl"],
      }),
      step("resourcePreEvent", "replace", NATIVE, "legacy", {
        id: GUID,
        live,
        declared: { subscriberUrl: "https://new.example.com" },
        diffs: ["subscriberUrl"],
      }),
      step("resourcePreEvent", "delete-replaced", NATIVE, "legacy", { id: GUID, live }),
    );
    expect(differences.map(({ name, guid, step, fields }) => ({ name, guid, step, fields }))).toEqual([
      { name: "gone-live", guid: null, step: "create", fields: [] },
      { name: "dropped", guid: GUID, step: "delete", fields: [] },
      {
        name: "legacy",
        guid: GUID,
        step: "replace",
        fields: [
          {
            field: "subscriberUrl",
            secret: false,
            live: "https://elsewhere.example.net/dynamic",
            declared: "https://new.example.com",
          },
        ],
      },
    ]);
  });

  it("a step that changes no live value (the dynamic provider's code only) is no difference; unknowns read as such", () => {
    expect(
      observe(
        step("resourcePreEvent", "update", DYNAMIC, "same-live", {
          id: GUID,
          live,
          declared: { __provider: "exports.handler = …" },
          diffs: ["__provider"],
        }),
        step("resourcePreEvent", "same", NATIVE, "unchanged", { id: GUID, live, declared: {} }),
        step("resourcePreEvent", "read", NATIVE, "read", { id: GUID, live }),
        step("resourcePreEvent", "update", "pulumi:providers:webhooks", "default", { diffs: ["baseUrl"] }),
      ),
    ).toEqual([]);
    const [pending] = observe(
      step("resourcePreEvent", "update", NATIVE, "pending", {
        id: GUID,
        live,
        declared: { subscriberUrl: UNKNOWN },
        diffs: ["subscriberUrl"],
      }),
    );
    expect(pending!.fields).toEqual([
      {
        field: "subscriberUrl",
        secret: false,
        live: "https://elsewhere.example.net/dynamic",
        declared: KNOWN_AFTER_APPLY,
      },
    ]);
  });

  it("keeps the engine's error diagnostics for the failure message", () => {
    const observer = new ProgramObserver();
    observer.onEvent({
      sequence: 0,
      timestamp: 0,
      diagnosticEvent: { message: "  error: Cannot find module 'x'\n", color: "never", severity: "error" },
    } as EngineEvent);
    expect(observer.errors).toEqual(["error: Cannot find module 'x'"]);
  });
});
