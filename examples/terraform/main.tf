# Webhook subscriptions from Terraform or OpenTofu, through the provider `webhook-subscriptions/webhooks`.
terraform {
  required_providers {
    webhooks = {
      source = "webhook-subscriptions/webhooks"
    }
  }
}

# The instance and the credentials: here from WEBHOOKS_BASE_URL and WEBHOOKS_TOKEN. Every argument
# of this block falls back to its WEBHOOKS_* variable (docs/terraform.md, "Provider settings").
provider "webhooks" {}
