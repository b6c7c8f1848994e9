/**
 * The emulator's API description: every served document is valid OpenAPI 3 (checked by a
 * library validator, not by us), says what the spec's tables say, describes the dialect it is
 * served by, and leaves the emulator's own routes out; the page lists the documents without JavaScript.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../emulator";
import { API_VERSIONS } from "../../provider/wire";
import { EmulatorHarness, http } from "../support/emulatorHarness";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const emulators = new Map<string, EmulatorHarness>();
beforeAll(async () => {
  for (const dialect of DIALECTS) emulators.set(dialect, await EmulatorHarness.start({ dialect }));
});
afterAll(async () => {
  for (const emulator of emulators.values()) await emulator.close();
});

async function document(version: string, dialect = "spec"): Promise<Doc> {
  const answer = await http(`${emulators.get(dialect)!.url}/swagger/${version}/swagger.json`);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  return answer.json;
}

describe.each(DIALECTS)("the %s dialect's documents", (dialect) => {
  it.each(API_VERSIONS)("version %s is valid OpenAPI 3 and describes only the API", async (version) => {
    const doc = await document(version, dialect);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.info.version).toBe(version);
    expect(doc.info.description).toContain(`dialect \`${dialect}\``);
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/(configuration|legacy)\//);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });
});

describe("what the documents say (spec dialect)", () => {
  it("marks 4-preview, and only it, as a preview", async () => {
    const preview = await document("4-preview");
    expect(preview.info).toMatchObject({ title: expect.stringContaining("preview"), "x-preview": true });
    expect(preview.info.description).toMatch(/^\*\*Preview\*\*/);
    for (const version of ["1", "2", "3", "2024.1"]) {
      expect((await document(version)).info["x-preview"]).toBeUndefined();
    }
  });

  it("gives the legacy 2024.1 API Subscribe and Unsubscribe only, under the legacy paths", async () => {
    expect(Object.keys((await document("2024.1")).paths)).toEqual([
      "/legacy/WebHookSubscription/SubscribeToWebhook",
      "/legacy/WebHookSubscription/Unsubscribe",
    ]);
    expect(Object.keys((await document("3")).paths)).toHaveLength(5);
  });

  it("states the subscription's fields as the spec's table: all present, two nullable, Webhook named", async () => {
    const { Subscription } = (await document("3")).components.schemas;
    expect([...Subscription.required].sort()).toEqual(
      [
        "CustomHeader",
        "CustomHeaderValue",
        "FilterObjectGUID",
        "FilterObjectType",
        "GUID",
        "Signature",
        "SubscriberURL",
        "Webhook",
      ].sort(),
    );
    const nullable = Object.entries(Subscription.properties as Record<string, Doc>)
      .filter(([, schema]) => schema.nullable === true)
      .map(([name]) => name);
    expect(nullable.sort()).toEqual(["CustomHeaderValue", "FilterObjectGUID"]);
    expect(Subscription.properties.Webhook).toMatchObject({
      type: "integer",
      enum: [0, 1, 2, 3, 4, 5],
      "x-enum-varnames": [
        "PacketCreated",
        "PacketUpdated",
        "NewCommunication",
        "BusinessObjectCreated",
        "SpecificBusinessObjectUpdated",
        "BusinessObjectTypeUpdated",
      ],
    });
  });

  it("states the Subscribe request as the spec's table: Webhook, FilterObjectType and SubscriberURL required", async () => {
    const { SubscribeRequest, UpdateRequest } = (await document("3")).components.schemas;
    expect([...SubscribeRequest.required].sort()).toEqual(["FilterObjectType", "SubscriberURL", "Webhook"]);
    expect([...UpdateRequest.required].sort()).toEqual(["FilterObjectType", "GUID", "SubscriberURL", "Webhook"]);
    expect(SubscribeRequest.additionalProperties).toBe(false);
    expect(SubscribeRequest.properties.Webhook.enum).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("lists every answer the spec lists: both 400 bodies and the plain-text one, 401, 403, 404, 429 without Retry-After", async () => {
    const { paths } = await document("3");
    const subscribe = paths["/configuration/WebHookSubscription/SubscribeToWebhook"].post.responses;
    expect(Object.keys(subscribe).sort()).toEqual(["200", "400", "401", "403", "415", "429"]);
    expect(subscribe["400"].content["application/json"].schema.oneOf).toEqual([
      { $ref: "#/components/schemas/ValidationFailure" },
      { $ref: "#/components/schemas/Error" },
    ]);
    expect(subscribe["400"].content["text/plain"].schema.example).toBe(
      "Cannot create subscription for a closed packet.",
    );
    expect(subscribe["429"].description).toContain("No `Retry-After` header");
    const get = paths["/configuration/WebHookSubscription/GetWebhookSubscription"].get;
    expect(Object.keys(get.responses).sort()).toEqual(["200", "400", "401", "403", "404", "429"]);
    expect(get.parameters.map((p: Doc) => p.name)).toEqual(["api-version", "webhookSubscriptionGUID"]);
    const unsubscribe = paths["/configuration/WebHookSubscription/Unsubscribe"].post;
    expect(unsubscribe.parameters.map((p: Doc) => p.name)).toEqual(["api-version", "webHookSubscriptionGUID"]);
    expect(unsubscribe.requestBody).toBeUndefined();
    // The legacy API answers the closed packet with 200 (spec), so its 400 has no plain text.
    const legacy = (await document("2024.1")).paths["/legacy/WebHookSubscription/SubscribeToWebhook"].post;
    expect(legacy.responses["400"].content["text/plain"]).toBeUndefined();
    const { ValidationFailure, Error } = (await document("3")).components.schemas;
    expect(ValidationFailure.required).toContain("Messages");
    expect(Error.properties.Messages).toBeUndefined();
  });
});

