/**
 * Property test: `check` and the emulator judge subscriptions by the same rules. The same
 * generated inputs go through `check` and, mapped to the wire request by the codec, through the
 * emulator's Subscribe (schema and rules, in process); no input is accepted by one and refused by
 * the other. The inputs are what the wire can carry: the event as its integer, each field absent,
 * null or a value of its wire type (names and adoptGuid are `check`-only conveniences).
 * One refusal is `check`'s own, on purpose: a header name with leading, trailing or repeated
 * spaces, which the service takes and saves as stray hyphens (" X  Api Key " -> "-X--Api-Key-").
 * The property proves the service takes those, and that `check` refuses nothing else it takes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dialectNamed } from "../../emulator/dialect";
import { OPERATION_DEFINITIONS } from "../../emulator/operations";
import { Store } from "../../emulator/store";
import { checkInputs, desiredOf, type SubscriptionInputs } from "../../provider/core/inputs";
import { EMPTY_GUID, encodeSubscribe, headerNameSpacesProblem, type SubscriptionSpec } from "../../provider/wire";
import { FUZZ_SEED } from "../support/fuzzSeed";

const GUID = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";

/** Mostly `good` values (so that accepting is common), sometimes `bad` ones. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 });
const unset = fc.constantFrom(undefined, null);

const inputs = fc.record(
  {
    webhook: mostly(fc.integer({ min: 0, max: 5 }), fc.constantFrom(-1, 6, 1.5)),
    filterObjectType: mostly(fc.nat(), fc.constantFrom(-1, 2.5, 2 ** 53)),
    filterObjectGuid: mostly(
      fc.oneof(unset, fc.constantFrom(GUID, GUID.toUpperCase()), fc.uuid()),
      fc.constantFrom(EMPTY_GUID, "", "not-a-guid", `{${GUID}}`, GUID.slice(1)),
    ),
    subscriberUrl: mostly(
      fc.oneof(
        fc.constantFrom("https://hooks.example.com/x", "http://127.0.0.1:9/h", "HTTPS://Hooks.Example.com"),
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
      ),
      fc.oneof(
        unset,
        fc.constantFrom(
          "",
          "http:hooks.example.com/x",
          "https:/hooks.example.com",
          "https:\\\\hooks.example.com",
          "http://",
          "ftp://x.example.com",
          "mailto:ops@example.com",
          "/relative",
          "https://user:pw@hooks.example.com/",
          "https://hooks.example.com/a b",
          "https://hooks.example.com/a\tb",
          "https://hooks.example.com/\u0001",
        ),
        fc.string(),
      ),
    ),
    customHeader: mostly(
      fc.oneof(unset, fc.constantFrom("", "X-Key", "X Api Key", "x-request-id")),
      fc.oneof(
        fc.constantFrom(
          "Host",
          "content length",
          "Transfer-Encoding",
          "CONNECTION",
          "Content-Type",
          "x-acme-signature",
          "X-Acme-Corp-Signature",
          "Bad:Name",
          "X-Schlüssel",
        ),
        fc.string({ maxLength: 12 }),
      ),
    ),
    customHeaderValue: mostly(
      fc.oneof(unset, fc.constantFrom("", "v", "a\tb", "ü")),
      fc.oneof(fc.constantFrom("a\r\nb", "a\nb", "a\0b", "a\u0007b", "€", "a\u007fb"), fc.string()),
    ),
  },
  { requiredKeys: [] },
);

/** The service as the spec describes it (the vendor-docs dialect reads other request shapes). */
const SPEC = dialectNamed("spec");

/** The emulator's verdict on a wire request: its Subscribe, on an empty in-memory service. */
async function emulatorAccepts(spec: SubscriptionSpec): Promise<boolean> {
  const store = await Store.open(null);
  const outcome = await OPERATION_DEFINITIONS.SubscribeToWebhook.handle(store, {
    query: {},
    body: JSON.stringify(encodeSubscribe(spec)),
    contentType: "application/json",
    legacy: false,
    dialect: SPEC,
    account: "builder",
  });
  return outcome.status === 200;
}

describe(`check and the emulator agree on every input (seed ${FUZZ_SEED})`, () => {
  it("no input is accepted by one and refused by the other", async () => {
    const verdicts = { accepted: 0, refused: 0, straySpaces: 0 };
    await fc.assert(
      fc.asyncProperty(inputs, async (raw) => {
        const checked = checkInputs(raw);
        const byCheck = checked.failures.length === 0;
        // The raw input as the wire request, mapped by the codec (its types are the wire's).
        const byEmulator = await emulatorAccepts(raw as unknown as SubscriptionSpec);
        const onlyStraySpaces =
          typeof raw.customHeader === "string" &&
          headerNameSpacesProblem(raw.customHeader) !== undefined &&
          checked.failures.every((failure) => failure.property === "customHeader");
        if (onlyStraySpaces && byEmulator) verdicts.straySpaces++;
        else expect(byEmulator, JSON.stringify(checked.failures)).toBe(byCheck);
        // And what `up` really sends: the normalised inputs, accepted too.
        if (byCheck) expect(await emulatorAccepts(desiredOf(checked.inputs as SubscriptionInputs))).toBe(true);
        verdicts[byCheck ? "accepted" : "refused"]++;
      }),
      { seed: FUZZ_SEED, numRuns: 3000 },
    );
    // Both verdicts are reached often, or the property says little.
    expect(verdicts.accepted).toBeGreaterThan(100);
    expect(verdicts.refused).toBeGreaterThan(100);
    expect(
      verdicts.straySpaces,
      "header names with stray spaces: the service takes them, check does not",
    ).toBeGreaterThan(0);
  });
});
