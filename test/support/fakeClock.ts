/**
 * A clock for tests: time moves only when the test says so, so nothing waits on the wall clock.
 * `advance` moves time and fires what is due; `run` jumps from timer to timer until none are
 * left (for simulations), letting promise callbacks settle in between.
 */
import type { Clock } from "../../provider/wire";

export class FakeClock implements Clock {
  time = 0;
  private timers: Array<{ at: number; seq: number; callback: () => void }> = [];
  private seq = 0;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): void {
    this.timers.push({ at: this.time + ms, seq: this.seq++, callback });
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (let next = this.due(until); next; next = this.due(until)) {
      this.time = next.at;
      next.callback();
    }
    this.time = until;
  }

  /** Fires timers in order until none are left (bounded, so a bug cannot hang the suite). */
  async run(maxSteps = 200_000): Promise<void> {
    for (let step = 0; step < maxSteps; step++) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = this.due(Infinity);
      if (!next) return;
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    throw new Error("fake clock did not settle");
  }

  /** Removes and returns the earliest timer due by `until`. */
  private due(until: number): { at: number; callback: () => void } | undefined {
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    return this.timers[0] && this.timers[0].at <= until ? this.timers.shift() : undefined;
  }
}
