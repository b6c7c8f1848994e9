# Object-scoped: fires for one packet. Its header value is write-only: sent to the instance, never
# kept in plan or state (OpenTofu and Terraform 1.11 or later); bump the version to send a new one.
resource "webhooks_subscription" "packet_created" {
  webhook                        = "PacketCreated"
  filter_object_type             = 2
  filter_object_guid             = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b"
  subscriber_url                 = "https://hooks.example.com/terraform/packets"
  custom_header                  = "X-Api-Key"
  custom_header_value_wo         = "change-me"
  custom_header_value_wo_version = 1
}

# Type-scoped: fires for every new object of type 2.
resource "webhooks_subscription" "object_created" {
  webhook            = "BusinessObjectCreated"
  filter_object_type = 2
  subscriber_url     = "https://hooks.example.com/terraform/objects"
}

output "packet_created_guid" {
  value = webhooks_subscription.packet_created.guid
}

output "object_created_guid" {
  value = webhooks_subscription.object_created.guid
}
