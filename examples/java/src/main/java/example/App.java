// Webhook subscriptions from Java: the same two as examples/yaml, and one read back.
package example;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import io.github.webhooksubscriptions.webhooks.WebhookSubscription;
import io.github.webhooksubscriptions.webhooks.WebhookSubscriptionArgs;
import io.github.webhooksubscriptions.webhooks.WebhooksFunctions;
import io.github.webhooksubscriptions.webhooks.enums.Webhook;
import io.github.webhooksubscriptions.webhooks.inputs.GetWebhookSubscriptionArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        // Object-scoped: fires for one packet; its custom header value is a secret.
        var packetCreated = new WebhookSubscription("packetCreated", WebhookSubscriptionArgs.builder()
            .webhook(Webhook.PacketCreated)
            .filterObjectType(2)
            .filterObjectGuid("6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b")
            .subscriberUrl("https://hooks.example.com/java/packets")
            .customHeader("X-Api-Key")
            .customHeaderValue(Output.ofSecret("change-me"))
            .build());
        // Type-scoped: fires for every new object of type 2.
        var objectCreated = new WebhookSubscription("objectCreated", WebhookSubscriptionArgs.builder()
            .webhook(Webhook.BusinessObjectCreated)
            .filterObjectType(2)
            .subscriberUrl("https://hooks.example.com/java/objects")
            .build());
        // Read back through the provider's function (the instance as it is now).
        var objectCreatedLive = WebhooksFunctions.getWebhookSubscription(GetWebhookSubscriptionArgs.builder()
            .guid(objectCreated.guid())
            .build());

        ctx.export("packetCreatedGuid", packetCreated.guid());
        ctx.export("packetCreatedSignature", packetCreated.signature());
        ctx.export("packetCreatedEvent", packetCreated.webhook().applyValue(Webhook::name));
        ctx.export("objectCreatedGuid", objectCreated.guid());
        ctx.export("objectCreatedEvent", objectCreatedLive.applyValue(live -> live.webhookName()));
        // Plain: the lookup returns no secret unless asked (includeSecrets).
        ctx.export("objectCreatedUrl", objectCreatedLive.applyValue(live -> live.subscriberUrl()));
    }
}
