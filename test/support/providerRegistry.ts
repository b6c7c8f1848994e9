/**
 * Terraform's provider registry protocol (the one registry.opentofu.org and registry.terraform.io
 * speak) served over loopback HTTPS from a release folder, for the tests that install the provider
 * as a Terraform user does: service discovery (`/.well-known/terraform.json`), the versions list,
 * and each platform's download with the release's SHA256SUMS, its signature and the signing key.
 * Everything it answers comes from the release's own files; `tamper` and `servedKey` let a test
 * play a corrupted download or a key other than the one that signed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { TERRAFORM_MANIFEST, TERRAFORM_PROVIDER, terraformSumsName } from "../../scripts/release/terraform";
import type { TestTls } from "./testCa";

/** The provider's address in the registry: `<namespace>/<type>`. */
export const PROVIDER_ADDRESS = "webhook-subscriptions/webhooks";
const PROVIDERS_PATH = "/v1/providers/";

/** The public key a download names: what a registry holds for the provider's namespace. */
export interface RegistryKey {
  readonly keyId: string;
  readonly armoredPublic: string;
}

/** One request the registry answered. */
export interface RegistryRequest {
  readonly path: string;
  readonly status: number;
}

/** A loopback provider registry over a release folder. */
export class ProviderRegistry {
  /** Every request, in order. */
  readonly log: RegistryRequest[] = [];
  /** A file name whose bytes are served with one more byte (a download corrupted on the way). */
  tamper: string | undefined;
  /** The key downloads name; by default the one that signed the release. */
  servedKey: RegistryKey;

  private readonly server: Server;

  private constructor(
    private readonly dir: string,
    signedBy: RegistryKey,
    tls: TestTls,
  ) {
    this.servedKey = signedBy;
    this.server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const path = new URL(req.url ?? "/", "https://x").pathname;
      const answer = this.answer(path);
      this.log.push({ path, status: answer ? 200 : 404 });
      if (!answer) res.writeHead(404, { "content-type": "application/json" }).end('{"errors":["Not Found"]}');
      else res.writeHead(200, { "content-type": answer.type }).end(answer.body);
    });
  }

  /** Serves `dir` (a dist/release) on a free loopback port with `tls`'s certificate. */
  static async start(dir: string, signedBy: RegistryKey, tls: TestTls): Promise<ProviderRegistry> {
    const self = new ProviderRegistry(dir, signedBy, tls);
    await new Promise<void>((done) => self.server.listen(0, "127.0.0.1", done));
    return self;
  }

  /** `https://localhost:<port>`: the name the certificate holds. */
  get url(): string {
    return `https://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  /** The provider registry service's base URL, as discovery names it. */
  get providersUrl(): string {
    return `${this.url}${PROVIDERS_PATH}`;
  }

  /** The `GET path` lines of the log, for a transcript. */
  transcript(): string {
    return this.log.map((entry) => `GET ${entry.path} ${entry.status}`).join("\n");
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  private answer(path: string): { type: string; body: string | Buffer } | undefined {
    if (path === "/.well-known/terraform.json") return json({ "providers.v1": PROVIDERS_PATH });
    if (path.startsWith("/files/")) return this.file(decodeURIComponent(path.slice("/files/".length)));
    const prefix = `${PROVIDERS_PATH}${PROVIDER_ADDRESS}/`;
    if (!path.startsWith(prefix)) return undefined;
    const rest = path.slice(prefix.length).split("/");
    if (rest.length === 1 && rest[0] === "versions")
      return json({
        versions: this.versions().map((version) => ({
          version,
          protocols: TERRAFORM_MANIFEST.metadata.protocol_versions,
          platforms: this.platforms(version).map(([os, arch]) => ({ os, arch })),
        })),
      });
    const [version, download, os, arch] = rest;
    if (rest.length !== 4 || download !== "download" || !version || !os || !arch) return undefined;
    const platform = this.platforms(version).find(([o, a]) => o === os && a === arch);
    if (!platform) return undefined;
    const sums = terraformSumsName(version);
    const filename = platform[2];
    return json({
      protocols: TERRAFORM_MANIFEST.metadata.protocol_versions,
      os,
      arch,
      filename,
      download_url: `${this.url}/files/${filename}`,
      shasums_url: `${this.url}/files/${sums}`,
      shasums_signature_url: `${this.url}/files/${sums}.sig`,
      shasum: this.sums(version).get(filename),
      signing_keys: {
        gpg_public_keys: [
          {
            key_id: this.servedKey.keyId,
            ascii_armor: this.servedKey.armoredPublic,
            trust_signature: "",
            source: "webhook-subscriptions",
            source_url: null,
          },
        ],
      },
    });
  }

  /** The versions with a SHA256SUMS in the folder. */
  private versions(): string[] {
    const pattern = new RegExp(`^${TERRAFORM_PROVIDER}_(.+)_SHA256SUMS$`);
    return readdirSync(this.dir).flatMap((name) => pattern.exec(name)?.[1] ?? []);
  }

  /** SHA256SUMS of `version`: file name → sha256. */
  private sums(version: string): Map<string, string> {
    const text = readFileSync(join(this.dir, terraformSumsName(version)), "utf8");
    return new Map(
      text
        .trimEnd()
        .split("\n")
        .map((line) => {
          const [sum, name] = line.split(/\s+/);
          return [name ?? "", sum ?? ""];
        }),
    );
  }

  /** `[os, arch, zip name]` of each zip SHA256SUMS lists for `version`. */
  private platforms(version: string): [string, string, string][] {
    const pattern = new RegExp(
      `^${TERRAFORM_PROVIDER}_${version.replaceAll(".", "\\.")}_([a-z0-9]+)_([a-z0-9]+)\\.zip$`,
    );
    return [...this.sums(version).keys()].flatMap((name) => {
      const match = pattern.exec(name);
      return match?.[1] && match[2] ? [[match[1], match[2], name] as [string, string, string]] : [];
    });
  }

  private file(name: string): { type: string; body: Buffer } | undefined {
    const path = join(this.dir, name);
    if (name.includes("/") || name.startsWith(".")) return undefined;
    try {
      if (!statSync(path).isFile()) return undefined;
    } catch {
      return undefined;
    }
    const bytes = readFileSync(path);
    return {
      type: "application/octet-stream",
      body: name === this.tamper ? Buffer.concat([bytes, Buffer.from("\n")]) : bytes,
    };
  }
}

function json(value: unknown): { type: string; body: string } {
  return { type: "application/json", body: JSON.stringify(value) };
}
