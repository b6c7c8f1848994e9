/**
 * The core's warnings (an adoption, a replacement that changes the Signature), as diagnostics of
 * the request that caused them: Terraform shows a provider's diagnostics, and keeps its stderr for
 * the debug log only.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { routeWarnings } from "../core/warn";
import { warningDiagnostic, type Diagnostic } from "./diagnostics";

const current = new AsyncLocalStorage<Diagnostic[]>();
let routed = false;

/** Runs `handle`, adding the warnings it raised to the diagnostics of its response. */
export async function withWarnings<Res extends { diagnostics?: Diagnostic[] }>(
  handle: () => Promise<Res>,
): Promise<Res> {
  if (!routed) {
    routed = true;
    routeWarnings((message) => {
      const collected = current.getStore();
      if (collected) collected.push(warningDiagnostic(message));
      else console.error(`warning: ${message}`);
    });
  }
  const warnings: Diagnostic[] = [];
  const response = await current.run(warnings, handle);
  return warnings.length > 0 ? { ...response, diagnostics: [...(response.diagnostics ?? []), ...warnings] } : response;
}