describe("the vendor-docs dialect's documents", () => {
  it("describe its answers: names or integers, arrays of one, an empty Unsubscribe, 400 for an unknown GUID, the simulate endpoint", async () => {
    const doc = await document("3", "vendor-docs");
    const { Subscription, SubscribeRequest } = doc.components.schemas;
    expect(Subscription.properties.Webhook.anyOf[0].enum).toContain("BusinessObjectUpdated");
    expect(Subscription.properties.FilterObjectGUID.nullable).toBeUndefined();
    expect(SubscribeRequest.properties.Webhook.anyOf.map((s: Doc) => s.type)).toEqual(["integer", "string"]);
    const base = "/configuration/WebHookSubscription";
    const get = doc.paths[`${base}/GetWebhookSubscription`].get.responses;
    expect(get["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/SubscriptionResult" });
    expect(doc.components.schemas.SubscriptionResult).toMatchObject({ type: "array", minItems: 1, maxItems: 1 });
    expect(get["404"]).toBeUndefined();
    expect(doc.paths[`${base}/Unsubscribe`].post.responses["200"].content["text/plain"]).toBeDefined();
    expect(doc.paths["/configuration/WebHookTest/SimulateEvent"]).toBeDefined();
  });
});

describe("where the documents are", () => {
  it("answers an unknown version with 404 and the list of documents", async () => {
    const answer = await http(`${emulators.get("spec")!.url}/swagger/5/swagger.json`);
    expect(answer.status).toBe(404);
    for (const version of API_VERSIONS) expect(answer.json.Error).toContain(`/swagger/${version}/swagger.json`);
  });

  it("serves only the legacy document with --legacy-only", async () => {
    const legacyOnly = await EmulatorHarness.start({ legacyOnly: true });
    try {
      expect((await http(`${legacyOnly.url}/swagger/2024.1/swagger.json`)).status).toBe(200);
      expect((await http(`${legacyOnly.url}/swagger/3/swagger.json`)).status).toBe(404);
    } finally {
      await legacyOnly.close();
    }
  });

  it("serves the page with plain links to every document, and swagger-ui-dist's files it loads (nothing else)", async () => {
    const url = emulators.get("spec")!.url;
    const page = await http(`${url}/swagger`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const noscript = /<noscript>([\s\S]*)<\/noscript>/.exec(page.text)?.[1] ?? "";
    for (const version of API_VERSIONS) expect(noscript).toContain(`<a href="/swagger/${version}/swagger.json">`);
    for (const asset of [...page.text.matchAll(/(?:src|href)="(\/swagger\/ui\/[^"]+)"/g)].map((m) => m[1])) {
      expect((await http(`${url}${asset}`)).status, asset).toBe(200);
    }
    expect(page.text).toContain('"token":"dev-builder"');
    expect((await http(`${url}/swagger/ui/package.json`)).status).toBe(404);
  });
});
