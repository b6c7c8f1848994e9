/**
 * The dynamic provider: the lifecycle (../core/lifecycle.ts) as the dynamic-provider host calls
 * it. The fixed `__provider` module in state requires this file by package name, so keep it
 * reachable as `pulumi-webhook-subscriptions/runtime`.
 */
import { WebhookApiError } from "../client";
import { createProvider } from "../core/lifecycle";
import { DYNAMIC_WORDING } from "./wording";

/**
 * The dynamic-provider host logs a failed check, diff, read or delete as `${err}: ${err.stack}`,
 * and a stack starts with the message: the whole message twice on one line, then frames of our
 * code. Our errors (the client's, and the plain errors that explain a failure) leave with an
 * empty stack, so the host prints the message once; a bug (TypeError, …) keeps its frames.
 */
function forTheHost<A extends unknown[], R>(method: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await method(...args);
    } catch (err) {
      if (err instanceof Error && (err instanceof WebhookApiError || err.constructor === Error))
        Object.defineProperty(err, "stack", { value: "", configurable: true, writable: true });
      throw err;
    }
  };
}

const provider = createProvider({ wording: DYNAMIC_WORDING });
export const configure = provider.configure;
export const check = forTheHost(provider.check);
export const diff = forTheHost(provider.diff);
export const create = forTheHost(provider.create);
export const read = forTheHost(provider.read);
export const update = forTheHost(provider.update);
// `delete` is a reserved word, so the export is renamed.
const remove = forTheHost(provider.delete);
export { remove as delete };
