/**
 * When the API calls of a run started and ended, seen at the emulator (in this process): splits
 * a rate-limited `up` into the part the limit decides and the engine's own start and finish.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";

const CHANNEL = "http.server.response.finish";

export class ApiWindow {
  private first?: number;
  private last?: number;
  private readonly listener = (message: unknown) => {
    const { request } = message as { request: { url?: string } };
    if (!request.url?.includes("/WebHookSubscription/")) return;
    const now = performance.now();
    this.first ??= now;
    this.last = now;
  };

  constructor() {
    subscribe(CHANNEL, this.listener);
  }

  /** Seconds from the first API request's answer to the last one's. */
  seconds(): number {
    if (this.first === undefined || this.last === undefined) throw new Error("no API call was seen");
    return (this.last - this.first) / 1000;
  }

  close(): void {
    unsubscribe(CHANNEL, this.listener);
  }
}
