/**
 * go-plugin's handshake, as its server side does it (hashicorp/go-plugin server.go): the client
 * says in the environment which protocol versions it speaks, which ports to take and its
 * certificate; the plugin answers with one line on stdout,
 * `1|6|tcp|127.0.0.1:PORT|grpc|<server certificate DER, base64 without padding>`.
 */

/** The cookie Terraform and OpenTofu set for a provider (OpenTofu internal/plugin6/serve.go). */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/** go-plugin's own protocol version, then the application's: tfplugin6. */
const CORE_PROTOCOL_VERSION = 1;
export const PROTOCOL_VERSION = 6;

/** Whether the process was started by Terraform or OpenTofu as a provider. */
export function startedAsTerraformProvider(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE_VALUE;
}

/** What the client asked for. */
export interface HandshakeRequest {
  /** The ports to listen on (PLUGIN_MIN_PORT..PLUGIN_MAX_PORT); 0..0 for any. */
  readonly ports: { readonly min: number; readonly max: number };
  /** The client's certificate (PEM) for mutual TLS; undefined when TLS is off (TF_DISABLE_PLUGIN_TLS). */
  readonly clientCertificate?: string;
}

/**
 * Reads the client's environment; throws, with what to do, when the client does not speak
 * protocol 6 or the ports are not numbers.
 */
export function handshakeRequest(env: NodeJS.ProcessEnv = process.env): HandshakeRequest {
  const versions = env.PLUGIN_PROTOCOL_VERSIONS;
  if (
    versions &&
    !versions
      .split(",")
      .map((v) => v.trim())
      .includes(String(PROTOCOL_VERSION))
  )
    throw new Error(
      `This provider speaks plugin protocol ${PROTOCOL_VERSION}, and the client offered ${versions}: use Terraform 1.0 or later, or OpenTofu.`,
    );
  const port = (name: string) => {
    const value = env[name];
    if (value === undefined || value === "") return 0;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0 || number > 65535)
      throw new Error(`${name} must be a port number, got: ${JSON.stringify(value)}`);
    return number;
  };
  const min = port("PLUGIN_MIN_PORT");
  const max = port("PLUGIN_MAX_PORT");
  if (min > max && max !== 0) throw new Error(`PLUGIN_MIN_PORT ${min} is greater than PLUGIN_MAX_PORT ${max}`);
  const clientCertificate = env.PLUGIN_CLIENT_CERT || undefined;
  return { ports: { min, max }, ...(clientCertificate ? { clientCertificate } : {}) };
}

/** The handshake line (without its newline). */
export function handshakeLine(address: string, certificateDer?: Buffer): string {
  const certificate = certificateDer ? certificateDer.toString("base64").replace(/=+$/, "") : "";
  return `${CORE_PROTOCOL_VERSION}|${PROTOCOL_VERSION}|tcp|${address}|grpc|${certificate}`;
}
