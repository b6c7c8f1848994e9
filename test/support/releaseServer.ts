/**
 * `dist/release/` served on loopback as a release host serves it (GET <name> → the file), with a
 * log of every request, for the tests that install as users do: the engine's download of the
 * plugin, `pulumi plugin install --server`, `pip install`, Go's file proxy is read from disk.
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";

/** One request the server answered. */
export interface Served {
  readonly path: string;
  readonly status: number;
}

/** A loopback server over a directory. */
export class ReleaseServer {
  /** Every request, in order. */
  readonly log: Served[] = [];
  /** Names answered 404 even when present (a release missing an asset). */
  readonly missing = new Set<string>();

  private readonly server: Server;

  private constructor(private readonly dir: string) {
    this.server = createServer((req, res) => {
      const name = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^\/+/, "");
      const file = join(this.dir, name);
      const found = !name.startsWith("..") && !this.missing.has(name) && existsSync(file) && statSync(file).isFile();
      this.log.push({ path: `/${name}`, status: found ? 200 : 404 });
      if (!found) {
        res.writeHead(404).end("not found\n");
        return;
      }
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
      createReadStream(file).pipe(res);
    });
  }

  /** Serves `dir` on a free loopback port. */
  static async start(dir: string): Promise<ReleaseServer> {
    const self = new ReleaseServer(dir);
    await new Promise<void>((done) => self.server.listen(0, "127.0.0.1", done));
    return self;
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The log as lines `GET /name 200`, for a transcript. */
  transcript(): string {
    return this.log.map((entry) => `GET ${entry.path} ${entry.status}`).join("\n");
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}
