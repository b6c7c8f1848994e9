/**
 * `webhook-subscriptions adopt`'s command line (cli/adopt.ts): one table, parsed, checked, then
 * loaded; every bad input names the flag and the value, and nothing is read from an instance.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adoptCommand, parseAdoptArgs, readNamesFile, summary } from "../../cli/adopt";

const GUID = "3f2a9c1d-0000-4000-8000-000000000001";
const A_URL = "https://a.example.com/";
const program = () => {
  const dir = mkdtempSync(join(tmpdir(), "adopt-args-"));
  writeFileSync(join(dir, "Pulumi.yaml"), "name: p\nruntime: yaml\n");
  return dir;
};

describe("parseAdoptArgs", () => {
  it("takes drift's source flags and one target", () => {
    const dir = program();
    const args = parseAdoptArgs(
      ["--stack", "old", "--into-stack", "dev", "--match", "PacketCreated", "--verify"],
      {},
      dir,
    );
    expect(args).toMatchObject({
      stacks: ["old"],
      into: { kind: "stack", stack: "dev" },
      workDir: dir,
      match: ["PacketCreated"],
      layout: "each",
      verify: true,
      force: false,
      includeDuplicates: false,
    });
  });

  it("refuses a one-value flag given twice, rather than keep the last", () => {
    expect(() => parseAdoptArgs(["--into-stack", "dev", "--into-stack", "prod"], {}, program())).toThrow(
      /^--into-stack is given 2 times: give it once\.$/,
    );
    // A repeatable flag is not one.
    expect(() =>
      parseAdoptArgs(["--into-stack", "d", "--match", A_URL, "--match", A_URL], {}, program()),
    ).not.toThrow();
  });

  it("asks for exactly one target", () => {
    expect(() => parseAdoptArgs(["--stack", "a"], {}, program())).toThrow(/^Name the target: --into-stack <name>/);
    expect(() => parseAdoptArgs(["--into-stack", "a", "--into-terraform", "x"], {}, program())).toThrow(
      /^Give one target, not both/,
    );
  });

  it("refuses a target that is no program or no initialised directory, naming it", () => {
    const empty = mkdtempSync(join(tmpdir(), "adopt-args-"));
    expect(() => parseAdoptArgs(["--into-stack", "dev"], {}, empty)).toThrow(
      new RegExp(`^--into-stack dev: no Pulumi.yaml in ${empty}`),
    );
    // The flag and the value once, the flag the user typed.
    expect(() => parseAdoptArgs(["--into-terraform", "infra"], {}, empty)).toThrow(
      /^--into-terraform infra: no such directory\./,
    );
    expect(() => parseAdoptArgs(["--into-stack", "d", "--terraform-state", "gone.tfstate"], {}, program())).toThrow(
      /^--terraform-state gone\.tfstate: cannot read it \(ENOENT\)/,
    );
  });

  it("refuses a --match of no kind, a --layout of none, and for-each into a stack", () => {
    const dir = program();
    expect(() => parseAdoptArgs(["--into-stack", "d", "--match", "orders"], {}, dir)).toThrow(
      /^--match "orders" is not a GUID, a subscriber-URL prefix/,
    );
    expect(() => parseAdoptArgs(["--into-stack", "d", "--layout", "grid"], {}, dir)).toThrow(
      /^--layout must be one of each, for-each, got: "grid"/,
    );
    expect(() => parseAdoptArgs(["--into-stack", "d", "--layout", "for-each"], {}, dir)).toThrow(
      /^--layout for-each is for --into-terraform/,
    );
  });
});

describe("--names", () => {
  const file = (content: string) => {
    const path = join(mkdtempSync(join(tmpdir(), "adopt-names-")), "names.json");
    writeFileSync(path, content);
    return path;
  };

  it("maps each GUID (any case) to a name's words", () => {
    expect(readNamesFile(file(JSON.stringify({ [GUID.toUpperCase()]: "ordersCreated" })), "names.json")).toEqual(
      new Map([[GUID, ["orders", "created"]]]),
    );
  });

  it("refuses an invalid identifier, a key that is no GUID, a name given twice, and a file that is not JSON", () => {
    expect(() => readNamesFile(file(JSON.stringify({ [GUID]: "2fast" })), "names.json")).toThrow(
      `--names names.json: the name of ${GUID}, "2fast", is not a valid identifier`,
    );
    expect(() => readNamesFile(file(JSON.stringify({ [GUID]: "class" })), "names.json")).toThrow(
      /"class", is not a valid/,
    );
    expect(() => readNamesFile(file(JSON.stringify({ orders: "a" })), "names.json")).toThrow(
      '--names names.json: the key "orders" is not a subscription GUID.',
    );
    const twice = { [GUID]: "same", "3f2a9c1d-0000-4000-8000-000000000002": "same" };
    expect(() => readNamesFile(file(JSON.stringify(twice)), "names.json")).toThrow(/are both named "same"/);
    expect(() => readNamesFile(file("{"), "names.json")).toThrow(/^--names names.json: not JSON/);
    expect(() => readNamesFile("/nonexistent/names.json", "names.json")).toThrow("--names names.json: no such file.");
    // A folder is no file of names, and not "not JSON" either.
    expect(() => readNamesFile(tmpdir(), "names")).toThrow("--names names: cannot read it (EISDIR).");
  });
});

describe("adopt --help", () => {
  it("prints one usage made from the table", async () => {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (out.push(chunk), true)) as typeof process.stdout.write;
    try {
      expect(await adoptCommand.run(["--help"])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    for (const flag of [
      "--into-stack",
      "--into-terraform",
      "--match",
      "--names",
      "--layout",
      "--include-duplicates",
      "--verify",
      "--force",
      "--stack",
      "--terraform",
    ])
      expect(out.join("")).toContain(flag);
  });
});

describe("the summary", () => {
  it("names the header values' variable of the layout written", () => {
    const subscription = { guid: GUID, subscriberUrl: "https://a.example.com/x", hasCustomHeaderValue: true };
    const result = {
      dir: "/team/infra",
      baseUrl: "http://127.0.0.1:8080",
      adopted: [{ subscription, name: { kebab: "a-x", snake: "a_x", camel: "aX" } }],
      duplicates: [],
      files: ["adopted.tf"],
      output: "adopted.tf",
      secrets: 0,
      notes: [],
    } as unknown as Parameters<typeof summary>[0];
    const args = (layout: string) =>
      ({
        into: { kind: "terraform", dir: "infra" },
        layout,
        match: [],
        cwd: "/team",
        workDir: "/team",
      }) as unknown as Parameters<typeof summary>[1];
    expect(summary(result, args("each"))).toContain("(TF_VAR_<name>_header_value)");
    expect(summary(result, args("for-each"))).toContain("(TF_VAR_adopted_header_values, a map by key)");
  });
});
