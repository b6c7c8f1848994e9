/**
 * The markdown report (drift/render/markdown.ts), one layout for every mix of sources, read from
 * version 3 reviews: the verdict first, the sources with what each really compared, a row per
 * field of each finding, the advice once each, the recovery commands, the policy, the adoption
 * snippets folded, the ignore entries, the notes and the footer; cut to fit one GitHub comment.
 */
import { describe, expect, it } from "vitest";
import { render } from "../../drift/render";
import { IN_SYNC_ROWS, MAX_COMMENT_CHARS, renderMarkdown } from "../../drift/render/markdown";
import { describeLive } from "../../drift/review/liveSubscription";
import type {
  Adoption,
  Finding,
  FindingClass,
  ManagedSubscription,
  Review,
  SourceRef,
  SourceReport,
} from "../../drift/review/model";
import { parseReview } from "../support/reviewJson";
import { buildReview } from "./fixtures/review";
import { MANUAL_WITH_HEADER } from "./fixtures/live";

const BASE_URL = "https://tenant.example.com";
const PROD: SourceRef = { kind: "pulumi-stack", name: "prod", file: "app/Pulumi.yaml" };
const HOOKS: SourceRef = { kind: "terraform-directory", name: "infra/hooks", file: "infra/hooks/main.tf" };
const urn = (name: string) => `urn:pulumi:prod::app::webhooks:index:WebhookSubscription::${name}`;
const guid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const ORDERS = "f328bd91-c386-4faa-b5f8-b076d17651cb";
const TYPES = "c6d838ee-cc6c-403f-ae4d-e1b0d7066622";
const STATE_ADVICE =
  "`pulumi up --refresh --stack prod` puts the declared values back; `pulumi refresh --stack prod` accepts the live ones (then change the program to match).";

/** A finding of `cls` about the stack's resource `name`, declared at `line` of app/index.ts. */
function finding(
  cls: FindingClass,
  name: string,
  id: string | null,
  line: number,
  extra: Partial<Finding> = {},
): Finding {
  return {
    class: cls,
    guid: id,
    owner: { source: PROD, address: urn(name) },
    baseUrl: BASE_URL,
    fields: [],
    message: `${name}: ${cls}.`,
    location: { file: "app/index.ts", line },
    fingerprint: `${cls}:${name}`,
    ...extra,
  };
}

/** The stack's subscription `name`, with the fingerprints of `findings`. */
const managed = (name: string, id: string, ...findings: Finding[]): ManagedSubscription => ({
  address: urn(name),
  name,
  guid: id,
  location: { file: "app/index.ts", line: 1 },
  findings: findings.map((f) => f.fingerprint),
});

/** The stack `prod`, reviewed with its state and program. */
const stack = (subscriptions: readonly ManagedSubscription[], extra: Partial<SourceReport> = {}): SourceReport => ({
  source: PROD,
  status: "reviewed",
  compared: ["state", "program"],
  backend: "s3://state-bucket",
  instances: [{ baseUrl: BASE_URL, apiVersion: "3", provider: null }],
  subscriptions,
  ...extra,
});

/** An unmanaged subscription, `MANUAL_WITH_HEADER` unless said, adopted as `adoption` says. */
function unmanaged(adoption?: Omit<Adoption, "into"> & { into?: SourceRef }, id = MANUAL_WITH_HEADER.guid): Finding {
  return {
    class: "unmanaged",
    guid: id,
    owner: null,
    baseUrl: BASE_URL,
    fields: [],
    message: `${id} is claimed by no source.`,
    location: { file: PROD.file },
    fingerprint: `unmanaged:${id}`,
    subscription: describeLive({ ...MANUAL_WITH_HEADER, guid: id }, BASE_URL),
    ...(adoption ? { adoption: { into: PROD, ...adoption } } : {}),
  };
}

