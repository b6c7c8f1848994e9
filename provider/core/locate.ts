/**
 * Where a subscription lives, for refresh and delete (docs/multi-instance.md, "A subscription
 * records its instance"). A GUID names one subscription of one instance, so when the instance the
 * settings name holds the GUID, the subscription lives there, whatever address it recorded: the
 * same instance under another address (a renamed host, the embedded emulator on a new port) —
 * the rule diff already applies to a move. Otherwise, or when the settings' instance cannot tell
 * (unreachable, refusing, legacy-only), the recorded instance decides, as it always did.
 */
import type { Subscription } from "../wire";
import { readLive } from "./readLive";
import type { Instance, Session } from "./session";

/** The instance to use for `guid`, and the live subscription when finding it there already read it. */
export interface Located {
  readonly at: Instance;
  readonly live?: Subscription;
  /** Why the settings' instance could not tell, when it was asked and failed. */
  readonly homeFailure?: unknown;
}

/** Locates `guid`, recorded at `recorded` (absent in state older than the record: the settings' instance). */
export async function locate(s: Session, guid: string, recorded: string | null | undefined): Promise<Located> {
  const at = s.instance(recorded);
  if (at === s.home || s.home.legacy) return { at };
  try {
    const live = await s.home.run(`lookup of ${guid}`, () => readLive(s.home, guid));
    return live ? { at: s.home, live } : { at };
  } catch (homeFailure) {
    return { at, homeFailure };
  }
}

/**
 * An error of the recorded instance, explained: it is not the one the settings name, which was
 * asked first and does not hold the subscription (or could not say).
 */
export function recordedInstanceFailed(
  operation: string,
  guid: string,
  located: Located,
  home: Instance,
  err: unknown,
): Error {
  const prefix = `${operation} of ${guid}: `;
  const said = err instanceof Error ? err.message : String(err);
  // A fail-fast refusal (session.ts) already opens with this prefix: say it once.
  const message = said.startsWith(prefix) ? said.slice(prefix.length) : said;
  const homeSays =
    located.homeFailure === undefined
      ? `does not hold it`
      : `could not be asked (${located.homeFailure instanceof Error ? located.homeFailure.message : String(located.homeFailure)})`;
  return new Error(
    `${prefix}${message} This subscription records the instance ${located.at.baseUrl}; the instance the ` +
      `settings name, ${home.baseUrl}, ${homeSays}. If the subscription's instance moved to a new address, point the ` +
      "settings there (webhooks:baseUrl, or the Provider's baseUrl) and run `pulumi up`, or `pulumi refresh --run-program` " +
      "(a plain refresh or destroy uses the settings recorded in the state); if it is gone for good, drop the " +
      "subscription from the state with `pulumi state delete <urn>`.",
    { cause: err },
  );
}
