/**
 * The Pulumi YAML target. A YAML program cannot include a file, so the subscriptions go into the
 * file the YAML language host reads the program from: the one it finds first, as pulumi-yaml's
 * `LoadDir` probes, of Main.json, Main.yaml and Pulumi.yaml in the program's directory (the
 * project's `main:`, else the project's own directory; the project file is Pulumi.json,
 * Pulumi.yaml or Pulumi.yml, in the CLI's order). Each subscription is a resource under
 * `resources:`, with the `import` option and its live values; a custom header value is read from a
 * key declared `{ type: string, secret: true }` under `config:`, whose value adopt sets encrypted.
 *
 * The resource's key is its Pulumi name, the kebab form (`orders-example-com-business-object-created`):
 * the name every other target gives the same subscription, the one the drift review's `pulumi
 * import` command and the handover's `pulumi state delete` name, so a stack's URNs do not depend
 * on the language it is written in. pulumi-yaml reads such a key in references as well
 * (`${orders-example-com-business-object-created.guid}`: a name runs up to `.`, `[` or `}`).
 *
 * The file is a team's reviewed code, so it changes only where the block is added: parseDocument
 * finds the places, and the new text is spliced in there. The file is never re-dumped, because a
 * Document's `toString()` keeps comments but renders everything else again (spacing after `:`, the
 * indentation of sequences, blank lines). The result is parsed again and must mean exactly the old
 * program plus the adopted resources and their config keys, or nothing is written.
 */
import { posix } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { isMap, isScalar, parseDocument, type Node, type Pair, type YAMLMap } from "yaml";
import { NATIVE_WEBHOOK_SUBSCRIPTION_TYPE } from "../../../provider/model";
import { WriteError, type Adopted, type Writer } from "../writer";
import { secretKeyOf } from "./program";

/** The project file's names, in the order the Pulumi CLI looks for them. */
const PROJECT_FILES = ["Pulumi.json", "Pulumi.yaml", "Pulumi.yml"] as const;
/** Where the YAML language host reads the program from in its directory, in the order it looks. */
const PROGRAM_FILES = ["Main.json", "Main.yaml", "Pulumi.yaml"] as const;

/** The one line above the added resources. */
const RESOURCES_COMMENT =
  "# Adopted by `webhook-subscriptions adopt`: `pulumi up` imports them as they are (options.import).";
/** The one line above the added config keys. */
const CONFIG_COMMENT =
  "# Custom header values of adopted subscriptions: secret stack config (pulumi config set --secret <key>).";

/** The declaration of a config key holding a custom header value. */
const SECRET_STRING = { type: "string", secret: true } as const;

/**
 * Adds the adopted subscriptions to the YAML program. Throws a WriteError when the program cannot
 * be found or parsed, or when a name is already taken (a resource, unless `force`, which replaces
 * it where it is; a variable or config key, always), or a subscription is already being imported.
 */
