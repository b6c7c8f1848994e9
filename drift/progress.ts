/**
 * Progress of the refresh preview as a few lines, not one per resource: refreshing hundreds of
 * subscriptions should show that it advances without flooding a pipeline's log.
 */
import { plural } from "./plural";
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
