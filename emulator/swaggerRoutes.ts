/**
 * The interactive API description, where ASP.NET services serve it: the OpenAPI document of each
 * version at `/swagger/<version>/swagger.json`, and Swagger UI (swagger-ui-dist's files, served
 * from the package itself, never a CDN: swaggerAssets.ts) at `/swagger`, with a version selector. On loopback the
 * page is authorized with the dev Builder token, so "Try it out" works at once. Without
 * JavaScript the page still lists the documents as plain links.
 */
import type { FastifyInstance } from "fastify";
import { BUILDER_TOKEN } from "./auth";
import type { EmulatorContext } from "./context";
import { documentedVersions, openApiDocument, SECURITY_SCHEME } from "./openapi";
import { errorOutcome, sendOutcome } from "./outcome";
import { readSwaggerAsset, SWAGGER_UI_ASSETS } from "./swaggerAssets";
import { DEFAULT_API_VERSION, type ApiVersion } from "../provider/wire";

/** Where the page is. */
export const SWAGGER_PATH = "/swagger";

/** Where the document of `version` is. */
export function documentPath(version: string): string {
  return `${SWAGGER_PATH}/${version}/swagger.json`;
}

const ASSET_PATH = `${SWAGGER_PATH}/ui`;

/** Escapes text for HTML (versions are fixed strings, but the page should not depend on that). */
function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page: Swagger UI over every document, and the plain links for readers without JavaScript. */
function page(versions: readonly ApiVersion[], devTokens: boolean): string {
  const primary = versions.includes(DEFAULT_API_VERSION) ? DEFAULT_API_VERSION : versions[0];
  const urls = versions.map((version) => ({ url: documentPath(version), name: version }));
  const links = versions.map((v) => `<li><a href="${html(documentPath(v))}">${html(documentPath(v))}</a></li>`);
  // Swagger UI reads its configuration from this object; the dev token is pre-filled only where it works.
  const config = JSON.stringify({ urls, primary, scheme: SECURITY_SCHEME, token: devTokens ? BUILDER_TOKEN : null });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Webhook subscription API</title>
<link rel="stylesheet" href="${ASSET_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${ASSET_PATH}/favicon-32x32.png">
</head>
<body>
<noscript>
<h1>Webhook subscription API</h1>
<p>This page needs JavaScript. The OpenAPI documents, one per API version:</p>
<ul>
${links.join("\n")}
</ul>
</noscript>
<div id="swagger-ui"></div>
<script src="${ASSET_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSET_PATH}/swagger-ui-standalone-preset.js"></script>
<script>
const config = ${config.replace(/</g, "\\u003c")};
window.ui = SwaggerUIBundle({
  urls: config.urls,
  "urls.primaryName": config.primary,
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
  onComplete: () => {
    if (config.token) window.ui.preauthorizeApiKey(config.scheme, config.token);
  },
});
</script>
</body>
</html>
`;
}

/** Registers the page, its assets and the documents of the versions this emulator serves. */
export function registerSwaggerRoutes(app: FastifyInstance, context: EmulatorContext): void {
  const versions = documentedVersions(context.options.legacyOnly);
  // Built once: they depend only on the start options.
  const documents = new Map<string, string>(
    versions.map((version) => [version, JSON.stringify(openApiDocument(version, context.dialect), null, 2)]),
  );
  const body = page(versions, context.options.devTokens);

  app.get(SWAGGER_PATH, (_request, reply) => reply.type("text/html; charset=utf-8").send(body));
  app.get(`${SWAGGER_PATH}/:version/swagger.json`, (request, reply) => {
    const { version } = request.params as { version: string };
    const document = documents.get(version);
    if (document !== undefined) return reply.type("application/json; charset=utf-8").send(document);
    const known = versions.map((v) => documentPath(v)).join(", ");
    return sendOutcome(reply, errorOutcome(404, `No API version "${version}": the documents are ${known}.`));
  });
  app.get(`${ASSET_PATH}/:file`, async (request, reply) => {
    const { file } = request.params as { file: string };
    const type = Object.hasOwn(SWAGGER_UI_ASSETS, file) ? SWAGGER_UI_ASSETS[file] : undefined;
    if (type === undefined) return sendOutcome(reply, errorOutcome(404, `No such file: ${ASSET_PATH}/${file}`));
    return reply.type(type).send(await readSwaggerAsset(file));
  });
}
