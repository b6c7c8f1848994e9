/**
 * A throwaway certificate authority and a server certificate it signed for `localhost` and
 * 127.0.0.1, made with the machine's openssl, so a loopback HTTPS server is trusted by a client
 * told to trust that CA alone (`SSL_CERT_FILE` for Go's programs: tofu, terraform).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The CA's certificate file, and the server's key and certificate (PEM). */
export interface TestTls {
  readonly caFile: string;
  readonly key: string;
  readonly cert: string;
}

/** Makes the CA and the server certificate in `dir`. */
export function makeTestTls(dir: string): TestTls {
  const file = (name: string) => join(dir, name);
  const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2"]
      .concat(["-subj", "/CN=webhook-subscriptions test CA", "-keyout", file("ca.key"), "-out", file("ca.pem")])
      .concat(["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]),
  );
  openssl(
    ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost"].concat([
      "-keyout",
      file("server.key"),
      "-out",
      file("server.csr"),
    ]),
  );
  writeFileSync(
    file("server.ext"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n",
  );
  openssl(
    ["x509", "-req", "-in", file("server.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key")].concat([
      "-CAcreateserial",
      "-days",
      "2",
      "-extfile",
      file("server.ext"),
      "-out",
      file("server.pem"),
    ]),
  );
  return {
    caFile: file("ca.pem"),
    key: readFileSync(file("server.key"), "utf8"),
    cert: readFileSync(file("server.pem"), "utf8"),
  };
}
