/**
 * "Webhook Test – Simulate Event" (vendor's documentation: an API taking `webHookSubscriptionGUID`
 * that sends a test message for one subscription). The documentation shows neither its path nor
 * its answer, so both are ours (docs/emulator.md): `POST {url}/configuration/WebHookTest/SimulateEvent
 * ?webHookSubscriptionGUID=<guid>&api-version=<v>`, answered with the delivery report. Only in
 * the `vendor-docs` dialect; the same checks as the API (version, rate limit, auth, visibility).
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { answer, refusal } from "./apiRoutes";
import type { EmulatorContext } from "./context";
import { deliverTo } from "./events";
import { queryGuid, UNSUBSCRIBE_GUID_PARAMETER, visible } from "./operations";
import { errorOutcome } from "./outcome";

export const SIMULATE_EVENT_PATH = "/configuration/WebHookTest/SimulateEvent";

/** Registers the endpoint when the dialect has it (and the configuration API is served). */
export function registerSimulateEventRoute(app: FastifyInstance, context: EmulatorContext): void {
  if (!context.dialect.simulateEvent || context.options.legacyOnly) return;
  app.post(SIMULATE_EVENT_PATH, async (request, reply) => {
    context.stats.request("SimulateEvent");
    const refused = refusal(context, request);
    if (refused) return answer(context, reply, refused);
    const guid = queryGuid(request.query as Record<string, unknown>, UNSUBSCRIBE_GUID_PARAMETER);
    if (!guid.ok) return answer(context, reply, errorOutcome(guid.status, guid.error));
    const account = context.tokens.account(request.headers.authorization);
    const subscription = visible(context.store, { dialect: context.dialect, account }, guid.value);
    if (!subscription) return answer(context, reply, context.dialect.getNotFound(guid.value));
    // The subscription's own event on its own object, as a real one would arrive.
    const event = { Webhook: subscription.Webhook, ObjectGUID: subscription.FilterObjectGUID };
    const identity = { EventGUID: randomUUID(), OccurredAt: new Date().toISOString() };
    const report = await deliverTo(subscription, event, identity, context.deliverySettings);
    return answer(context, reply, { status: 200, json: report });
  });
}
