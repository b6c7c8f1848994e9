# One subscription as the instance holds it now, by GUID.
data "webhooks_subscription" "object_created" {
  guid = webhooks_subscription.object_created.guid
}

# Every subscription of the instance, without secrets; read after this configuration's own.
data "webhooks_subscriptions" "all" {
  depends_on = [webhooks_subscription.packet_created, webhooks_subscription.object_created]
}

output "object_created_event" {
  value = data.webhooks_subscription.object_created.webhook
}

output "subscription_count" {
  value = length(data.webhooks_subscriptions.all.subscriptions)
}
