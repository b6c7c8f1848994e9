/**
 * A clock for tests: time moves only when the test says so, so nothing waits on the wall clock.
 * `advance` moves time and fires what is due; `run` jumps from timer to timer until none are
 * left (for simulations), letting promise callbacks settle in between; `runUntil` does the same
 * until a given promise settles.
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
      await nextTurn();
      if (!this.fireNext()) return;
    }
    throw new Error("fake clock did not settle");
  }

  /**
   * Fires timers in order until `work` settles, and returns its outcome. For code that also
   * waits on something real between its fake timers (a mocked response, a zero-delay real
   * timer), where `run` would stop at the first moment no fake timer is pending. Time jumps to
   * a timer as soon as it is pending, so the real work takes no fake time. Bounded like `run`.
   */
  async runUntil<T>(work: Promise<T>, maxSteps = 200_000): Promise<T> {
    let settled = false;
    const outcome = work.finally(() => (settled = true));
    for (let step = 0; step < maxSteps && !settled; step++) {
      await nextTurn();
      this.fireNext();
    }
    if (!settled) throw new Error(`fake clock: the work did not settle within ${maxSteps} turns of the event loop`);
    return outcome;
  }

  /** Fires the earliest pending timer, moving time to it; false when none is pending. */
  private fireNext(): boolean {
    const next = this.due(Infinity);
    if (!next) return false;
    this.time = Math.max(this.time, next.at);
    next.callback();
    return true;
  }

  /** Removes and returns the earliest timer due by `until`. */
  private due(until: number): { at: number; callback: () => void } | undefined {
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    return this.timers[0] && this.timers[0].at <= until ? this.timers.shift() : undefined;
  }
}

/** One turn of the event loop, so that promise callbacks and I/O settle between timers. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
