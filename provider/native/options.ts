/**
 * What the native plugin is started with. Its own module, so that the server (server.ts) and the
 * calls it loads on demand (lifecycleCalls.ts) both take it and imports run one way: server →
 * lifecycleCalls → options.
 */
import type { InstanceLimiters } from "../client";

/** The native plugin's start-up options. */
export interface NativeProviderOptions {
  /** The plugin's version (GetPluginInfo). */
  readonly version: string;
  /** The package schema, as JSON (GetSchema). */
  readonly schema: string;
  /** Where the default provider's `WEBHOOKS_*` and `tokenFromEnv` are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Injected rate limiters, e.g. on a test clock. @default one set per session */
  readonly limiters?: () => InstanceLimiters;
  /** The engine's address, whose Log service gets the lifecycle's warnings (engineLog.ts). @default stderr only */
  readonly engine?: string;
}
