/** One measurement in bench/results.json (../shared/design/product.md, _Benchmark output_). */
export interface Entry {
  value: number;
  unit: string;
  /** What `value` is compared with, measured in the same run. */
  baseline?: number;
  /** value / baseline. */
  ratio?: number;
  n: number;
  /** What the entry is held to, or "diagnostic: …". */
  goal?: string;
}
