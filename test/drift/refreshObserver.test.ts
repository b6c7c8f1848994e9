import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { RefreshObserver } from "../../drift/sources/pulumi/refreshObserver";
import { stepEvent, stepState } from "./fixtures/engineEvents";

const TYPE = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const NATIVE_TYPE = "webhooks:index:WebhookSubscription";

function event(
  kind: "resourcePreEvent" | "resOutputsEvent",
  urn: string,
  op: string,
  type = TYPE,
  withNew = true,
): EngineEvent {
  const state = (url: string) => stepState(type, urn, { id: "g", inputs: {}, outputs: { subscriberUrl: url } });
  return stepEvent(kind, op, type, urn, {
    old: state("https://old"),
    ...(withNew ? { new: state("https://new") } : {}),
  });
}

describe("RefreshObserver", () => {
  it("keeps the outputs event of each WebhookSubscription and counts progress", () => {
    const progress: number[] = [];
    const observer = new RefreshObserver((p) => progress.push(p.finished));
    observer.onEvent(event("resourcePreEvent", "urn:a", "refresh"));
    observer.onEvent(event("resOutputsEvent", "urn:stack", "same", "pulumi:pulumi:Stack"));
    observer.onEvent(event("resOutputsEvent", "urn:a", "update"));
    observer.onEvent(event("resOutputsEvent", "urn:b", "delete", TYPE, false));
    expect(observer.get("urn:a")).toEqual({
      op: "update",
      old: { subscriberUrl: "https://old" },
      new: { subscriberUrl: "https://new" },
    });
    expect(observer.get("urn:b")).toEqual({ op: "delete", old: { subscriberUrl: "https://old" } });
    expect(observer.get("urn:stack")).toBeUndefined();
    expect(progress).toEqual([0, 1, 2]);
  });

  it("observes the native plugin's subscriptions beside the dynamic provider's, and no provider", () => {
    const progress: [number, number][] = [];
    const observer = new RefreshObserver((p) => progress.push([p.started, p.finished]));
    observer.onEvent(event("resourcePreEvent", "urn:native", "refresh", NATIVE_TYPE));
    observer.onEvent(event("resourcePreEvent", "urn:dynamic", "refresh"));
    observer.onEvent(event("resOutputsEvent", "urn:provider", "same", "pulumi:providers:webhooks"));
    observer.onEvent(event("resOutputsEvent", "urn:native", "update", NATIVE_TYPE));
    observer.onEvent(event("resOutputsEvent", "urn:dynamic", "same"));
    expect(observer.get("urn:native")).toMatchObject({ op: "update", new: { subscriberUrl: "https://new" } });
    expect(observer.get("urn:dynamic")?.op).toBe("same");
    expect(observer.get("urn:provider")).toBeUndefined();
    expect(progress).toEqual([
      [1, 0],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
  });

  it("keeps the engine's error diagnostics for the failure message", () => {
    const observer = new RefreshObserver();
    observer.onEvent({
      sequence: 1,
      timestamp: 0,
      diagnosticEvent: { message: "boom\n", color: "never", severity: "error" },
    });
    observer.onEvent({
      sequence: 2,
      timestamp: 0,
      diagnosticEvent: { message: "fine", color: "never", severity: "info" },
    });
    expect(observer.errors).toEqual(["boom"]);
  });

  it("in a preview of the program, keeps the refresh steps and leaves the program's steps of the same resources", () => {
    const progress: [number, number][] = [];
    const observer = new RefreshObserver((p) => progress.push([p.started, p.finished]), "program-preview");
    observer.onEvent(event("resourcePreEvent", "urn:a", "refresh"));
    observer.onEvent(event("resourcePreEvent", "urn:b", "refresh"));
    observer.onEvent(event("resOutputsEvent", "urn:a", "refresh"));
    observer.onEvent(event("resOutputsEvent", "urn:b", "refresh", TYPE, false));
    // The program's steps: b declared again (create), a updated back to the program, c new.
    observer.onEvent(event("resourcePreEvent", "urn:b", "create"));
    observer.onEvent(event("resOutputsEvent", "urn:b", "create"));
    observer.onEvent(event("resOutputsEvent", "urn:a", "update"));
    observer.onEvent(event("resourcePreEvent", "urn:c", "create"));
    expect(observer.get("urn:a")).toEqual({
      op: "refresh",
      old: { subscriberUrl: "https://old" },
      new: { subscriberUrl: "https://new" },
    });
    expect(observer.get("urn:b")).toEqual({ op: "refresh", old: { subscriberUrl: "https://old" } });
    expect(observer.get("urn:c")).toBeUndefined();
    expect(observer.finished).toBe(2);
    expect(progress).toEqual([
      [1, 0],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
  });
});
