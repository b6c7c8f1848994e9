/**
 * Copies the Swagger UI files the emulator's page loads, with swagger-ui-dist's licence, from the
 * swagger-ui-dist development dependency into `dist/emulator/swagger-ui/`, so the package serves
 * the page without depending on swagger-ui-dist (whose @scarf/scarf dependency reports installs):
 * emulator/swaggerAssets.ts says why. Run by `npm run prepare`, so by `npm ci`, a git install and
 * every pack, after the build.
 *
 * Usage: `tsx scripts/vendorSwaggerUi.ts` (in the repository root).
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { SWAGGER_UI_ASSETS, SWAGGER_UI_LICENCE_FILES, VENDORED_DIR } from "../emulator/swaggerAssets";

const source = dirname(require.resolve("swagger-ui-dist/package.json"));
const target = join("dist", "emulator", VENDORED_DIR);
mkdirSync(target, { recursive: true });
for (const file of [...Object.keys(SWAGGER_UI_ASSETS), ...SWAGGER_UI_LICENCE_FILES])
  copyFileSync(join(source, file), join(target, file));
