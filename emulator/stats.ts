/**
 * Counters of API traffic, read by benchmarks and tests through `GET /_emulator/stats`.
 * Only configuration and legacy API requests count; admin and OAuth calls do not.
 */

/** The body of `GET /_emulator/stats`. */
export interface StatsSnapshot {
  /** Requests per operation name (configuration and legacy together). */
  requests: Record<string, number>;
  /** Answered API requests per HTTP status; a connection reset by a fault has no status. */
  status: Record<string, number>;
  /** Faults injected per kind. */
  faults: Record<string, number>;
}

function increment(counters: Record<string, number>, key: string): void {
  counters[key] = (counters[key] ?? 0) + 1;
}

/** Mutable counters; `snapshot` copies them so a reader never sees later changes. */
export class Stats {
  private counters: StatsSnapshot = { requests: {}, status: {}, faults: {} };

  request(operation: string): void {
    increment(this.counters.requests, operation);
  }

  status(status: number): void {
    increment(this.counters.status, String(status));
  }

  fault(kind: string): void {
    increment(this.counters.faults, kind);
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.counters);
  }

  reset(): void {
    this.counters = { requests: {}, status: {}, faults: {} };
  }
}
