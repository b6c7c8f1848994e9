/**
 * Copies the Swagger UI files the emulator's page loads, with swagger-ui-dist's licence, from the
 * swagger-ui-dist development dependency into `dist/emulator/swagger-ui/`, so the package serves
 * the page without depending on swagger-ui-dist (whose @scarf/scarf dependency reports installs):
 * emulator/swaggerAssets.ts says why. Part of every build (scripts/build.ts), so of `npm ci`, a
 * git install and every pack.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { SWAGGER_UI_FILES, VENDORED_DIR } from "../emulator/swaggerAssets";

/** Copies the page's files into `<root>/dist/emulator/swagger-ui/`. */
export function vendorSwaggerUi(root: string): void {
  const source = path.dirname(require.resolve("swagger-ui-dist/package.json", { paths: [root, __dirname] }));
  const target = path.join(root, "dist", "emulator", VENDORED_DIR);
  mkdirSync(target, { recursive: true });
  for (const file of SWAGGER_UI_FILES) copyFileSync(path.join(source, file), path.join(target, file));
}