export const yamlWriter: Writer = ({ adopted, existing, force }) => {
  const path = programFile(existing);
  const text = existing(path) ?? "";
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw new WriteError(`${path} is not valid YAML (${doc.errors[0]!.message}): fix it, then run adopt again`);
  const root = doc.contents;
  if (root !== null && !(isMap(root) && !root.flow))
    throw new WriteError(`${path} holds no YAML program: its top level is not a block mapping`);
  const top = root as YAMLMap | null;

  const source = new Source(text, top);
  const resources = section(top, "resources");
  const config = section(top, "config");
  // pulumi-yaml holds config keys, resources and variables in one namespace.
  const owners = new Map<string, string>();
  for (const name of ["configuration", "variables", "config", "resources"])
    for (const key of keysOf(top, name)) owners.set(key, name);

  const subscriptions = [...adopted].sort((a, b) => compare(a.name.kebab, b.name.kebab));
  checkUnique(subscriptions);
  const taken: string[] = [];
  const conflicts: string[] = [];
  const importedElsewhere: string[] = [];
  const replaced: { pair: Pair; lines: (indent: string) => string[] }[] = [];
  const added: Adopted[] = [];
  const declared: string[] = [];
  const redeclared: Pair[] = [];

  for (const a of subscriptions) {
    const key = a.name.kebab;
    const guid = a.subscription.guid.toLowerCase();
    const importer = [...resources.pairs].find(([other, pair]) => other !== key && importOf(pair) === guid);
    if (importer) importedElsewhere.push(`${a.subscription.guid} (as ${importer[0]})`);
    const present = resources.pairs.get(key);
    if (present !== undefined) {
      if (force) replaced.push({ pair: present, lines: (indent) => resourceLines(a, indent, source.unit) });
      else conflicts.push(`resource ${key}`);
    } else if (owners.has(key)) taken.push(`${key} (under ${owners.get(key)}:)`);
    else added.push(a);

    const secretKey = secretKeyOf(a);
    if (secretKey === undefined) continue;
    const declaration = config.pairs.get(secretKey);
    if (declaration !== undefined) {
      if (isSecretString(declaration)) continue;
      if (force) redeclared.push(declaration);
      else conflicts.push(`config key ${secretKey}, declared other than { type: string, secret: true }`);
    } else if (owners.has(secretKey)) taken.push(`${secretKey} (under ${owners.get(secretKey)}:)`);
    else declared.push(secretKey);
  }
  const s = (list: readonly string[]) => (list.length === 1 ? "" : "s");
  if (taken.length > 0)
    throw new WriteError(
      `${path} already uses the name${s(taken)} ${taken.join(", ")} for something other than an adopted subscription: ` +
        "give the subscription another name with --names",
    );
  if (importedElsewhere.length > 0)
    throw new WriteError(
      `${path} already imports ${importedElsewhere.join(", ")}: run \`pulumi up\` to finish that adoption, ` +
        "or remove that resource first",
    );
  if (conflicts.length > 0)
    throw new WriteError(
      `${path} already declares ${conflicts.join(", ")}: run adopt with --force to replace ${conflicts.length === 1 ? "it" : "them"}, ` +
        "or give the subscription another name with --names",
    );

  if (replaced.length > 0) writable(path, "resources", resources);
  if (redeclared.length > 0) writable(path, "config", config);
  const edits: Edit[] = [
    ...replaced.map(({ pair, lines }) => source.replaceEntry(pair, lines)),
    ...redeclared.map((pair) =>
      source.replaceEntry(pair, (indent) => emit({ [keyOf(pair)!]: SECRET_STRING }, indent, source.unit)),
    ),
  ];
  const resourceBlock = (indent: string) => [
    `${indent}${RESOURCES_COMMENT}`,
    ...added.flatMap((a) => resourceLines(a, indent, source.unit)),
  ];
  const configBlock = (indent: string) => [
    `${indent}${CONFIG_COMMENT}`,
    ...declared.flatMap((key) => emit({ [key]: SECRET_STRING }, indent, source.unit)),
  ];
  // New sections at the end of the file, config before resources, as `pulumi new` orders them.
  const atEnd: string[] = [];
  if (declared.length > 0) {
    if (config.kind === "absent") {
      if (resources.kind === "absent") atEnd.push("config:", ...configBlock(source.unit));
      else edits.push(source.insertBefore(resources.pair, ["config:", ...configBlock(source.unit)]));
    } else edits.push(...source.appendTo(writable(path, "config", config), configBlock));
  }
  if (added.length > 0) {
    if (resources.kind === "absent") atEnd.push("resources:", ...resourceBlock(source.unit));
    else edits.push(...source.appendTo(writable(path, "resources", resources), resourceBlock));
  }
  if (atEnd.length > 0) edits.push(source.insertLines(text.length, atEnd));

  const content = source.apply(edits);
  verify(path, doc.toJS() as unknown, content, subscriptions);
  return { output: path, files: [{ path, content, edit: true }] };
};

