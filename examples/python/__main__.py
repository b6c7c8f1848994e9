"""Webhook subscriptions from Python: the same two as examples/yaml, and one read back."""

import pulumi
import pulumi_webhooks as webhooks

# Object-scoped: fires for one packet; its custom header value is a secret.
packet_created = webhooks.WebhookSubscription(
    "packetCreated",
    webhook=webhooks.Webhook.PACKET_CREATED,
    filter_object_type=2,
    filter_object_guid="6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
    subscriber_url="https://hooks.example.com/python/packets",
    custom_header="X-Api-Key",
    custom_header_value=pulumi.Output.secret("change-me"),
)

# Type-scoped: fires for every new object of type 2.
object_created = webhooks.WebhookSubscription(
    "objectCreated",
    webhook=webhooks.Webhook.BUSINESS_OBJECT_CREATED,
    filter_object_type=2,
    subscriber_url="https://hooks.example.com/python/objects",
)

# Read back through the provider's function (the instance as it is now), without its secrets,
# so its fields are plain values; with include_secrets the result holds the Signature too, and
# is secret as a whole.
object_created_live = webhooks.get_webhook_subscription_output(guid=object_created.guid)
object_created_with_secrets = webhooks.get_webhook_subscription_output(guid=object_created.guid, include_secrets=True)

pulumi.export("packetCreatedGuid", packet_created.guid)
pulumi.export("packetCreatedSignature", packet_created.signature)
pulumi.export("objectCreatedGuid", object_created.guid)
pulumi.export("objectCreatedEvent", object_created_live.webhook_name)
pulumi.export("objectCreatedUrl", object_created_live.subscriber_url)
pulumi.export("objectCreatedSignature", object_created_with_secrets.signature)
