/**
 * Swagger UI's files, served by the page at `/swagger`. They are not a dependency of the package:
 * swagger-ui-dist depends on @scarf/scarf, an install-time analytics package, and nothing a user
 * installs may phone home. So `npm run prepare` (and with it every pack) copies the few files the
 * page loads, with swagger-ui-dist's licence, into `dist/emulator/swagger-ui/`
 * (scripts/vendorSwaggerUi.ts, part of every build); the single executable carries the same files
 * as SEA assets `swagger-ui/<file>` (scripts/release/executables.ts); a checkout running from
 * sources reads them from the swagger-ui-dist development dependency. `readSwaggerAsset` knows
 * the three places.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The files the page loads, with their content types; nothing else is served. */
export const SWAGGER_UI_ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/** Swagger UI's licence files, kept beside the copied assets. */
export const SWAGGER_UI_LICENCE_FILES: readonly string[] = ["LICENSE", "NOTICE"];

/** Every file copied from swagger-ui-dist: the assets and their licence. */
export const SWAGGER_UI_FILES: readonly string[] = [...Object.keys(SWAGGER_UI_ASSETS), ...SWAGGER_UI_LICENCE_FILES];

/** Where the vendored copy lives, relative to this module once built (`dist/emulator/`). */
export const VENDORED_DIR = "swagger-ui";

/** The single executable's asset holding `file`. */
export const swaggerAssetKey = (file: string): string => `${VENDORED_DIR}/${file}`;

/**
 * The folder holding the assets: the vendored copy beside this module (an installed package), else
 * swagger-ui-dist's own folder (a checkout), found without loading its 1.7 MB bundle into Node.
 */
export function swaggerUiDir(): string {
  const vendored = join(__dirname, VENDORED_DIR);
  if (existsSync(join(vendored, "swagger-ui-bundle.js"))) return vendored;
  try {
    return dirname(require.resolve("swagger-ui-dist/package.json"));
  } catch {
    throw new Error(
      `Swagger UI's files are missing: neither ${vendored} (written by \`npm run prepare\`) nor the ` +
        "swagger-ui-dist development dependency is there. Run `npm ci` in the checkout, or reinstall the package.",
    );
  }
}

/**
 * `file`'s asset in the single executable, or undefined outside one (or in one that lacks it: an
 * application of someone else's that embeds the emulator). Read only when the page asks for it:
 * no door of the executable loads these at start.
 */
function embedded(file: string): Buffer | undefined {
  let sea: typeof import("node:sea");
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a file is served
    sea = require("node:sea") as typeof import("node:sea");
  } catch {
    return undefined;
  }
  if (!sea.isSea()) return undefined;
  try {
    return Buffer.from(sea.getAsset(swaggerAssetKey(file)));
  } catch {
    return undefined;
  }
}

/** `file`'s bytes: the executable's asset, else the vendored copy, else the development dependency's. */
export async function readSwaggerAsset(file: string): Promise<Buffer> {
  return embedded(file) ?? (await readFile(join(swaggerUiDir(), file)));
}
