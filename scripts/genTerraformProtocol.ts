/**
 * `npm run gen-tfplugin`: provider/terraform/protocol/messages.ts, the vendored protocol files
 * (tfplugin6.proto of terraform-plugin-go, go-plugin's broker, controller and stdio services)
 * parsed once here: a table of the services' methods, and each message's codec as static code
 * (protobufjs's generated functions, written out), so that a launch of the provider neither
 * parses .proto text nor builds types and compiles their functions with `Function()`, and the
 * executable's trained code cache holds the ones it calls. test/terraform/protocol.test.ts checks
 * that it is up to date and that the vendored files equal the pinned modules' copies.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import * as prettier from "prettier";
import { messagesModule } from "../provider/terraform/protocol/parse";

const out = path.resolve(__dirname, "../provider/terraform/protocol/messages.ts");

async function main(): Promise<void> {
  // Formatted as the repository formats code, so that `prettier --check` passes on it.
  const options = await prettier.resolveConfig(out);
  writeFileSync(out, await prettier.format(messagesModule(), { ...options, filepath: out }));
  console.log(path.relative(process.cwd(), out));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
