/**
 * Reads, with the TypeScript compiler, what the declarations users read say — JSDoc and types
 * of `WebhookSubscriptionArgs`, the `WebhookSubscription` class, `Provider` and `ProviderArgs`,
 * `listWebhookSubscriptions` — so the plugins' schemas carry the same descriptions
 * (provider/description/describeResource.ts). Build tooling: typescript is a devDependency.
 */
import * as path from "node:path";
import ts from "typescript";
import type { DeclaredProperty, SchemaDeclarations } from "../provider/description/declarations";

const ROOT = path.resolve(__dirname, "..");
const RESOURCE_FILE = path.join(ROOT, "provider/dynamic/webhookSubscription.ts");
const PROVIDER_FILE = path.join(ROOT, "provider/dynamic/provider.ts");
const LIST_FILE = path.join(ROOT, "provider/dynamic/list.ts");

/** The declarations, read from this checkout's sources. */
export function readSchemaDeclarations(): SchemaDeclarations {
  const program = ts.createProgram([RESOURCE_FILE, PROVIDER_FILE, LIST_FILE], {
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const find = <T extends ts.Node>(file: string, match: (node: ts.Node) => node is T, name: string): T => {
    const source = program.getSourceFile(file);
    const found = source?.statements.find(
      (node): node is T & ts.Statement =>
        match(node) && (node as unknown as { name?: ts.Identifier }).name?.text === name,
    );
    if (!found) throw new Error(`schema declarations: ${name} not found in ${path.relative(ROOT, file)}`);
    return found;
  };
  const docOf = (node: ts.Node & { name?: ts.Node }): string => {
    const symbol = node.name && checker.getSymbolAtLocation(node.name);
    return symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() : "";
  };

  /** `pulumi.Input<T>` / `pulumi.Output<T>` → T; anything else as it is. */
  const unwrapped = (node: ts.TypeNode | undefined): ts.Type => {
    if (!node) throw new Error("schema declarations: a property without a declared type");
    const inner = ts.isTypeReferenceNode(node) && node.typeArguments?.length === 1 ? node.typeArguments[0]! : node;
    return checker.getTypeFromTypeNode(inner);
  };
  const property = (member: ts.PropertySignature | ts.PropertyDeclaration): DeclaredProperty => {
    const type = unwrapped(member.type);
    const parts = type.isUnion() ? type.types : [type];
    const has = (flags: ts.TypeFlags) => parts.some((part) => (part.flags & flags) !== 0);
    const kind = has(ts.TypeFlags.StringLike)
      ? "string"
      : has(ts.TypeFlags.NumberLike)
        ? "number"
        : has(ts.TypeFlags.BooleanLike)
          ? "boolean"
          : undefined;
    if (!kind) throw new Error(`schema declarations: ${member.name.getText()} has a type the schema cannot say`);
    return {
      description: docOf(member),
      type: kind,
      nullable: has(ts.TypeFlags.Null),
      optional: member.questionToken !== undefined,
    };
  };
  const interfaceProperties = (file: string, name: string) =>
    Object.fromEntries(
      find(file, ts.isInterfaceDeclaration, name)
        .members.filter(ts.isPropertySignature)
        .map((member) => [member.name.getText(), property(member)]),
    );

  const resource = find(RESOURCE_FILE, ts.isClassDeclaration, "WebhookSubscription");
  const outputs = resource.members.filter(
    (member): member is ts.PropertyDeclaration =>
      ts.isPropertyDeclaration(member) &&
      member.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword) === true,
  );
  const get = resource.members.find(
    (member): member is ts.MethodDeclaration => ts.isMethodDeclaration(member) && member.name.getText() === "get",
  );
  return {
    resource: docOf(resource),
    args: interfaceProperties(RESOURCE_FILE, "WebhookSubscriptionArgs"),
    outputs: Object.fromEntries(outputs.map((member) => [member.name.getText(), property(member)])),
    provider: docOf(find(PROVIDER_FILE, ts.isClassDeclaration, "Provider")),
    settings: interfaceProperties(PROVIDER_FILE, "ProviderArgs"),
    getFunction: get ? docOf(get) : "",
    listFunction: docOf(find(LIST_FILE, ts.isFunctionDeclaration, "listWebhookSubscriptions")),
  };
}
