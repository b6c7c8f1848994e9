/**
 * Provider settings: one lookup for the default provider (stack config, then WEBHOOKS_* env)
 * and explicit Providers (their arguments, and only the env vars they name). Every message
 * names the setting where it was read and never shows a secret.
 */
import { describe, expect, it } from "vitest";
import { readSettings, UNKNOWN_VALUE, SettingsNotKnownYet, staleCredentialHint } from "../../provider/core/settings";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });
const env = { WEBHOOKS_BASE_URL: "https://x.example.com", WEBHOOKS_TOKEN: "t" };
/** The message of what `run` throws. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("expected a failure");
}

describe("readSettings, default provider", () => {
  it("prefers stack config over the environment, and defaults api-version, product and adoptIdentical", () => {
    const env = { WEBHOOKS_BASE_URL: "https://env.example.com", WEBHOOKS_TOKEN: "env-token", WEBHOOKS_MAX_RPS: "5" };
    expect(readSettings(config({ "webhooks:baseUrl": "https://cfg.example.com/" }), env)).toEqual({
      connection: {
        baseUrl: "https://cfg.example.com",
        apiVersion: "3",
        productName: "service",
        token: "env-token",
        credentialSource: "WEBHOOKS_TOKEN",
        maxRequestsPerSecond: 5,
        // What a rate-limit failure advises to change, named where this run read it.
        limitNames: {
          retryDeadline: "webhooks:retryDeadlineMs (or WEBHOOKS_RETRY_DEADLINE_MS)",
          maxRequestsPerSecond: "WEBHOOKS_MAX_RPS",
          parallelism: "`pulumi up --parallel N`",
        },
      },
      adoptIdentical: false,
      // Read at run time, so never the state's record of an older token.
      credentialInState: false,
    });
  });

  it("reads request timeout, retry deadline and adoptIdentical", () => {
    const settings = readSettings(
      config({
        "webhooks:requestTimeoutMs": "5000",
        "webhooks:retryDeadlineMs": "9000",
        "webhooks:adoptIdentical": "true",
      }),
      env,
    );
    expect(settings.connection).toMatchObject({ requestTimeoutMs: 5000, retryDeadlineMs: 9000 });
    expect(settings.adoptIdentical).toBe(true);
    expect(failure(() => readSettings(config({ "webhooks:adoptIdentical": "yes" }), env))).toMatch(
      /webhooks:adoptIdentical must be true or false.*got: "yes"/,
    );
    expect(failure(() => readSettings(undefined, { ...env, WEBHOOKS_REQUEST_TIMEOUT_MS: "-1" }))).toMatch(
      /WEBHOOKS_REQUEST_TIMEOUT_MS must be a positive number.*got: "-1"/,
    );
  });

  it("takes OAuth client credentials when there is no token, and names what is missing", () => {
    const oauth = {
      WEBHOOKS_BASE_URL: "https://x.example.com",
      WEBHOOKS_CLIENT_ID: "id",
      WEBHOOKS_CLIENT_SECRET: "s3cret",
      WEBHOOKS_TOKEN_URL: "https://x.example.com/oauth/token",
    };
    expect(readSettings(undefined, oauth).connection).toMatchObject({
      oauth: { clientId: "id", clientSecret: "s3cret", tokenUrl: "https://x.example.com/oauth/token" },
      credentialSource: "WEBHOOKS_CLIENT_ID and WEBHOOKS_CLIENT_SECRET",
    });
    const { WEBHOOKS_TOKEN_URL: _omitted, ...incomplete } = oauth;
    const message = failure(() => readSettings(undefined, incomplete));
    expect(message).toMatch(/webhooks:tokenUrl.*missing/);
    expect(message).not.toContain("s3cret");
  });

  it("says how to set a missing base URL or missing credentials", () => {
    expect(failure(() => readSettings(undefined, {}))).toMatch(
      /webhooks:baseUrl.*not set.*pulumi config set webhooks:baseUrl .*WEBHOOKS_BASE_URL/,
    );
    // The secret's value after `--`, as docs/installation-configuration.md writes it: a token that
    // begins with `-` would otherwise be read as an option.
    expect(failure(() => readSettings(undefined, { WEBHOOKS_BASE_URL: "https://x.example.com" }))).toContain(
      "set a bearer token with `pulumi config set --secret webhooks:token -- …` or WEBHOOKS_TOKEN",
    );
    expect(
      failure(() => readSettings(undefined, { WEBHOOKS_BASE_URL: "https://x.example.com", WEBHOOKS_CLIENT_ID: "c" })),
    ).toContain("`pulumi config set --secret webhooks:clientSecret -- …` or WEBHOOKS_CLIENT_SECRET");
  });

  it("names the setting where the bad value was read: the env var or the config key", () => {
    expect(failure(() => readSettings(undefined, { ...env, WEBHOOKS_API_VERSION: "9" }))).toMatch(
      /WEBHOOKS_API_VERSION must be one of "1", "2", "3", "4-preview", "2024.1", got: "9"/,
    );
    expect(failure(() => readSettings(config({ "webhooks:apiVersion": "5" }), env))).toMatch(
      /webhooks:apiVersion must be one of .*got: "5"/,
    );
    expect(failure(() => readSettings(config({ "webhooks:maxRequestsPerSecond": "fast" }), env))).toMatch(
      /webhooks:maxRequestsPerSecond.*got: "fast"/,
    );
    expect(failure(() => readSettings(undefined, { ...env, WEBHOOKS_BASE_URL: "ftp://x.example.com" }))).toMatch(
      /WEBHOOKS_BASE_URL must be an absolute http\(s\) URL.*got: "ftp:\/\/x.example.com"/,
    );
    const secret = failure(() => readSettings(config({ "webhooks:token": "has space" }), env));
    expect(secret).toMatch(/webhooks:token must be a non-empty string without whitespace/);
    expect(secret).not.toContain("has space");
  });

  it("says a value is not known yet instead of failing on the engine's placeholder", () => {
    expect(() => readSettings(config({ "webhooks:baseUrl": UNKNOWN_VALUE }), env)).toThrow(SettingsNotKnownYet);
  });
});

describe("readSettings, explicit Provider", () => {
  const prod = (values: Record<string, string>) =>
    config({ "webhooks:provider": "prod", "webhooks:baseUrl": "https://prod.example.com", ...values });

  it("uses its arguments and never the default provider's WEBHOOKS_* variables", () => {
    expect(failure(() => readSettings(prod({}), env))).toMatch(
      /Provider "prod" token is not set.*argument of Provider "prod"/,
    );
    expect(readSettings(prod({ "webhooks:token": "p" }), env)).toEqual({
      connection: {
        baseUrl: "https://prod.example.com",
        apiVersion: "3",
        productName: "service",
        token: "p",
        credentialSource: 'Provider "prod" token',
        limitNames: {
          retryDeadline: 'the retryDeadlineMs argument of Provider "prod"',
          maxRequestsPerSecond: 'the maxRequestsPerSecond argument of Provider "prod"',
          parallelism: "`pulumi up --parallel N`",
        },
      },
      adoptIdentical: false,
      credentialInState: true,
      providerName: "prod",
    });
  });

  it("reads credentials from the environment variables it names", () => {
    const settings = readSettings(prod({ "webhooks:tokenFromEnv": "PROD_WEBHOOKS_TOKEN" }), {
      PROD_WEBHOOKS_TOKEN: "from-env",
    });
    expect(settings.connection).toMatchObject({
      token: "from-env",
      credentialSource: 'PROD_WEBHOOKS_TOKEN (Provider "prod" tokenFromEnv)',
    });
    expect(failure(() => readSettings(prod({ "webhooks:tokenFromEnv": "PROD_WEBHOOKS_TOKEN" }), {}))).toMatch(
      /Provider "prod" tokenFromEnv names the environment variable PROD_WEBHOOKS_TOKEN, which is not set/,
    );
    const oauth = readSettings(
      prod({
        "webhooks:clientId": "c",
        "webhooks:tokenUrl": "https://prod.example.com/oauth/token",
        "webhooks:clientSecretFromEnv": "PROD_SECRET",
      }),
      { PROD_SECRET: "s" },
    );
    expect(oauth.connection.oauth).toEqual({
      clientId: "c",
      clientSecret: "s",
      tokenUrl: "https://prod.example.com/oauth/token",
    });
    expect(oauth.connection.credentialSource).toBe(
      'Provider "prod" clientId and PROD_SECRET (Provider "prod" clientSecretFromEnv)',
    );
  });

  it("names the Provider's argument in value errors", () => {
    expect(failure(() => readSettings(prod({ "webhooks:token": "p", "webhooks:apiVersion": "9" }), env))).toMatch(
      /Provider "prod" apiVersion must be one of .*got: "9"/,
    );
  });
});

describe("a credential the state records (a plain refresh or destroy sends the last `up`'s)", () => {
  const base = { "webhooks:baseUrl": "https://cfg.example.com" };
  const hint = (values: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
    staleCredentialHint(readSettings(config({ ...base, ...values }), env));

  it("stack config and a Provider's argument are recorded: the 401 hint says what to run", () => {
    expect(hint({ "webhooks:token": "t" })).toBe(
      "If webhooks:token changed since the last `pulumi up`: a plain `pulumi refresh`, `pulumi destroy` or " +
        "`pulumi import` sends the value that update recorded in the state. Run `pulumi up` first, or " +
        "`pulumi refresh --run-program` / `pulumi destroy --run-program`, to use the current one.",
    );
    expect(hint({ "webhooks:provider": "prod", "webhooks:token": "t" })).toMatch(/^If Provider "prod" token changed/);
    const oauth = { "webhooks:clientId": "c", "webhooks:clientSecret": "s", "webhooks:tokenUrl": "https://i/token" };
    expect(hint(oauth)).toMatch(/^If webhooks:clientId and webhooks:clientSecret changed/);
  });

  it("environment variables are read at run time: no hint", () => {
    expect(hint({}, { WEBHOOKS_TOKEN: "t" })).toBeUndefined();
    expect(hint({ "webhooks:provider": "prod", "webhooks:tokenFromEnv": "PROD_TOKEN" }, { PROD_TOKEN: "t" })).toBe(
      undefined,
    );
  });
});
