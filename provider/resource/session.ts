/**
 * What one dynamic-provider process shares between resources: the stack config it was
 * configured with, one client (so one connection pool and one rate limiter) and the
 * coalesced list snapshots. Created lazily: preview and diff never need credentials.
 */
import { WebhookSubscriptionClient } from "../client";
import { DEFAULT_API_VERSION, isLegacy, type ApiVersion } from "../wire";
import { apiVersionFromConfig, settingsFromConfig, type ConfigSource } from "./settings";
import { ListSnapshots } from "./snapshot";

export interface Session {
  client: WebhookSubscriptionClient;
  /** The configuration-API client: the client itself, or in legacy mode a sibling used to confirm creates. */
  configurationClient: WebhookSubscriptionClient;
  snapshots: ListSnapshots;
  legacy: boolean;
  baseUrl: string;
  /** GUIDs this process created or adopted: reconciliation never takes one twice. */
  claimed: Set<string>;
}

let config: ConfigSource | undefined;
let current: Session | undefined;

/** Called by the host's `configure` with the stack config. */
export function setConfig(source: ConfigSource): void {
  config = source;
  current = undefined;
}

export function apiVersion(): ApiVersion {
  return apiVersionFromConfig(config);
}

/** The session, created on first use from stack config and the environment. */
export function session(): Session {
  if (current) return current;
  const settings = settingsFromConfig(config);
  const client = new WebhookSubscriptionClient(settings);
  const legacy = isLegacy(settings.apiVersion);
  const configurationClient = legacy ? client.withApiVersion(DEFAULT_API_VERSION) : client;
  current = {
    client,
    configurationClient,
    snapshots: new ListSnapshots(configurationClient),
    legacy,
    baseUrl: settings.baseUrl,
    claimed: new Set(),
  };
  return current;
}
