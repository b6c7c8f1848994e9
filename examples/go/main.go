// Webhook subscriptions from Go: the same two as examples/yaml, and one read back.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/webhook-subscriptions/pulumi-webhook-subscriptions/sdk/go/webhooks"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Object-scoped: fires for one packet; its custom header value is a secret.
		packetCreated, err := webhooks.NewWebhookSubscription(ctx, "packetCreated", &webhooks.WebhookSubscriptionArgs{
			Webhook:           webhooks.WebhookPacketCreated,
			FilterObjectType:  pulumi.Int(2),
			FilterObjectGuid:  pulumi.String("6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b"),
			SubscriberUrl:     pulumi.String("https://hooks.example.com/go/packets"),
			CustomHeader:      pulumi.String("X-Api-Key"),
			CustomHeaderValue: pulumi.ToSecret(pulumi.String("change-me")).(pulumi.StringOutput),
		})
		if err != nil {
			return err
		}
		// Type-scoped: fires for every new object of type 2.
		objectCreated, err := webhooks.NewWebhookSubscription(ctx, "objectCreated", &webhooks.WebhookSubscriptionArgs{
			Webhook:          webhooks.WebhookBusinessObjectCreated,
			FilterObjectType: pulumi.Int(2),
			SubscriberUrl:    pulumi.String("https://hooks.example.com/go/objects"),
		})
		if err != nil {
			return err
		}
		// Read back through the provider's function (the instance as it is now).
		objectCreatedLive := webhooks.LookupWebhookSubscriptionOutput(ctx, webhooks.LookupWebhookSubscriptionOutputArgs{
			Guid: objectCreated.Guid,
		})

		ctx.Export("packetCreatedGuid", packetCreated.Guid)
		ctx.Export("packetCreatedSignature", packetCreated.Signature)
		ctx.Export("objectCreatedGuid", objectCreated.Guid)
		ctx.Export("objectCreatedEvent", objectCreatedLive.WebhookName())
		// Plain: the lookup returns no secret unless asked (IncludeSecrets).
		ctx.Export("objectCreatedUrl", objectCreatedLive.SubscriberUrl())
		return nil
	})
}
