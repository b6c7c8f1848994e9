import { WebhookGuard } from "pulumi-webhook-subscriptions/policy";

new WebhookGuard({ allowedSubscriberHosts: ["hooks.example.com", "*.example.org"], enforcementLevel: "mandatory" });
