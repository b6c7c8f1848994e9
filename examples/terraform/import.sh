# A subscription made elsewhere comes under management by its GUID (also the resource's id).
tofu -chdir=examples/terraform import webhooks_subscription.object_created "$GUID"
