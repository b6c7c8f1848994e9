/** Names for adopted subscriptions (drift/review/adoptionNames.ts): readable, stable, valid everywhere, unique. */
import { describe, expect, it } from "vitest";
import { adoptionNames, wordsOfGivenName } from "../../drift/review/adoptionNames";

const sub = (guid: string, subscriberUrl: string, webhook = 3) => ({ guid, subscriberUrl, webhook });

describe("adoptionNames", () => {
  it("reads the subscriber URL's host and path, then the event, in each language's style", () => {
    const names = adoptionNames([sub("aa-1", "https://orders.example.com/")]);
    expect(names.get("aa-1")).toEqual({
      kebab: "orders-example-com-business-object-created",
      snake: "orders_example_com_business_object_created",
      camel: "ordersExampleComBusinessObjectCreated",
    });
    expect(adoptionNames([sub("b", "https://hooks.example.com/team-a/v2/Orders?x=1", 0)]).get("b")!.kebab).toBe(
      "hooks-example-com-team-a-v2-orders-packet-created",
    );
  });

  it("is a valid identifier in TypeScript, Python, Go, Java and HCL, whatever the URL holds", () => {
    const odd = [
      sub("1", "https://10.0.0.7:8443/hook"),
      sub("2", "https://xn--bcher-kva.example/%22quoted%22/ü"),
      sub("3", "not a url at all"),
      sub("4", "https://h.example/" + "deep/".repeat(30), 99),
    ];
    for (const name of adoptionNames(odd).values()) {
      expect(name.snake).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(name.camel).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(name.kebab).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(name.kebab.split("-").length).toBeLessThanOrEqual(12);
    }
    expect(adoptionNames(odd).get("1")!.kebab).toBe("hook-10-0-0-7-hook-business-object-created");
    expect(adoptionNames(odd).get("4")!.kebab).toMatch(/-webhook-99$/);
  });

  it("adds the GUID's first six hex digits only where two would share a name; the same on every run", () => {
    const subs = [
      sub("3F2A9C1D-0000-4000-8000-000000000001", "https://hooks.example.com/orders"),
      sub("77777777-0000-4000-8000-000000000002", "https://hooks.example.com/orders"),
      sub("88888888-0000-4000-8000-000000000003", "https://hooks.example.com/refunds"),
    ];
    const names = [...adoptionNames(subs).values()].map((n) => n.kebab);
    expect(names).toEqual([
      "hooks-example-com-orders-business-object-created-3f2a9c",
      "hooks-example-com-orders-business-object-created-777777",
      "hooks-example-com-refunds-business-object-created",
    ]);
    expect([...adoptionNames([...subs].reverse()).values()].map((n) => n.kebab).reverse()).toEqual(names);
  });

  it("takes a given name as it is; a generated one that would share it gets the suffix", () => {
    const subs = [sub("aaaaaaaa-1", "https://a.example/x"), sub("bbbbbbbb-2", "https://b.example/")];
    const given = new Map([["bbbbbbbb-2", wordsOfGivenName("a-example-x-business-object-created")!]]);
    const names = adoptionNames(subs, given);
    expect(names.get("bbbbbbbb-2")!.kebab).toBe("a-example-x-business-object-created");
    expect(names.get("aaaaaaaa-1")!.kebab).toBe("a-example-x-business-object-created-aaaaaa");
  });

  it("refuses a given name that is no identifier", () => {
    expect(wordsOfGivenName("ordersHook")).toEqual(["orders", "hook"]);
    expect(wordsOfGivenName("orders_hook-2")).toEqual(["orders", "hook", "2"]);
    for (const bad of ["2fast", "orders hook", "orders.hook", "", "-x", "naïve"])
      expect(wordsOfGivenName(bad)).toBeUndefined();
  });

  it("refuses a one-word name a target language reserves, and keeps one that only contains it", () => {
    for (const reserved of ["class", "import", "Func", "lambda", "None"])
      expect(wordsOfGivenName(reserved)).toBeUndefined();
    expect(wordsOfGivenName("class-hook")).toEqual(["class", "hook"]);
  });

  it("suffixes a name the target already uses", () => {
    const names = adoptionNames([sub("ABCDEF12-0000-4000-8000-000000000001", "https://a.example/x")], new Map(), [
      "a-example-x-business-object-created",
    ]);
    expect(names.get("ABCDEF12-0000-4000-8000-000000000001")!.kebab).toBe("a-example-x-business-object-created-abcdef");
  });
});
