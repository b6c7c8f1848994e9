/**
 * Start options of the emulator and their defaults. Validated once, here, so that the server,
 * the CLI and tests all get the same clear message for a bad value.
 *
 * Exposure: on a loopback address the emulator is a developer tool. Bound to any other address
 * it is reachable from the network, so it then requires an admin token (which guards the admin
 * API and replaces the well-known dev credentials) unless the dev credentials are explicitly allowed.
 */
import { setTimeout as wait } from "node:timers/promises";
import { DIALECTS, type DialectName } from "./dialect";
import { PRODUCT_PATTERN, systemClock, type Clock } from "../provider/wire";

/**
 * The system clock, except that its timers are unref'd: a delay fault cut short by a reset or
 * shutdown must not keep the process alive until it would have ended.
 */
const EMULATOR_CLOCK: Clock = {
  now: systemClock.now,
  setTimeout: (callback, ms) => {
    setTimeout(callback, ms).unref();
  },
};
import { isLoopbackAddress, isLoopbackHostname } from "./delivery";

/** Token-bucket settings: sustained rate and the number of requests allowed at once. */
export interface RateLimitSettings {
  readonly requestsPerSecond: number;
  /** @default Math.max(1, requestsPerSecond) */
  readonly burst?: number;
}

/** What `startEmulator` accepts. Every field is optional. */
export interface EmulatorOptions {
  /** TCP port; 0 picks a free one (read it back from the result). @default 0 */
  readonly port?: number;
  /** Address to listen on. @default "127.0.0.1" */
  readonly host?: string;
  /** JSON file holding subscriptions and work items across restarts. @default in memory only */
  readonly statePath?: string;
  /** Serve only the legacy 2024.1 API: every configuration-API path answers 404. @default false */
  readonly legacyOnly?: boolean;
  /** The product word in the `x-<product>-signature` header of delivered messages. @default "service" */
  readonly product?: string;
  /** Rate limit of the configuration and legacy APIs; null is off. @default null */
  readonly rateLimit?: RateLimitSettings | null;
  /** Lifetime of tokens issued by `POST /oauth/token`. @default 3600 */
  readonly tokenTtlSeconds?: number;
  /** How long one event delivery may take before it is reported as failed. @default 5000 */
  readonly deliveryTimeoutMs?: number;
  /**
   * Secret that the admin API (`/_emulator/*`) then requires as `Authorization: Bearer <token>`;
   * at least 16 characters. Required when `host` is not a loopback address, where it is also
   * the only credential of the API (as a Builder bearer token, and as the OAuth client secret
   * of `dev-client`). @default none: the admin API is open (loopback only)
   */
  readonly adminToken?: string;
  /**
   * Keep the well-known dev credentials (`dev-builder`, `dev-reader`, `dev-client`/`dev-secret`)
   * on a non-loopback address. @default false (they always work on loopback)
   */
  readonly allowDevTokens?: boolean;
  /** Most subscriptions stored at once; a Subscribe beyond it gets 400 with a validation message. @default 10000 */
  readonly maxSubscriptions?: number;
  /**
   * Time for token expiry, the rate limit and delay faults; tests inject a fake one (not a CLI flag).
   * @default the system clock, whose timers never keep the process alive
   */
  readonly clock?: Clock;
  /**
   * `spec` answers exactly as the spec; `vendor-docs` as the vendor's public documentation shows
   * (enumeration names, arrays, no envelope, per-account visibility, delivery retries, the
   * simulate-event endpoint): see docs/emulator.md. @default "spec"
   */
  readonly dialect?: DialectName;
  /**
   * How delivery retries wait between attempts (`vendor-docs`); tests inject one that records
   * the backoff instead of waiting. @default a real timer
   */
  readonly deliverySleep?: (ms: number) => Promise<void>;
}

/** Options with every default applied and every value checked. */
export interface ResolvedOptions {
  readonly port: number;
  readonly host: string;
  readonly statePath: string | null;
  readonly legacyOnly: boolean;
  readonly product: string;
  readonly rateLimit: Required<RateLimitSettings> | null;
  readonly tokenTtlSeconds: number;
  readonly deliveryTimeoutMs: number;
  readonly adminToken: string | null;
  /** Whether the dev credentials are accepted (always on loopback, else only when allowed). */
  readonly devTokens: boolean;
  readonly maxSubscriptions: number;
  readonly clock: Clock;
  readonly dialect: DialectName;
  readonly deliverySleep: (ms: number) => Promise<void>;
}

/** Shortest admin token accepted: long enough that guessing it over the network is hopeless. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** The environment variable the emulator command reads the admin token from when no flag gives one. */
export const ADMIN_TOKEN_ENV = "WEBHOOKS_EMULATOR_ADMIN_TOKEN";

/** How to give the command an admin token, safest first; for messages that ask for one. */
export const ADMIN_TOKEN_SOURCES =
  `--admin-token-file <path>, or the ${ADMIN_TOKEN_ENV} environment variable; ` +
  "--admin-token <token> also works but shows the token to every local user in `ps`";

/**
 * What is wrong with an admin token, as the end of a sentence about it, or undefined when it
 * is usable. It never quotes the value: the token is a secret.
 */
