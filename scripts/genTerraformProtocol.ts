/**
 * `npm run gen-tfplugin`: provider/terraform/protocol/descriptor.ts, the vendored protocol files
 * (tfplugin6.proto of terraform-plugin-go, go-plugin's broker, controller and stdio services)
 * parsed once here, so that a launch of the provider reads a ready descriptor instead of parsing
 * .proto text, with a table of the services' methods and the declarations each one's messages
 * need, so that a launch builds message types only for the methods it is called on. test/terraform/protocol.test.ts checks that it is up to date and that the vendored
 * files equal the pinned modules' copies.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import * as prettier from "prettier";
import { descriptorModule } from "../provider/terraform/protocol/parse";

const out = path.resolve(__dirname, "../provider/terraform/protocol/descriptor.ts");

async function main(): Promise<void> {
  // Formatted as the repository formats code, so that `prettier --check` passes on it.
  const options = await prettier.resolveConfig(out);
  writeFileSync(out, await prettier.format(descriptorModule(), { ...options, filepath: out }));
  console.log(path.relative(process.cwd(), out));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