/** The program file, relative to the target directory (`Pulumi.yaml`, `Main.yaml`, `infra/Main.yaml`). */
function programFile(existing: (path: string) => string | undefined): string {
  const project = PROJECT_FILES.find((file) => existing(file) !== undefined);
  if (project === undefined)
    throw new WriteError("the target directory has no Pulumi.yaml: adopt into an initialised Pulumi project");
  const parsed = parseDocument(existing(project) ?? "");
  if (parsed.errors.length > 0)
    throw new WriteError(`${project} is not valid YAML (${parsed.errors[0]!.message}): fix it, then run adopt again`);
  const main: unknown = (parsed.toJS() as { main?: unknown } | null)?.main;
  const dir = typeof main === "string" && main.trim() !== "" ? posix.normalize(main.trim()).replace(/\/+$/, "") : ".";
  for (const name of PROGRAM_FILES) {
    const file = dir === "." || dir === "" ? name : posix.join(dir, name);
    if (existing(file) === undefined) continue;
    if (name.endsWith(".json"))
      throw new WriteError(
        `${file} is a JSON program, which cannot hold the comment that says where the adopted subscriptions came from: ` +
          "convert it to Main.yaml, then run adopt again",
      );
    return file;
  }
  throw new WriteError(
    `${project} names no YAML program: the YAML language host reads ${PROGRAM_FILES.join(", ")} in ${dir === "." ? "the project directory" : dir}, and none is there`,
  );
}

/** One top-level section (`resources:`, `config:`) as it is in the file, and its entries by key. */
type Section = { readonly pairs: ReadonlyMap<string, Pair> } & (
  | { readonly kind: "absent" }
  /** `resources:` with nothing, `~`, `null` or `{}` after it: `value` is that text's node, if any. */
  | { readonly kind: "empty"; readonly pair: Pair; readonly value: Node | null }
  | { readonly kind: "block"; readonly pair: Pair; readonly map: YAMLMap }
  /** Flow style with entries, or not a mapping: this writer cannot add to it in place. */
  | { readonly kind: "other"; readonly pair: Pair; readonly what: string }
);

/** The section `name` of the program's top level. */
function section(top: YAMLMap | null, name: string): Section {
  const pair = top?.items.find((p) => keyOf(p) === name);
  if (pair === undefined) return { kind: "absent", pairs: new Map() };
  const value = pair.value as Node | null;
  const pairs = new Map<string, Pair>();
  if (isMap(value))
    for (const item of value.items) {
      const key = keyOf(item);
      if (key !== undefined) pairs.set(key, item);
    }
  if (value === null || (isScalar(value) && value.value === null) || (isMap(value) && value.items.length === 0))
    return { kind: "empty", pair, value, pairs };
  if (isMap(value) && !value.flow) return { kind: "block", pair, map: value, pairs };
  return { kind: "other", pair, what: isMap(value) ? "written in flow style ({ … })" : "not a mapping", pairs };
}

/** `section`, unless this writer cannot edit it in place. */
function writable(path: string, name: string, section: Section): Extract<Section, { kind: "empty" | "block" }> {
  if (section.kind === "empty" || section.kind === "block") return section;
  throw new WriteError(
    section.kind === "other"
      ? `${path}: \`${name}:\` is ${section.what}: write it as a block mapping (one key a line), then run adopt again`
      : `${path} has no \`${name}:\``,
  );
}

/** The keys of a top-level mapping, whatever its style (the names pulumi-yaml holds in one namespace). */
function keysOf(top: YAMLMap | null, name: string): string[] {
  const value = top?.items.find((p) => keyOf(p) === name)?.value;
  return isMap(value) ? value.items.map(keyOf).filter((k): k is string => k !== undefined) : [];
}

/** A pair's key as text, or undefined for a complex key. */
function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) && pair.key.value !== null ? String(pair.key.value) : undefined;
}

/** The GUID a resource's `options.import` names, if it has one. */
function importOf(pair: Pair): string | undefined {
  const options = isMap(pair.value) ? pair.value.get("options") : undefined;
  const id = isMap(options) ? options.get("import") : undefined;
  return typeof id === "string" ? id.toLowerCase() : undefined;
}

/** Whether a config declaration is `{ type: string, secret: true }` (other keys, such as a description, allowed). */
function isSecretString(pair: Pair): boolean {
  const value = isMap(pair.value) ? (pair.value.toJSON() as Record<string, unknown>) : undefined;
  return value?.type === SECRET_STRING.type && value.secret === true;
}

/** Two subscriptions under one key would be one resource: adopt's names are unique, a names file may not be. */
function checkUnique(subscriptions: readonly Adopted[]): void {
  const seen = new Map<string, string>();
  for (const { name, secretKey, subscription } of subscriptions)
    for (const key of [name.kebab, secretKey]) {
      if (key === undefined) continue;
      const first = seen.get(key);
      if (first !== undefined && first !== subscription.guid)
        throw new WriteError(
          `subscriptions ${first} and ${subscription.guid} would both be named ${key}: give one another name with --names`,
        );
      seen.set(key, subscription.guid);
    }
}

