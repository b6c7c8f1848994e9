# A subscription made elsewhere comes under management by its GUID (also the resource's id).
tofu import webhooks_subscription.object_created "$GUID"