export function adminTokenProblem(token: unknown): string | undefined {
  if (typeof token === "string" && token.length >= MIN_ADMIN_TOKEN_LENGTH && !/\s/.test(token)) return undefined;
  return (
    `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters without whitespace (value not shown: it is secret); ` +
    "generate one with `openssl rand -hex 24`"
  );
}

/** Default of `maxSubscriptions`. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 10_000;

/** True for a listen address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return isLoopbackHostname(host) || isLoopbackAddress(host);
}

/** A start option with a bad value; `option` names it so the CLI can point at its flag. */
export class EmulatorOptionError extends Error {
  constructor(
    readonly option: keyof EmulatorOptions,
    readonly value: unknown,
    message: string,
  ) {
    super(message);
    this.name = "EmulatorOptionError";
  }
}

/** A value as the user wrote it; JSON would turn NaN and Infinity into "null". */
function show(value: unknown): string {
  return typeof value === "number" ? String(value) : JSON.stringify(value);
}

/** The usual "must be …, got …" error. */
function invalid(option: keyof EmulatorOptions, value: unknown, expectation: string): EmulatorOptionError {
  return new EmulatorOptionError(option, value, `${option} must be ${expectation}, got ${show(value)}`);
}

/**
 * Checks a rate-limit setting and fills in the burst. Shared by the start options and the
 * admin API (`PUT /_emulator/rate-limit`); returns an explanation instead of throwing.
 */
export function resolveRateLimit(
  value: RateLimitSettings,
): { ok: true; value: Required<RateLimitSettings> } | { ok: false; error: string } {
  const { requestsPerSecond } = value;
  if (typeof requestsPerSecond !== "number" || !Number.isFinite(requestsPerSecond) || requestsPerSecond <= 0) {
    return { ok: false, error: `requestsPerSecond must be a positive number, got ${show(requestsPerSecond)}` };
  }
  // A bucket smaller than one token could never let a request through.
  const burst = value.burst ?? Math.max(1, requestsPerSecond);
  if (typeof burst !== "number" || !Number.isFinite(burst) || burst < 1) {
    return { ok: false, error: `burst must be a number >= 1, got ${show(burst)}` };
  }
  return { ok: true, value: { requestsPerSecond, burst } };
}

function positive(option: keyof EmulatorOptions, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw invalid(option, value, "a positive number");
  return value;
}

/** Applies defaults and validates; throws EmulatorOptionError on the first bad value. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw invalid("port", port, "an integer from 0 to 65535");
  }
  const host = options.host ?? "127.0.0.1";
  if (host.length === 0) throw invalid("host", host, "a host name or address");
  const product = options.product ?? "service";
  if (!PRODUCT_PATTERN.test(product)) {
    throw invalid("product", product, "letters, digits and hyphens (it goes into a header name)");
  }
  let rateLimit: ResolvedOptions["rateLimit"] = null;
  if (options.rateLimit != null) {
    const resolved = resolveRateLimit(options.rateLimit);
    if (!resolved.ok) throw new EmulatorOptionError("rateLimit", options.rateLimit, `rateLimit.${resolved.error}`);
    rateLimit = resolved.value;
  }
  const loopback = isLoopbackHost(host);
  const adminToken = options.adminToken ?? null;
  const tokenProblem = adminToken === null ? undefined : adminTokenProblem(adminToken);
  if (tokenProblem !== undefined) throw new EmulatorOptionError("adminToken", undefined, `adminToken ${tokenProblem}`);
  if (!loopback && adminToken === null) {
    throw new EmulatorOptionError(
      "adminToken",
      undefined,
      `host ${show(host)} is not a loopback address, so the emulator would be reachable from the network with an open admin API: ` +
        `pass an admin token of at least ${MIN_ADMIN_TOKEN_LENGTH} characters (${ADMIN_TOKEN_SOURCES}), or bind 127.0.0.1`,
    );
  }
  const maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
  if (!Number.isInteger(maxSubscriptions) || maxSubscriptions < 1) {
    throw invalid("maxSubscriptions", maxSubscriptions, "a whole number >= 1");
  }
  const dialect = options.dialect ?? "spec";
  if (!(DIALECTS as readonly string[]).includes(dialect)) throw invalid("dialect", dialect, DIALECTS.join(" or "));
  const statePath = options.statePath ?? null;
  if (statePath !== null && statePath.length === 0) {
    throw invalid("statePath", statePath, "a file path");
  }
  return {
    port,
    host,
    statePath,
    legacyOnly: options.legacyOnly ?? false,
    product,
    rateLimit,
    tokenTtlSeconds: positive("tokenTtlSeconds", options.tokenTtlSeconds ?? 3600),
    deliveryTimeoutMs: positive("deliveryTimeoutMs", options.deliveryTimeoutMs ?? 5000),
    adminToken,
    devTokens: loopback || options.allowDevTokens === true,
    maxSubscriptions,
    clock: options.clock ?? EMULATOR_CLOCK,
    dialect,
    deliverySleep: options.deliverySleep ?? ((ms) => wait(ms)),
  };
}