/** The resource a subscription becomes, as the YAML values it is written with. */
function resourceOf(a: Adopted): Record<string, unknown> {
  const live = a.subscription;
  const properties: Record<string, unknown> = {
    webhook: live.webhookName !== null ? literal(live.webhookName) : live.webhook,
    filterObjectType: live.filterObjectType,
  };
  if (live.filterObjectGuid !== null) properties.filterObjectGuid = literal(live.filterObjectGuid);
  properties.subscriberUrl = literal(live.subscriberUrl);
  if (live.customHeader !== "") properties.customHeader = literal(live.customHeader);
  if (a.secretKey !== undefined) properties.customHeaderValue = `\${${a.secretKey}}`;
  return { type: NATIVE_WEBHOOK_SUBSCRIPTION_TYPE, properties, options: { import: live.guid } };
}

/** The lines of a subscription's resource, its key at `indent`. */
function resourceLines(a: Adopted, indent: string, unit: string): string[] {
  return emit({ [a.name.kebab]: resourceOf(a) }, indent, unit);
}

/** A string as pulumi-yaml reads it literally: it interpolates every string value, and `$$` is its `$`. */
function literal(value: string): string {
  return value.replace(/\$/g, () => "$$");
}

/** Block YAML for nested mappings of strings, numbers and booleans. */
function emit(value: Readonly<Record<string, unknown>>, indent: string, unit: string): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === "object" && v !== null
      ? [`${indent}${scalar(key)}:`, ...emit(v as Record<string, unknown>, indent + unit, unit)]
      : [`${indent}${scalar(key)}: ${typeof v === "string" ? scalar(v) : String(v)}`],
  );
}

/**
 * A string as a YAML scalar: plain when both YAML 1.2 and 1.1 read it back as that same string,
 * else double-quoted (JSON's escapes are YAML's). The YAML host's parser (Go's yaml.v3) takes
 * some of each: 1.1's `0b…` and `1_000` integers, 1.2's `0o…`; neither may turn a header name or a
 * path into a number, a boolean or a date.
 */
function scalar(value: string): string {
  return readsAs(value, "1.2") && readsAs(value, "1.1") ? value : JSON.stringify(value);
}

function readsAs(value: string, version: "1.1" | "1.2"): boolean {
  const doc = parseDocument(value, { version });
  return doc.errors.length === 0 && doc.warnings.length === 0 && doc.toJS() === value;
}

/** A replacement of `[at, end)` of the original text. */
interface Edit {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/** The original text, and the edits of it by offset. */
class Source {
  readonly eol: string;
  /** The file's indentation step: its first nested mapping's, else two spaces. */
  readonly unit: string;

  constructor(
    readonly text: string,
    top: YAMLMap | null,
  ) {
    this.eol = text.includes("\r\n") ? "\r\n" : "\n";
    const nested = top?.items.find((pair) => isMap(pair.value) && !pair.value.flow && pair.value.items.length > 0);
    const step = nested
      ? this.column(rangeOf((nested.value as YAMLMap).items[0]!.key).at) - this.column(rangeOf(nested.key).at)
      : 0;
    this.unit = " ".repeat(step > 0 ? step : 2);
  }

  /** The column of an offset. */
  column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf("\n", offset - 1) + 1;
  }

  /** The end of the line (before its line break) that holds the last non-blank character before `offset`. */
  contentEnd(offset: number): number {
    let i = offset;
    while (i > 0 && /\s/.test(this.text[i - 1]!)) i--;
    const n = this.text.indexOf("\n", i);
    const end = n === -1 ? this.text.length : n;
    return this.text[end - 1] === "\r" ? end - 1 : end;
  }

  /** Just past the line break of that line (the end of the text when it has none). */
  afterLine(offset: number): number {
    const n = this.text.indexOf("\n", this.contentEnd(offset));
    return n === -1 ? this.text.length : n + 1;
  }

