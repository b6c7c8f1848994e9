/**
 * Names a person can read for subscriptions taken under code: from the subscriber URL's host and
 * path and from the event (`https://orders.example.com/hooks` + BusinessObjectCreated →
 * `orders-example-com-hooks-business-object-created`), stable across runs, valid as a Pulumi
 * resource name and, in each language's style, as an identifier of TypeScript, Python, Go, Java
 * and HCL. Where two would be the same name, each of them gets its GUID's first six hex digits.
 * The estate exporters name resources `res-N` or by a hash; their users' first request is this.
 */
import { webhookName, type Subscription } from "../../provider/wire";

/** The longest name, in words: a deep path is cut to its first segments, which say the most. */
const MAX_WORDS = 12;

/** One name in the styles the targets need. */
export interface AdoptionName {
  /** A Pulumi resource name and the words' kebab form: `orders-example-com-business-object-created`. */
  readonly kebab: string;
  /** HCL addresses and Python identifiers: `orders_example_com_business_object_created`. */
  readonly snake: string;
  /** TypeScript, Go and Java variables: `ordersExampleComBusinessObjectCreated`. */
  readonly camel: string;
}

/** The words of a name: lower-case ASCII letters and digits, the first starting with a letter. */
function wordsOf(live: Pick<Subscription, "subscriberUrl" | "webhook">): string[] {
  let where: string[];
  try {
    const url = new URL(live.subscriberUrl);
    // `%22` is a quote to a person, not the word "22".
    let path = url.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // A malformed escape stays as it is.
    }
    where = [...url.hostname.split("."), ...path.split("/")];
  } catch {
    where = [live.subscriberUrl];
  }
  const event = webhookName(live.webhook);
  const eventWords = event
    ? event.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" ")
    : ["webhook", String(live.webhook)];
  const split = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const place = where.flatMap(split).slice(0, MAX_WORDS - eventWords.length);
  const words = [...place, ...eventWords.flatMap(split)];
  // An identifier starts with a letter in every target language.
  return /^[a-z]/.test(words[0] ?? "") ? words : ["hook", ...words];
}

/** `words` in every style. */
function styled(words: readonly string[]): AdoptionName {
  return {
    kebab: words.join("-"),
    snake: words.join("_"),
    camel: words.map((w, i) => (i === 0 ? w : `${w.charAt(0).toUpperCase()}${w.slice(1)}`)).join(""),
  };
}

/**
 * Words no variable may be called in one of the target languages (TypeScript, Python, Go, Java):
 * a name of one word must not be one of them. Names made here always have several words.
 */
const RESERVED = new Set(
  (
    "abstract and as assert async await boolean break byte case catch chan char class const continue def default defer " +
    "del delete do double elif else enum except export extends false final finally float for from func function global go " +
    "goto if implements import in instanceof int interface is lambda let long map native new nil none nonlocal not null " +
    "or package pass private protected public raise range return select short static struct super switch synchronized " +
    "this throw throws transient true try type typeof var void volatile while with yield"
  ).split(" "),
);

/**
 * The words of a name a person gave (`--names`), or undefined when it is not one: letters, digits,
 * `-` and `_`, a letter first, and not a word a target language reserves.
 */
export function wordsOfGivenName(name: string): string[] | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) return undefined;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[-_]+/)
    .filter(Boolean);
  return words.length === 1 && RESERVED.has(words[0]!) ? undefined : words;
}

/** The names the claims' resources use (a URN's or an address's last part), in kebab form: `taken` for adoptionNames. */
export function takenNames(claims: readonly { readonly name: string }[]): string[] {
  return claims.flatMap((c) => wordsOfGivenName(c.name.slice(c.name.lastIndexOf(".") + 1))?.join("-") ?? []);
}

/**
 * The name of each subscription, by GUID: `given` names (already checked, by GUID) as given, the
 * others from their host, path and event, with a GUID suffix only where two would collide, or
 * where the name is `taken` already (a resource of the target, in kebab form).
 */
export function adoptionNames(
  subscriptions: readonly Pick<Subscription, "guid" | "subscriberUrl" | "webhook">[],
  given: ReadonlyMap<string, readonly string[]> = new Map(),
  taken: Iterable<string> = [],
): Map<string, AdoptionName> {
  const words = new Map(subscriptions.map((s) => [s.guid, given.get(s.guid) ?? wordsOf(s)]));
  const uses = new Map<string, number>([...taken].map((name) => [name, 1]));
  for (const w of words.values()) uses.set(w.join("-"), (uses.get(w.join("-")) ?? 0) + 1);
  return new Map(
    [...words].map(([guid, w]) => [
      guid,
      styled(
        !given.has(guid) && (uses.get(w.join("-")) ?? 0) > 1
          ? [
              ...w,
              guid
                .replace(/[^0-9a-f]/gi, "")
                .slice(0, 6)
                .toLowerCase(),
            ]
          : w,
      ),
    ]),
  );
}
