/**
 * The engine's error diagnostics of one operation, by resource name, from its structured events
 * rather than its text output: which resources the engine attempted, and in what order, is the
 * engine's scheduling — a test reads what was reported for whatever it attempted.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";

export function errorDiagnostics(): { onEvent: (event: EngineEvent) => void; byResource: Map<string, string[]> } {
  const byResource = new Map<string, string[]>();
  return {
    byResource,
    onEvent: (event) => {
      const d = event.diagnosticEvent;
      if (d?.severity !== "error" || !d.urn) return;
      const name = d.urn.split("::").pop()!;
      byResource.set(name, [...(byResource.get(name) ?? []), d.message]);
    },
  };
}
