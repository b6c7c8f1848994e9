/**
 * Which state backend a stack is read from, chosen the way the Pulumi CLI chooses it: an explicit
 * URL, then `PULUMI_BACKEND_URL`, then the project's `backend.url` in Pulumi.yaml, then the
 * backend the CLI is logged in to.
 */
export type BackendSource = "option" | "PULUMI_BACKEND_URL" | "Pulumi.yaml" | "login";

export interface Backend {
  /** The URL to hand to the engine; undefined for `login` (the CLI's current login decides). */
  readonly url?: string;
  readonly source: BackendSource;
}

/** Picks the backend; see the module comment for the order. */
export function resolveBackend(options: {
  backendUrl?: string;
  env: NodeJS.ProcessEnv;
  projectBackendUrl?: string;
}): Backend {
  if (options.backendUrl) return { url: options.backendUrl, source: "option" };
  const fromEnv = options.env.PULUMI_BACKEND_URL;
  if (fromEnv) return { url: fromEnv, source: "PULUMI_BACKEND_URL" };
  if (options.projectBackendUrl) return { url: options.projectBackendUrl, source: "Pulumi.yaml" };
  return { source: "login" };
}

/** Query parameters of a backend URL that may carry credentials. */
const SECRET_PARAMETER = /key|secret|token|password|signature|sig|credential/i;

/** The backend as it may be shown in reports and errors: no user info, no credential parameters. */
export function displayBackend(backend: Backend): string {
  if (!backend.url) return "the backend the Pulumi CLI is logged in to (`pulumi whoami -v`)";
  let url: URL;
  try {
    url = new URL(backend.url);
  } catch {
    return backend.url.replace(/\/\/[^/@]*@/, "//");
  }
  url.username = "";
  url.password = "";
  for (const name of [...url.searchParams.keys()])
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, "REDACTED");
  return url.href;
}
