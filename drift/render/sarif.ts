/**
 * The review as SARIF 2.1.0 (`--format sarif`, `--report *.sarif`), the file GitHub code scanning
 * uploads. Code scanning keeps an alert open across runs only when its result keeps its rule, its
 * file and its fingerprint, so: one rule per finding class (the class name is the rule id, never
 * renamed), every result located in a file of the repository (the declaring file, else the
 * source's `Pulumi.yaml` or first `.tf`), and the finding's own fingerprint as
 * `partialFingerprints`, which stays the same when the file's lines move.
 */
import {
  CLASS_TITLES,
  FINDING_CLASSES,
  isAdvisory,
  type Finding,
  type FindingClass,
  type Review,
} from "../review/model";
import { sourcesHash } from "./sourcesHash";

/**
 * The repository's home (package.json `repository.url`), named here once so that the renderer
 * reads no file at run time; test/drift/sarif.test.ts holds it equal to package.json.
 */
export const REPOSITORY_URL = "https://github.com/webhook-subscriptions/pulumi-webhook-subscriptions";

/** The schema the output declares: the OASIS 2.1.0 schema (errata 01) it is validated against. */
export const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** The `partialFingerprints` key; a new version of the fingerprint gets a new key, so old alerts close cleanly. */
export const FINGERPRINT_KEY = "webhookSubscriptionFinding/v1";

/**
 * `error` for what breaks delivery or will break on the next apply: a deleted subscription sends
 * nothing; a co-owned one is overwritten by whichever tool applies last; a policy finding breaks
 * a rule the team set on purpose. `warning` for the rest, which a person may accept: a value
 * changed out of band (the next apply or a refresh settles it), an unmanaged subscription (perhaps
 * made by hand on purpose), a pending create (the stack's recovery commands finish it).
 */
export const SARIF_LEVEL: Readonly<Record<FindingClass, "error" | "warning">> = {
  "differs-from-state": "warning",
  "differs-from-program": "warning",
  "differs-from-configuration": "warning",
  deleted: "error",
  unmanaged: "warning",
  "co-owned": "error",
  "pending-create": "warning",
  policy: "error",
};

/** A finding's level: its class's, but a broken advisory rule is only a warning, as it is no drift. */
export function findingLevel(finding: Finding): "error" | "warning" {
  return isAdvisory(finding) ? "warning" : SARIF_LEVEL[finding.class];
}

/** Rendering options: what the review itself does not know. */
export interface SarifOptions {
  /** This package's version, as `tool.driver.version`; left out when not given. */
  readonly version?: string;
  /**
   * `--sarif-category`: the run's `automationDetails.id`, `{sources}` standing for the sources'
   * hash; none by default, so that upload-sarif's own `category` applies (it yields to an id).
   */
  readonly category?: string;
}

/** The category as code scanning keeps it: `{sources}` filled in, ending with `/` (no run id after it). */
export function sarifCategoryId(category: string, review: Pick<Review, "sources">): string {
  const id = category.replaceAll("{sources}", sourcesHash(review));
  return id.endsWith("/") ? id : `${id}/`;
}

/** `differs from the state` → `DiffersFromTheState`: SARIF's friendly rule name is one PascalCase word. */
function ruleName(cls: FindingClass): string {
  return CLASS_TITLES[cls].replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, _sep, c: string) => c.toUpperCase());
}

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
function uriOf(file: string): string {
  return file.split("/").map(encodeURIComponent).join("/");
}

function rule(cls: FindingClass) {
  return {
    id: cls,
    name: ruleName(cls),
    shortDescription: { text: CLASS_TITLES[cls] },
    defaultConfiguration: { level: SARIF_LEVEL[cls] },
    properties: { tags: ["drift", "webhook-subscriptions"] },
  };
}

function result(finding: Finding) {
  const { file, line } = finding.location;
  const owners = finding.owners ?? (finding.owner ? [finding.owner] : []);
  return {
    ruleId: finding.class,
    ruleIndex: FINDING_CLASSES.indexOf(finding.class),
    level: findingLevel(finding),
    message: { text: finding.advice ? `${finding.message} ${finding.advice}` : finding.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: uriOf(file), uriBaseId: "%SRCROOT%" },
          ...(line !== undefined && { region: { startLine: line } }),
        },
        ...(owners.length > 0 && {
          logicalLocations: owners.map((o) => ({ fullyQualifiedName: o.address, kind: "resource" })),
        }),
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
    ...(finding.baseline && { baselineState: finding.baseline === "new" ? "new" : "unchanged" }),
    properties: {
      guid: finding.guid,
      baseUrl: finding.baseUrl,
      owners: owners.map((o) => ({ source: o.source.kind, name: o.source.name, address: o.address })),
      // A secret field carries its name alone, never a value, whatever the model holds.
      fields: finding.fields.map((f) => (f.secret ? { field: f.field, secret: true } : f)),
    },
  };
}

/** What kept a source from being reviewed, as the run's tool notifications. */
function notifications(review: Review) {
  return review.sources.flatMap((s) =>
    s.status === "reviewed"
      ? []
      : [
          {
            level: "error",
            message: { text: `${s.source.kind} ${s.source.name}: ${s.error?.message ?? s.reason ?? s.status}` },
            locations: [
              { physicalLocation: { artifactLocation: { uri: uriOf(s.source.file), uriBaseId: "%SRCROOT%" } } },
            ],
          },
        ],
  );
}

/** The review as a SARIF 2.1.0 log: one run, one rule per finding class, one result per finding. */
export function renderSarif(review: Review, options: SarifOptions = {}): string {
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "webhook-subscriptions",
            informationUri: REPOSITORY_URL,
            ...(options.version && { version: options.version, semanticVersion: options.version }),
            rules: FINDING_CLASSES.map(rule),
          },
        },
        invocations: [
          {
            executionSuccessful: review.status !== "error",
            endTimeUtc: review.generatedAt,
            toolExecutionNotifications: notifications(review),
          },
        ],
        results: review.findings.map(result),
        ...(options.category !== undefined && {
          automationDetails: { id: sarifCategoryId(options.category, review) },
        }),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
