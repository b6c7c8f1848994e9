/**
 * The public home: every address derives from package.json's `repository` (product.md), and
 * WEBHOOKS_PLUGIN_DOWNLOAD_URL overrides the download address at build time.
 */
import { afterEach, describe, expect, it } from "vitest";
import { packageSchema, PLUGIN_DOWNLOAD_URL_VARIABLE, publicHome } from "../../scripts/packageSchema";

describe("publicHome", () => {
  afterEach(() => {
    delete process.env[PLUGIN_DOWNLOAD_URL_VARIABLE];
  });

  it("derives the Go module, the Maven coordinates and the plugin's download address from package.json's repository", () => {
    expect(publicHome()).toEqual({
      slug: "webhook-subscriptions/pulumi-webhook-subscriptions",
      goModule: "github.com/webhook-subscriptions/pulumi-webhook-subscriptions/sdk/go",
      pluginDownloadURL: "github://api.github.com/webhook-subscriptions/pulumi-webhook-subscriptions",
      mavenGroup: "io.github.webhook-subscriptions",
      javaBasePackage: "io.github.webhooksubscriptions",
    });
    const schema = packageSchema();
    expect(schema.pluginDownloadURL).toBe(publicHome().pluginDownloadURL);
    expect(schema.language.go).toMatchObject({ importBasePath: `${publicHome().goModule}/webhooks` });
  }, 180_000); // the schema reads the declarations with the TypeScript compiler

  it("takes any GitHub form of the repository URL", () => {
    for (const url of ["https://github.com/o/n", "git+https://github.com/o/n.git"])
      expect(publicHome({ name: "p", repository: { url } }).slug, url).toBe("o/n");
  });

  it("refuses a repository that is not on GitHub, naming it", () => {
    expect(() => publicHome({ name: "p", repository: { url: "https://gitlab.com/o/n.git" } })).toThrow(
      'package.json: repository "https://gitlab.com/o/n" is not a GitHub repository',
    );
    expect(() => publicHome({ name: "p" })).toThrow("package.json has no `repository`");
  });

  it("WEBHOOKS_PLUGIN_DOWNLOAD_URL overrides the schema's download address", () => {
    process.env[PLUGIN_DOWNLOAD_URL_VARIABLE] = "https://releases.example.com/webhooks";
    expect(packageSchema().pluginDownloadURL).toBe("https://releases.example.com/webhooks");
  }, 180_000);
});
