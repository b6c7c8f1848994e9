/**
 * The `runtime: nodejs` plugin directory's index.js (scripts/buildPlugin.ts): the nodejs language
 * host runs `@pulumi/pulumi/cmd/run-plugin <plugin dir> <engine address>`, which requires it, and
 * `node <dir>/index.js` with go-plugin's cookie serves Terraform. It picks the door as the single
 * executable does (pickDoor.ts) and requires that door's bundle beside it (`pulumi.js`,
 * `terraform.js`). The command line is not in the directory: it is the npm package's bin.
 */
import { join } from "node:path";
import { directoryFiles } from "./directoryFiles";
import { bundleName, openDoor } from "./doors";
import { CLI_NAME, pickDoor } from "./pickDoor";

// run-plugin hands the plugin its arguments as they came: the engine's address is the first.
const args = process.argv.slice(2);
const door = pickDoor({ args, env: process.env });
if (door === "cli") {
  process.stderr.write(
    `${args[0]}: the plugin directory serves the Pulumi and Terraform plugins only; the command line is \`npx ${CLI_NAME}\` or the release's ${CLI_NAME} executable\n`,
  );
  process.exit(1);
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the door's bundle, a file beside this one, read only when picked
openDoor(door, require(join(__dirname, bundleName(door))), directoryFiles(__dirname), args);
