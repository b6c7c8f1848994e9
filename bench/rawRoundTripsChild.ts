/**
 * `<node with the bench's loader> rawRoundTripsChild.ts <url> <n> <operation>…`: timeRawRoundTrips
 * in a process of its own, its cost printed as JSON (rawRoundTripCost starts it).
 */
import { timeRawRoundTrips, type RawOperation } from "./rawRoundTrips";

const [url, n, ...operations] = process.argv.slice(2);
timeRawRoundTrips(url!, Number(n), operations as RawOperation[]).then(
  (cost) => process.stdout.write(JSON.stringify(cost)),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