const changed = finding("differs-from-state", "orders", ORDERS, 17, {
  fields: [
    { field: "subscriberUrl", secret: false, recorded: "https://a.example.com/x", live: "https://b.example.com/x|y" },
    { field: "webhook", secret: false, recorded: 0, live: 1 },
    { field: "customHeaderValue", secret: true },
  ],
  advice: STATE_ADVICE,
});
const deleted = finding("deleted", "types", TYPES, 30, { advice: "`pulumi up --stack prod` creates it again." });
const typescript = {
  kind: "typescript",
  provider: null,
  snippet: 'new WebhookSubscription("x", { adoptGuid: "…" });',
} as const;

/** The lines of `text` that are table rows starting with `| <start>`. */
const rowsOf = (text: string, start: string) => text.split("\n").filter((l) => l.startsWith(`| ${start}`));

describe("renderMarkdown", () => {
  it("starts with the verdict and the counts, then the sources, then a row per field, the drift first", () => {
    const review = buildReview(
      [stack([managed("orders", ORDERS, changed), managed("sub-0001", guid(1)), managed("types", TYPES, deleted)])],
      [changed, deleted, unmanaged(typescript)],
    );
    const lines = renderMarkdown(review).split("\n");
    expect(lines.slice(0, 7)).toEqual([
      "## Drift review",
      "",
      "**Drift** across 1 source: 1 differs from the state, 1 deleted out of band, 1 unmanaged; 1 of 3 managed subscriptions in sync on https://tenant.example.com.",
      "",
      "| Source | Name | Compared with | Status |",
      "| --- | --- | --- | --- |",
      "| Pulumi stack | `prod` | state and program | reviewed: 3 subscriptions on `https://tenant.example.com` (api-version 3); state in s3://state-bucket |",
    ]);
    const table = lines.indexOf("### Subscriptions");
    expect(lines.slice(table + 2, table + 10)).toEqual([
      "| Finding | Subscription | GUID | Field | Declared | In state | Live |",
      "|---|---|---|---|---|---|---|",
      "| differs from the state | `orders`<br>`app/index.ts:17` | `f328bd91-c386-4faa-b5f8-b076d17651cb` | `subscriberUrl` |  | `https://a.example.com/x` | `https://b.example.com/x\\|y` |",
      "| differs from the state | `orders`<br>`app/index.ts:17` | `f328bd91-c386-4faa-b5f8-b076d17651cb` | `webhook` |  | `0 (PacketCreated)` | `1 (PacketUpdated)` |",
      "| differs from the state | `orders`<br>`app/index.ts:17` | `f328bd91-c386-4faa-b5f8-b076d17651cb` | `customHeaderValue` |  | (secret) | **secret differs** |",
      "| deleted out of band | `types`<br>`app/index.ts:30` | `c6d838ee-cc6c-403f-ae4d-e1b0d7066622` |  |  | exists | **gone** |",
      "| unmanaged |  | `3f2a9c1d-0000-4000-8000-000000000001` |  |  | not in state | webhook `4 (SpecificBusinessObjectUpdated)`, filterObjectType `6`, subscriberUrl `https://manual.example.org/hook`, customHeader `X-Token` (value set, not shown) |",
      "| in sync | `sub-0001` | `00000000-0000-4000-8000-000000000001` |  |  |  |  |",
    ]);
    const text = lines.join("\n");
    expect(text).toContain("<details><summary>Adopt 1 unmanaged subscription</summary>");
    expect(text).not.toMatch(/sig-secret|header-secret/);
  });

  it("a subscription that differs from the program: what `pulumi up` would do, the declared and live values, a secret by name", () => {
    const update = finding("differs-from-program", "orders", ORDERS, 17, {
      step: "update",
      fields: [
        { field: "subscriberUrl", secret: false, declared: "https://a.example.com/x", live: "https://b.example.com/x" },
        { field: "customHeaderValue", secret: true },
      ],
    });
    const create = finding("differs-from-program", "new-one", null, 40, { step: "create" });
    const review = buildReview(
      [stack([managed("orders", ORDERS, update), managed("sub-0001", guid(1))])],
      [create, update],
    );
    const text = renderMarkdown(review);
    expect(text.split("\n")[2]).toBe(
      "**Drift** across 1 source: 2 differ from the program; 1 of 2 managed subscriptions in sync on https://tenant.example.com.",
    );
    expect(rowsOf(text, "differs from the program")).toEqual([
      "| differs from the program: `pulumi up` would create | `new-one`<br>`app/index.ts:40` |  |  | declared |  | **not live** |",
      `| differs from the program: \`pulumi up\` would update | \`orders\`<br>\`app/index.ts:17\` | \`${ORDERS}\` | \`subscriberUrl\` | \`https://a.example.com/x\` |  | \`https://b.example.com/x\` |`,
      `| differs from the program: \`pulumi up\` would update | \`orders\`<br>\`app/index.ts:17\` | \`${ORDERS}\` | \`customHeaderValue\` | (secret) |  | **secret differs** |`,
    ]);
  });

  it("says which comparison each source made: a state-only one names --state-only and what it cannot see", () => {
    const stateFile: SourceReport = {
      source: { kind: "terraform-state", name: "saved.tfstate", file: "saved.tfstate" },
      status: "reviewed",
      compared: ["state"],
      instances: [],
      subscriptions: [],
    };
    const text = renderMarkdown(
      buildReview([stack([managed("sub-0001", guid(1))], { compared: ["state"] }), stateFile], []),
    );
    expect(text).toContain("| Pulumi stack | `prod` | state | reviewed:");
    expect(text).toContain("| Terraform state | `saved.tfstate` | state | reviewed: 0 subscriptions |");
    // A state file holds nothing else to compare with: only the stack is said to be state-only.
    expect(text).toContain(
      "Compared with the state only (`--state-only`): Pulumi stack `prod`. A refresh copies the live values into the state",
    );
    expect(text).toContain("without `--state-only` the review compares with the program or configuration too.");
  });

  it("says so when there is no drift, and how many findings were ignored", () => {
    const verdict = (review: Review) => renderMarkdown(review).split("\n")[2];
    expect(verdict(buildReview([stack([managed("a", guid(1)), managed("b", guid(2))])], []))).toBe(
      "**No drift** across 1 source. All 2 managed subscriptions are in sync, and no unmanaged subscription was found on https://tenant.example.com.",
    );
    expect(verdict(buildReview([stack([managed("a", guid(1))])], []))).toContain("The managed subscription is in sync");
    const ignored = buildReview([stack([])], [], {
      ignored: { suppressed: [{ match: "https://legacy.example.com/", fingerprints: ["x"] }], expired: [], stale: [] },
    });
    expect(verdict(ignored)).toBe(
      "**No drift** across 1 source. No source claims a subscription, and no unmanaged subscription was found on https://tenant.example.com; 1 finding ignored.",
    );
  });

  it("says plainly when drift cannot be determined, with the subscriptions unknown, never in sync", () => {
    const legacy = stack([managed("sub-0001", guid(1))], {
      status: "undetermined",
      compared: [],
      reason: "It uses the legacy API.",
    });
    const text = renderMarkdown(buildReview([legacy], []));
    expect(text.split("\n")[2]).toBe("**Drift cannot be determined** for Pulumi stack `prod`: It uses the legacy API.");
    expect(rowsOf(text, "unknown")).toEqual([
      "| unknown | `sub-0001` | `00000000-0000-4000-8000-000000000001` |  |  |  |  |",
    ]);
    expect(rowsOf(text, "in sync")).toEqual([]);
  });

  it("prints each distinct advice once, with the classes and subscriptions it is for", () => {
    const other = finding("differs-from-state", "types", TYPES, 30, {
      fields: [{ field: "filterObjectType", secret: false, recorded: 1, live: 2 }],
      advice: STATE_ADVICE,
    });
    const text = renderMarkdown(buildReview([stack([])], [changed, other, deleted]));
    expect(text).toContain(
      [
        "### What to do",
        "",
        `- **differs from the state** (\`orders\`, \`types\`): ${STATE_ADVICE}`,
        "- **deleted out of band** (`types`): `pulumi up --stack prod` creates it again.",
      ].join("\n"),
    );
    expect(text.split(STATE_ADVICE)).toHaveLength(2);
  });

  it("names each finding's source when there are several, a Terraform field in its own words, and every owner of a co-owned one", () => {
    const module = "module.team.webhooks_subscription.packets";
    const configuration: Finding = {
      class: "differs-from-configuration",
      guid: guid(7),
      owner: { source: HOOKS, address: module },
      baseUrl: BASE_URL,
      fields: [
        {
          field: "subscriber_url",
          secret: false,
          declared: "https://a.example",
          recorded: "https://b.example",
          live: "https://b.example",
        },
      ],
      message: "The configuration declares another URL.",
      location: { file: "infra/hooks/modules/team/main.tf", line: 7 },
      fingerprint: "configuration",
    };
    const coOwned: Finding = {
      ...finding("co-owned", "shared", guid(8), 44),
      owners: [
        { source: PROD, address: urn("shared") },
        { source: HOOKS, address: "webhooks_subscription.shared" },
      ],
    };
    const hooks: SourceReport = {
      source: HOOKS,
      status: "reviewed",
      compared: ["state", "configuration"],
      instances: [{ baseUrl: BASE_URL, apiVersion: "3" }],
      subscriptions: [],
    };
    const text = renderMarkdown(buildReview([stack([]), hooks], [changed, configuration, coOwned]));
    expect(rowsOf(text, "differs from the configuration")).toEqual([
      `| differs from the configuration | \`infra/hooks\` \`${module}\`<br>\`infra/hooks/modules/team/main.tf:7\` | \`${guid(7)}\` | \`subscriber_url\` | \`https://a.example\` | \`https://b.example\` | \`https://b.example\` |`,
    ]);
    expect(rowsOf(text, "differs from the state")[0]).toContain("| `prod` `orders`<br>`app/index.ts:17` |");
    expect(rowsOf(text, "co-owned")).toEqual([
      `| co-owned | \`prod\` \`shared\`<br>\`infra/hooks\` \`webhooks_subscription.shared\`<br>\`app/index.ts:44\` | \`${guid(8)}\` |  |  |  |  |`,
    ]);
  });

  it("prints a killed run's recovery commands, in order, with the orphans it left", () => {
    const recovery = ["pulumi refresh --stack prod --clear-pending-creates --yes", "pulumi up --stack prod --yes"];
    const pending = finding("pending-create", "late-hook", guid(9), 52, {
      subscription: describeLive({ ...MANUAL_WITH_HEADER, guid: guid(9) }, BASE_URL),
    });
    const text = renderMarkdown(buildReview([stack([], { recovery })], [pending]));
    expect(text).toContain(
      [
        "**A killed `pulumi up` left pending creates in the state of Pulumi stack `prod`**, and 1 subscription it created but never recorded. " +
          "Finish it with these commands, in order, in the program's directory: clear the pending creates, let each resource take over its own orphan, and only those, create the rest (docs/recovery.md):",
        "",
        "```sh",
        ...recovery,
        "```",
      ].join("\n"),
    );
    expect(rowsOf(text, "pending create")[0]).toContain(
      "| pending create | webhook `4 (SpecificBusinessObjectUpdated)`",
    );
  });

  it("prints the policy's rules and each violation in its own table, not among the drift", () => {
    const violation = (id: string, owner: Finding["owner"]): Finding => ({
      class: "policy",
      guid: id,
      owner,
      baseUrl: BASE_URL,
      fields: [{ field: "subscriberUrl", secret: false, live: "http://plain.example/hook" }],
      message: "https-only (mandatory): use https.",
      location: { file: PROD.file },
      fingerprint: `policy:${id}`,
      rule: { name: "https-only", enforcementLevel: "mandatory" },
    });
    const policy = {
      file: "policy.json",
      rules: [
        { name: "https-only", enforcementLevel: "mandatory" },
        { name: "no-localhost", enforcementLevel: "advisory" },
      ],
    } as const;
    const claimed = violation(ORDERS, { source: PROD, address: urn("orders") });
    const text = renderMarkdown(
      buildReview(
        [stack([managed("orders", ORDERS, claimed)])],
        [claimed, violation(guid(3), { source: PROD, address: BASE_URL })],
        { policy },
      ),
    );
    expect(text).toContain(
      [
        "**Policy `policy.json`:** 2 mandatory violations (the review exits 2), 0 advisory. The rules on: `https-only` (mandatory), `no-localhost` (advisory).",
        "",
        "| Level | Rule | GUID | Subscription | Field | What to change |",
        "|---|---|---|---|---|---|",
        `| mandatory | \`https-only\` | \`${ORDERS}\` | \`orders\` | subscriberUrl: live http://plain.example/hook | https-only (mandatory): use https. |`,
        `| mandatory | \`https-only\` | \`${guid(3)}\` | *claimed by no source* | subscriberUrl: live http://plain.example/hook | https-only (mandatory): use https. |`,
      ].join("\n"),
    );
    expect(rowsOf(text, "policy")).toEqual([]);
    expect(renderMarkdown(buildReview([stack([])], [], { policy }))).toContain(
      "**Policy `policy.json`:** every live subscription follows the 2 rules that are on.",
    );
  });

  it("folds the adoption snippets by kind: TypeScript with the imports it needs, pulumi import, Terraform import blocks", () => {
    const secret = 'new WebhookSubscription("y", { customHeaderValue: pulumi.secret(config.require("k")) });';
    const findings = [
      unmanaged(typescript, guid(11)),
      unmanaged({ kind: "typescript", provider: "eu", snippet: secret }, guid(12)),
      unmanaged(
        {
          kind: "pulumi-import",
          provider: null,
          snippet: "pulumi import webhooks:index:WebhookSubscription z 1 --stack prod",
        },
        guid(13),
      ),
      unmanaged(
        {
          kind: "terraform-import",
          into: HOOKS,
          provider: null,
          snippet: 'import {\n  to = webhooks_subscription.z\n  id = "2"\n}',
        },
        guid(14),
      ),
    ];
    const text = renderMarkdown(buildReview([stack([])], findings));
    const details = text.slice(text.indexOf("<details>"), text.indexOf("</details>"));
    expect(details).toContain("<summary>Adopt 4 unmanaged subscriptions</summary>");
    expect(details).toContain(
      [
        "Into the program of Pulumi stack `prod`:",
        "",
        "```ts",
        'import * as pulumi from "@pulumi/pulumi";',
        'import { WebhookSubscription, Webhook } from "pulumi-webhook-subscriptions";',
        "// `{ provider: … }` names the Provider of that instance, as declared in your program.",
        "",
        typescript.snippet,
        "",
        secret,
        "```",
      ].join("\n"),
    );
    expect(details).toContain("```sh\npulumi import webhooks:index:WebhookSubscription z 1 --stack prod\n```");
    expect(details).toContain("Into Terraform directory `infra/hooks`: add these `import` blocks");
    expect(details).toContain('```hcl\nimport {\n  to = webhooks_subscription.z\n  id = "2"\n}\n```');
    // No command this release lacks: `adopt` comes with issue 65.
    expect(details).not.toContain("webhook-subscriptions adopt");
    // `pulumi` is imported only when a statement uses it.
    expect(renderMarkdown(buildReview([stack([])], [unmanaged(typescript)]))).not.toContain("@pulumi/pulumi");
  });

  it("lists the ignore file's expired and stale entries", () => {
    const text = renderMarkdown(
      buildReview([stack([])], [], {
        ignored: {
          suppressed: [],
          expired: [{ match: "https://old.example/", reason: "migration", owner: "team-a", expires: "2026-01-31" }],
          stale: [{ match: guid(5), reason: "gone", owner: "team-b" }],
        },
      }),
    );
    expect(text).toContain(
      [
        "### Ignored",
        "",
        "- expired on 2026-01-31: `https://old.example/` (migration, owner team-a) suppresses nothing now",
        `- stale: \`${guid(5)}\` (gone, owner team-b) matched nothing; remove it or fix its match`,
      ].join("\n"),
    );
  });

  it("marks what is new since the baseline", () => {
    const review = buildReview(
      [stack([])],
      [
        { ...changed, baseline: "new" },
        { ...deleted, baseline: "known" },
      ],
      {
        baseline: { file: "previous.json", new: 1, known: 1 },
      },
    );
    const text = renderMarkdown(review);
    expect(text.split("\n")[2]).toContain("(1 new since `previous.json`)");
    expect(rowsOf(text, "differs from the state **new** |")).toHaveLength(3);
    expect(rowsOf(text, "deleted out of band |")).toHaveLength(1);
  });

  it("says what it could not see before the footer, and keeps a message's `<` from opening a tag", () => {
    const notes = ["only what this account sees", 'subscription x cannot be read: Webhook "Nope" <bad>'];
    const lines = renderMarkdown(buildReview([stack([])], [], { notes }))
      .trimEnd()
      .split("\n");
    expect(lines.slice(-5, -2)).toEqual([
      "> **Note:** Only what this account sees",
      "",
      '> **Note:** Subscription x cannot be read: Webhook "Nope" &lt;bad>',
    ]);
  });

  it("ends with how long it took and the command that runs it again, as the caller gives it", () => {
    const review = buildReview([stack([])], []);
    const footer = (rerun?: string) =>
      renderMarkdown(review, rerun ? { rerun } : {})
        .trimEnd()
        .split("\n")
        .at(-1);
    expect(footer()).toBe("<sub>reviewed in 4.3s</sub>");
    // Printed as given, runnable: a `|` in a quoted word is not escaped outside a table.
    const rerun = "webhook-subscriptions drift --stack prod --ignore 'https://legacy.example.com/?a|b'";
    expect(footer(rerun)).toBe(`<sub>reviewed in 4.3s · \`${rerun}\`</sub>`);
    expect(footer("WEBHOOKS_STACK=qa npm start -- --drift")).toBe(
      "<sub>reviewed in 4.3s · `WEBHOOKS_STACK=qa npm start -- --drift`</sub>",
    );
  });

  it("folds many subscriptions in sync into one row", () => {
    const many = Array.from({ length: IN_SYNC_ROWS + 5 }, (_, i) => managed(`sub-${i}`, guid(i)));
    const text = renderMarkdown(buildReview([stack(many)], []));
    expect(rowsOf(text, "in sync")).toEqual([`| in sync | ${IN_SYNC_ROWS + 5} subscriptions |  |  |  |  |  |`]);
  });

  it("fits thousands of subscriptions into one comment, drift first", () => {
    const many = Array.from({ length: 3000 }, (_, i) => managed(`sub-${String(i).padStart(4, "0")}`, guid(i)));
    const text = renderMarkdown(
      buildReview([stack([...many, managed("orders", ORDERS, changed)])], [changed, unmanaged(typescript)]),
    );
    expect(text.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(text).toContain("| in sync | 3000 subscriptions |");
    expect(text).toContain("| `customHeaderValue` |  | (secret) | **secret differs** |");
    expect(text).toContain("<details>");
  });

  it("folds to the limit it is given: a platform with room for more keeps every row", () => {
    const gone = Array.from({ length: 800 }, (_, i) => finding("deleted", `gone-${i}`, guid(i), i + 1));
    const review = buildReview([stack([])], gone);
    const github = renderMarkdown(review);
    expect(github.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(github).toMatch(/\| … \| \d+ more rows \|/);
    const gitlab = renderMarkdown(review, { maxChars: 1_000_000 });
    expect(gitlab).not.toMatch(/more rows/);
    expect(rowsOf(gitlab, "deleted")).toHaveLength(800);
  });

  it("drops the snippets, then cuts rows, naming the command that prints it all when the caller gives one", () => {
    const gone = Array.from({ length: 3000 }, (_, i) => finding("deleted", `gone-${i}`, guid(i), i + 1));
    const review = buildReview([stack([])], [...gone, unmanaged(typescript)]);
    const fullReport = "webhook-subscriptions drift --stack prod --format json";
    const text = renderMarkdown(review, { fullReport });
    expect(text.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(text).toMatch(/\| … \| \d+ more rows \|/);
    expect(text).toContain(`*The report is too long for one comment: run \`${fullReport}\` for all of it.*`);
    expect(text).not.toContain("<details>");
    // Without one (npm start's review offers no JSON), no command is named for the rest.
    const bare = renderMarkdown(review);
    expect(bare).toContain("*The report is too long for one comment.*");
    expect(bare).not.toContain("drift --");
  });

  it("is what render prints for md, and the JSON beside it holds to the reference page's schema", () => {
    const review = buildReview([stack([managed("orders", ORDERS, changed)])], [changed, unmanaged(typescript)]);
    expect(render(review, "md", { rerun: "x" })).toBe(renderMarkdown(review, { rerun: "x" }));
    expect(parseReview(render(review, "json"))).toEqual(review);
  });
});

/**
 * The report faults issue 64 found, each as it happened. The old renderer printed, for the same
 * situations: `| Terraform directory | \`infra/hooks\` | state | **error:** … |`; in the stack's
 * section, "Subscriptions of Terraform directory `infra/hooks` count as managed."; and for a stack
 * that failed, "Compared the live subscriptions with the stack's state and with its program".
 */
describe("renderMarkdown says only what happened", () => {
  const failedDirectory: SourceReport = {
    source: HOOKS,
    status: "error",
    compared: [],
    instances: [],
    subscriptions: [],
    error: {
      code: "NOT_INITIALISED",
      message: "infra/hooks is not an initialised working directory: run `tofu init` there.",
    },
  };

  it("a failed Terraform source reads 'not reviewed', never 'compared with: state'", () => {
    const text = renderMarkdown(buildReview([stack([managed("orders", ORDERS)]), failedDirectory], []));
    expect(rowsOf(text, "Terraform directory")).toEqual([
      "| Terraform directory | `infra/hooks` | not reviewed | **failed** (see above) |",
    ]);
    // Its error, once: in the verdict.
    expect(text.split("not an initialised working directory").length).toBe(2);
  });

  it("nothing says a failed directory's subscriptions count as managed; the verdict names its failure first", () => {
    const text = renderMarkdown(buildReview([stack([managed("orders", ORDERS)]), failedDirectory], [unmanaged()]));
    expect(text).not.toMatch(/count as managed/);
    expect(text.split("\n")[2]).toBe(
      "**The review failed** for Terraform directory `infra/hooks`: infra/hooks is not an initialised working directory: run `tofu init` there. Found all the same: 1 unmanaged.",
    );
  });

  it("a stack whose review failed is not said to have been compared with its state or program", () => {
    const failed = stack([], {
      status: "error",
      compared: [],
      instances: [],
      error: { code: "UNAUTHORIZED", message: "401: the token was refused." },
    });
    const text = renderMarkdown(buildReview([failed], []));
    expect(text.split("\n")[2]).toBe("**The review failed** for Pulumi stack `prod`: 401: the token was refused.");
    expect(text).not.toMatch(/Compared the live subscriptions|state and program|in sync/);
    expect(rowsOf(text, "Pulumi stack")).toEqual(["| Pulumi stack | `prod` | not reviewed | **failed** (see above) |"]);
    expect(text).not.toContain("### Subscriptions");
  });
});

describe("a state file's claims", () => {
  it("are compared with nothing, so none reads 'in sync': the table says 'claimed', the sources 'its claims only'", () => {
    const stateFile = {
      source: { kind: "terraform-state" as const, name: "other.tfstate", file: "other.tfstate" },
      status: "reviewed" as const,
      compared: [],
      instances: [],
      subscriptions: [
        {
          address: "webhooks_subscription.a",
          name: "webhooks_subscription.a",
          guid: "aa000000-0000-4000-8000-000000000001",
          location: { file: "other.tfstate" },
          findings: [],
        },
      ],
    };
    const text = renderMarkdown(buildReview([stateFile], []));
    expect(text).toContain("| Terraform state | `other.tfstate` | nothing: its claims only |");
    expect(text).toMatch(/^\| claimed \| `webhooks_subscription\.a` \|/m);
    expect(text).not.toMatch(/in sync/);
  });
});
