/**
 * Progress lines for people waiting: the refresh as a few lines, not one per resource (refreshing
 * hundreds of subscriptions should show that it advances without flooding a pipeline's log), and
 * each retried request, so that a slow or flaky instance does not look hung.
 */
import type { RequestEvent } from "../../../provider/client";
import { plural } from "../../review/plural";
import type { RefreshProgress } from "./refreshObserver";

/** At most this many lines for one refresh, plus the last. */
const MAX_LINES = 10;

/**
 * A progress listener for `RefreshObserver` that calls `emit` when another tenth (at least one
 * resource) of `total` has been refreshed, and once at the end.
 */
export function refreshProgressReporter(
  total: number,
  emit: (line: string) => void,
): (progress: RefreshProgress) => void {
  const step = Math.max(1, Math.ceil(total / MAX_LINES));
  let reported = 0;
  return ({ finished }) => {
    if (finished <= reported) return;
    if (finished - reported >= step || finished >= total) {
      reported = finished;
      emit(`refreshed ${finished}/${plural(total, "managed subscription")}`);
    }
  };
}

/** A request listener for the client that calls `emit` for every retried request. */
export function retryReporter(emit: (line: string) => void): (event: RequestEvent) => void {
  return (event) => {
    if (event.retryInMs === undefined) return;
    const why = event.status !== undefined ? `HTTP ${event.status}` : (event.networkCode ?? "no response");
    emit(`${event.operation} attempt ${event.attempt} failed (${why}); retrying in ${Math.round(event.retryInMs)} ms`);
  };
}