  /** `lines` as whole lines at `at`, the start of a line or the end of the text. */
  insertLines(at: number, lines: readonly string[]): Edit {
    const body = lines.join(this.eol) + this.eol;
    const needsBreak = at === this.text.length && at > 0 && !this.text.endsWith("\n");
    return { at, end: at, text: needsBreak ? this.eol + body : body };
  }

  /** `lines` before a top-level pair, and before the comment lines directly above it, which are its own. */
  insertBefore(pair: Pair, lines: readonly string[]): Edit {
    let at = this.lineStart(rangeOf(pair.key).at);
    while (at > 0) {
      const previous = this.lineStart(at - 1);
      if (!this.text.startsWith("#", previous)) break;
      at = previous;
    }
    return this.insertLines(at, lines);
  }

  /** An entry of a block mapping replaced where it is, indented as it was. */
  replaceEntry(pair: Pair, lines: (indent: string) => string[]): Edit {
    const { at } = rangeOf(pair.key);
    const end = this.contentEnd(rangeOf((pair.value as Node | null) ?? pair.key).end);
    const indent = " ".repeat(this.column(at));
    return { at, end, text: lines(indent).join(this.eol).slice(indent.length) };
  }

  /** `block` at the end of a section: after its last entry at that entry's indentation, or under its key. */
  appendTo(section: Extract<Section, { kind: "empty" | "block" }>, block: (indent: string) => string[]): Edit[] {
    if (section.kind === "block") {
      const last = section.map.items[section.map.items.length - 1]!;
      const indent = " ".repeat(this.column(rangeOf(section.map.items[0]!.key).at));
      return [this.insertLines(this.afterLine(rangeOf((last.value as Node | null) ?? last.key).end), block(indent))];
    }
    const edits: Edit[] = [];
    let keyLineEnd = rangeOf(section.pair.key).end;
    const value = section.value && rangeOf(section.value);
    if (value && value.end > value.at) {
      // `{}`, `~` or `null` goes, with the spaces before it; a comment after it stays on the key's line.
      let at = value.at;
      while (at > 0 && (this.text[at - 1] === " " || this.text[at - 1] === "\t")) at--;
      edits.push({ at, end: value.end, text: "" });
      keyLineEnd = value.end;
    }
    edits.push(this.insertLines(this.afterLine(keyLineEnd), block(this.unit)));
    return edits;
  }

  /** The text with `edits` made (they never overlap). */
  apply(edits: readonly Edit[]): string {
    let text = this.text;
    for (const { at, end, text: replacement } of [...edits].sort((a, b) => b.at - a.at || b.end - a.end))
      text = text.slice(0, at) + replacement + text.slice(end);
    return text;
  }
}

/** Where a parsed node's value is in the text. */
function rangeOf(node: unknown): { at: number; end: number } {
  const range = (node as Node).range;
  if (!range) throw new Error("a parsed YAML node without a range");
  return { at: range[0], end: range[1] };
}

/**
 * Checks that `content` means the old program plus the adopted resources and their config keys,
 * and nothing else: an edit that YAML reads otherwise than meant is never written.
 */
function verify(path: string, before: unknown, content: string, subscriptions: readonly Adopted[]): void {
  const after = parseDocument(content);
  const old = (before ?? {}) as Record<string, unknown>;
  const expected: Record<string, unknown> = { ...old };
  expected.resources = {
    ...(old.resources as object | null),
    ...Object.fromEntries(subscriptions.map((a) => [a.name.kebab, resourceOf(a)])),
  };
  const secretKeys = subscriptions.map((a) => a.secretKey).filter((k): k is string => k !== undefined);
  if (secretKeys.length > 0) {
    const config: Record<string, unknown> = { ...(old.config as object | null) };
    for (const key of secretKeys) {
      const kept = config[key] as { type?: unknown; secret?: unknown } | undefined;
      if (kept?.type !== SECRET_STRING.type || kept.secret !== true) config[key] = { ...SECRET_STRING };
    }
    expected.config = config;
  }
  if (after.errors.length > 0 || !isDeepStrictEqual(after.toJS(), expected))
    throw new WriteError(
      `adding the subscriptions to ${path} would change what else it says (${after.errors[0]?.message ?? "a value read otherwise"}): ` +
        "please report this, with the file",
    );
}

/** A stable order that does not depend on the locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
