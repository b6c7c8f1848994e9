/**
 * What a listing cannot see. The spec says GetAll returns every subscription of the instance;
 * the vendor's documentation says subscriptions are per user and not every user can see all.
 * Everything built on the list (duplicate avoidance, adoption, the drift review's "unmanaged")
 * says so rather than claim to have seen everything.
 */
export const VISIBILITY_NOTE =
  "only the subscriptions visible to the configured account were seen: the service may keep subscriptions per user, so those of other accounts cannot be listed, adopted or reported";
