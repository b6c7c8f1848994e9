/**
 * The Terraform door's own wording, where the shared description (the package schema's, written
 * for Pulumi) says something false or meaningless in Terraform and OpenTofu: stack config, the
 * `provider` option, `pulumi up`, Pulumi's secret state. Each entry replaces one door-specific
 * part of one description and keeps the door-neutral rest, so each fact keeps one source.
 * test/terraform/descriptions.test.ts checks that no Pulumi-only word is left.
 */

/** One door-specific part of a shared description (`from`, after whitespace is collapsed) and Terraform's words for it. */
interface Rewrite {
  readonly from: string;
  readonly to: string;
}

/** Why a sensitive value is no secret in Terraform's state (it is only masked on screen). */
const SENSITIVE_IN_STATE = "Sensitive: masked in plan and output, but stored in clear in the state.";

/**
 * Terraform's wording, by block (`provider`, the resource or data source type) and, after a dot,
 * attribute; a data source's own description under `data:` and its type (its attributes are the resource's).
 */
const TERRAFORM_WORDING: Readonly<Record<string, readonly Rewrite[]>> = {
  provider: [
    {
      from: "Without a `provider` option, resources use the default provider (stack config `webhooks:*` / `WEBHOOKS_*` environment variables).",
      to: "Every argument falls back to its `WEBHOOKS_*` environment variable. A second instance is a second provider block with an `alias`, chosen by a resource's `provider` meta-argument.",
    },
    {
      // A TypeScript program: the provider page shows examples/terraform instead.
      from: ' ```ts const prod = new Provider("prod", { base_url: "https://prod.example.com", token_from_env: "PROD_WEBHOOKS_TOKEN" }); new WebhookSubscription("orders", { ... }, { provider: prod }); ```',
      to: "",
    },
  ],
  "provider.token": [
    {
      from: "Always stored as a secret (ciphertext in state). Or use `token_from_env`, or OAuth.",
      to: "Sensitive: masked in output; Terraform keeps no provider argument in state. Or use OAuth.",
    },
  ],
  "provider.client_secret": [
    {
      from: "Always stored as a secret. Or use `client_secret_from_env`.",
      to: "Sensitive: masked in output; Terraform keeps no provider argument in state.",
    },
  ],
  "provider.adopt_identical": [
    { from: "recovers a killed `up`", to: "recovers a killed `terraform apply`" },
    { from: "another stack's", to: "another configuration's" },
  ],
  webhooks_subscription: [
    {
      from: "Connection settings come from the `provider` option (a `Provider`), or else from stack config `webhooks:*` / `WEBHOOKS_*` environment variables,",
      to: "Connection settings come from the provider block (a resource's `provider` meta-argument picks an aliased one), or else from the `WEBHOOKS_*` environment variables,",
    },
  ],
  "webhooks_subscription.webhook": [
    {
      from: 'a `Webhook` member, its name (`"PacketCreated"`) or its integer (0..5).',
      to: 'its name, e.g. `"PacketCreated"`.',
    },
  ],
  "webhooks_subscription.custom_header": [
    {
      from: 'spaces become hyphens (`"X Api Key"` → `"X-Api-Key"`).',
      to: 'write it as the service saves it, with hyphens for spaces (`"X-Api-Key"`): validation refuses a name with spaces.',
    },
  ],
  "webhooks_subscription.custom_header_value": [
    {
      from: "Always stored as a secret.",
      to: `${SENSITIVE_IN_STATE} To keep it out of state, use custom_header_value_wo instead.`,
    },
  ],
  "webhooks_subscription.custom_header_value_wo": [{ from: " Always stored as a secret.", to: "" }],
  "webhooks_subscription.adopt_guid": [
    {
      from: "Works with both front doors; `pulumi import` works with the native provider only (it cannot for dynamic providers). `npx webhook-subscriptions drift` lists unmanaged subscriptions with ready-made snippets.",
      to: "`terraform import` (or an `import` block) with the GUID does the same and is the usual way in Terraform.",
    },
  ],
  "webhooks_subscription.rotation": [
    { from: "a stack-config value", to: "a variable's value" },
    {
      from: "a new one (with a new Signature) is created first, then the old one deleted. Rotate a leaked Signature by changing it; receivers must accept both signatures during the overlap.",
      to: "a new one has a new Signature. Rotate a leaked Signature by changing it. Terraform deletes the old one first unless the resource sets `lifecycle { create_before_destroy = true }`; with it, the new one is created first and receivers must accept both signatures during the overlap.",
    },
    {
      from: "(`pulumi up --replace` skips this: the replacement adopts the identical subscription and keeps its Signature, so rotate with this label.)",
      to: "With `adopt_identical` set, `terraform apply -replace` under create_before_destroy can take over the identical old subscription and keeps its Signature: rotate with this label.",
    },
  ],
  "webhooks_subscription.signature": [
    { from: "; secret.", to: ". Sensitive: masked in output, stored in clear in the state." },
  ],
  "webhooks_subscription.base_url": [
    {
      from: "When the settings or the `provider` point elsewhere, the next `up` moves it there (docs/multi-instance.md).",
      to: "When the provider block's settings point elsewhere, the next apply moves it there.",
    },
  ],
  "data:webhooks_subscription": [
    {
      from: "(on the default provider's instance, or `opts.provider`'s), never adopted, changed or deleted by this stack.",
      to: "(on its provider block's instance), never adopted, changed or deleted by this configuration.",
    },
  ],
  "data:webhooks_subscriptions": [
    {
      from: "A plain async call, made when the program runs (also at preview); it manages nothing and stores nothing in state. Signatures and custom header values are left out: use `WebhookSubscription.get` for a secret output.",
      to: "Read at plan and refresh; it manages nothing. Signatures and custom header values are left out: the `webhooks_subscription` data source reads them for one subscription.",
    },
  ],
};

/** The Pulumi registry's example section (its programs are Pulumi's); the Terraform pages show examples/terraform. */
const PULUMI_EXAMPLES = "{{% examples %}}";

/**
 * A shared description in Terraform's words: the Pulumi examples cut, and each door-specific part
 * of `key` (see TERRAFORM_WORDING) replaced. Throws when a part is no longer in the shared text,
 * so an edit there cannot silently bring Pulumi's wording back.
 */
export function inTerraformWords(key: string, shared: string): string {
  const prose = shared.split(PULUMI_EXAMPLES)[0]!.trim();
  const rewrites = TERRAFORM_WORDING[key] ?? [];
  if (rewrites.length === 0) return prose;
  let text = prose.replace(/\s+/g, " ");
  for (const { from, to } of rewrites) {
    if (!text.includes(from))
      throw new Error(
        `terraform schema: the description of ${key} no longer says ${JSON.stringify(from)}; update provider/terraform/descriptions.ts`,
      );
    text = text.replace(from, to);
  }
  return text;
}
