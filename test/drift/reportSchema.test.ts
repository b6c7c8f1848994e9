/**
 * The JSON report's reference page (docs/reference/drift-report.md) against the model it
 * documents (drift/review/model.ts): the schema names every property of every type of the model,
 * requires exactly the ones the model does, holds the same enumerations, and is closed where the
 * model is; a review built from the model with every kind of finding validates, and one missing a
 * required field or carrying an unknown property does not, named by the validator. Every other
 * test reads a JSON report through test/support/reviewJson.ts, which validates it the same way.
 */
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { render } from "../../drift/render";
import type { Review } from "../../drift/review/model";
import { REPO_ROOT } from "../support/engine";
import { parseReview, reportSchema, reviewErrors } from "../support/reviewJson";
import { everyClassReview, withFailedSources } from "./fixtures/review";

type Schema = Record<string, unknown> & {
  $ref?: string;
  anyOf?: Schema[];
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
};

const SCHEMA = reportSchema() as Schema;

/** `node` with its `$ref` followed into the schema's `$defs`. */
function resolved(node: Schema): Schema {
  return node.$ref ? resolved((SCHEMA.$defs as Record<string, Schema>)[node.$ref.replace("#/$defs/", "")]!) : node;
}

const isNull = (node: Schema) => resolved(node).type === "null";
const allowsNull = (node: Schema) =>
  [resolved(node).type].flat().includes("null") || (resolved(node).anyOf ?? []).some(isNull);
/** The branch of a nullable `anyOf` that is not null, else the node itself. */
const nonNullBranch = (node: Schema): Schema => {
  const branches = (resolved(node).anyOf ?? []).filter((b) => !isNull(b));
  return branches.length === 1 ? resolved(branches[0]!) : resolved(node);
};

/** Every difference between the model's type `type` (at `path`) and the schema's `node`. */
function differences(checker: ts.TypeChecker, type: ts.Type, node: Schema | undefined, path: string): string[] {
  if (!node) return [`${path}: in the model, not in the schema`];
  const parts = type.isUnion() ? type.types : [type];
  const present = parts.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  const nullable = parts.some((t) => t.flags & ts.TypeFlags.Null);
  const out = nullable === allowsNull(node) ? [] : [`${path}: null is ${nullable ? "" : "not "}allowed by the model`];
  const n = nonNullBranch(node);
  const literal = (t: ts.Type) => t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral);
  const primitive = (t: ts.Type) =>
    t.flags & ts.TypeFlags.StringLike
      ? "string"
      : t.flags & ts.TypeFlags.NumberLike
        ? "number"
        : t.flags & ts.TypeFlags.BooleanLike
          ? "boolean"
          : undefined;
  const sorted = (values: readonly unknown[]) => [...values].map(String).sort();

  if (present.every(literal)) {
    const model = present.map((t) => (t as ts.LiteralType).value);
    const schema = n.enum ?? ("const" in n ? [n.const] : []);
    return [
      ...out,
      ...(sorted(model).join() === sorted(schema).join()
        ? []
        : [`${path}: values ${sorted(model)} in the model, ${sorted(schema)} in the schema`]),
    ];
  }
  if (present.every(primitive)) {
    const model = new Set(present.map(primitive));
    const schema = new Set(
      [n.type]
        .flat()
        .filter((t) => t && t !== "null")
        .map((t) => (t === "integer" ? "number" : t)),
    );
    return [
      ...out,
      ...(sorted([...model]).join() === sorted([...schema]).join()
        ? []
        : [`${path}: ${[...model]} in the model, ${[...schema]} in the schema`]),
    ];
  }
  const [only] = present;
  if (present.length === 1 && checker.isArrayType(only!)) {
    const [item] = checker.getTypeArguments(only as ts.TypeReference);
    return [
      ...out,
      ...(n.type === "array"
        ? differences(checker, item!, n.items, `${path}[]`)
        : [`${path}: not an array in the schema`]),
    ];
  }
  if (present.length === 1 && only!.flags & ts.TypeFlags.Object) {
    const props = checker.getPropertiesOfType(only!);
    const required = props.filter((p) => !(p.flags & ts.SymbolFlags.Optional)).map((p) => p.name);
    const inSchema = Object.keys(n.properties ?? {});
    return [
      ...out,
      ...inSchema
        .filter((name) => !props.some((p) => p.name === name))
        .map((name) => `${path}.${name}: in the schema, not in the model`),
      ...(sorted(required).join() === sorted(n.required ?? []).join()
        ? []
        : [`${path}: requires ${sorted(required)} in the model, ${sorted(n.required ?? [])} in the schema`]),
      ...(n.additionalProperties === false ? [] : [`${path}: not closed in the schema`]),
      ...props.flatMap((p) =>
        differences(checker, checker.getTypeOfSymbol(p), n.properties?.[p.name], `${path}.${p.name}`),
      ),
    ];
  }
  return [...out, `${path}: a type this check does not know (${checker.typeToString(type)})`];
}

/** The model's `Review`, as the compiler sees it. */
function modelReview(): { checker: ts.TypeChecker; type: ts.Type } {
  const file = join(REPO_ROOT, "drift", "review", "model.ts");
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  const review = checker.getExportsOfModule(module).find((s) => s.name === "Review")!;
  return { checker, type: checker.getDeclaredTypeOfSymbol(review) };
}

/** `review` as JSON text with the value at `path` set to `value`, or removed when `value` is undefined. */
function edited(review: Review, path: readonly (string | number)[], value?: unknown): string {
  type Node = Record<string | number, unknown>;
  const json = JSON.parse(JSON.stringify(review)) as Node;
  const parent = path.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, json);
  const last = path.at(-1)!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return JSON.stringify(json);
}

describe("docs/reference/drift-report.md", () => {
  it("holds one JSON Schema (draft 2020-12) that matches drift/review/model.ts property by property", () => {
    expect(SCHEMA.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const { checker, type } = modelReview();
    expect(differences(checker, type, SCHEMA, "review")).toEqual([]);
  }, 60_000);

  it("validates a review with every kind of finding, every optional part and failed sources, as render writes it", () => {
    for (const review of [everyClassReview(), withFailedSources(everyClassReview())]) {
      expect(reviewErrors(review)).toEqual([]);
      expect(parseReview(render(review, "json"))).toEqual(review);
    }
  });

  it("refuses a report missing a required field, naming it", () => {
    const review = everyClassReview();
    expect(() => parseReview(edited(review, ["findings", 0, "fingerprint"]))).toThrow(
      "/findings/0 must have required property 'fingerprint'",
    );
    expect(() => parseReview(edited(review, ["sources", 1, "compared"]))).toThrow(
      "/sources/1 must have required property 'compared'",
    );
  });

  it("refuses an unknown property, naming it: a version 2 remnant, a misspelt field", () => {
    const review = everyClassReview();
    expect(() => parseReview(edited(review, ["stacks"], []))).toThrow("/ must NOT have additional properties (stacks)");
    expect(() => parseReview(edited(review, ["sources", 0, "comparison"], "state"))).toThrow(
      "/sources/0 must NOT have additional properties (comparison)",
    );
  });

  it("refuses a value on a secret field, and a version other than 3", () => {
    const review = everyClassReview();
    const leaky = edited(review, ["findings", 0, "fields", 1], { field: "signature", secret: true, live: "sig" });
    expect(() => parseReview(leaky)).toThrow("/findings/0/fields/1");
    expect(() => parseReview(edited(review, ["version"], 2))).toThrow("/version must be equal to constant");
  });
});
