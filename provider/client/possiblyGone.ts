/**
 * A Get that may mean "gone". The vendor's documentation lists "400 The request is invalid" for
 * invalid *or non-existing* values, so an instance may answer a Get of a deleted subscription
 * with 400 instead of the spec's 404. The client only sends well-formed GUIDs (it refuses the
 * others before sending), so such a 400 is ambiguous: the caller confirms through the list
 * before it treats the subscription as gone. 401 and 403 never mean gone.
 */
import { UnreadableRequestError } from "./errors";

/** True for a Get answered 400 without validation messages, which may mean the subscription does not exist. */
export function mayMeanGone(err: unknown): err is UnreadableRequestError {
  return (
    err instanceof UnreadableRequestError &&
    err.sent &&
    err.status === 400 &&
    err.operation === "GetWebhookSubscription"
  );
}
