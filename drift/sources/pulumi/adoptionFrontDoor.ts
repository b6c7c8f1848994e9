/**
 * Through which front door an unmanaged subscription should be adopted: the one the stack
 * already reaches its instance through, so the suggestion fits the program's language. The
 * dynamic provider's `adoptGuid` needs a TypeScript program; `pulumi import` of the native
 * resource works in any language.
 */
import type { FrontDoor } from "../../../provider/model";
import type { StateSnapshot } from "./stateSnapshot";

/** The Pulumi runtime of programs that can hold the dynamic provider (Pulumi.yaml `runtime`). */
const DYNAMIC_RUNTIME = "nodejs";

/**
 * The front door for adopting onto the instance reached by `providerUrn` (null: the default provider):
 * - an explicit provider: its own front door;
 * - the default provider of a program that is not Node.js (YAML, Python, …): native;
 * - else the front door of the subscriptions on the default provider: dynamic if any is dynamic
 *   (the program is TypeScript, where `adoptGuid` is the way), native if all are native;
 * - with none: native if the state holds the native default provider, else dynamic.
 * @param runtime the project's runtime name (`nodejs`, `yaml`, …), undefined when unknown.
 */
export function adoptionFrontDoor(state: StateSnapshot, providerUrn: string | null, runtime?: string): FrontDoor {
  if (providerUrn !== null) return state.providers.get(providerUrn)?.frontDoor ?? "dynamic";
  if (runtime !== undefined && runtime !== DYNAMIC_RUNTIME) return "native";
  const onDefault = state.managed.filter((s) => s.providerUrn === null).map((s) => s.frontDoor);
  if (onDefault.includes("dynamic")) return "dynamic";
  return onDefault.length > 0 || state.nativeDefaultProvider ? "native" : "dynamic";
}
