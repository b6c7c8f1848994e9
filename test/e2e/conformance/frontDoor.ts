/**
 * What the conformance scenarios need from a front door: a project its users run with plain
 * `pulumi` commands, and a program declaring given subscriptions in its language. Everything
 * else — the commands, the stacks, the emulator, what is asserted — is the same for every door,
 * so a new front door is one more file in frontDoors/ and a test file that runs suite.ts on it.
 */
import { writeFileSync } from "node:fs";
import type { SharedBuilds } from "./builds";
import { webhookName } from "../../../provider/wire";

/** A subscription as a scenario declares it: the resource's inputs, in the names every front door shares. */
export interface Declared {
  /** The service's integer; the native doors write its name (eventName). */
  readonly webhook: number;
  readonly filterObjectType: number;
  readonly filterObjectGuid?: string;
  readonly subscriberUrl: string;
  readonly customHeader?: string;
  /** Declared as a secret in the program (`pulumi.secret`, `fn::secret`, …). */
  readonly customHeaderValue?: string;
  readonly adoptGuid?: string;
  readonly rotation?: string;
}

/** The event's name, as the native plugin's programs write it (its schema's `Webhook` is a string enum of the names). */
export function eventName(webhook: number): string {
  const name = webhookName(webhook);
  if (name === undefined) throw new Error(`a scenario declares webhook ${webhook}, which has no name`);
  return name;
}

/** One front door: how a user's project reaches the provider. */
export interface FrontDoor {
  /** Its name in test titles and the conformance table. */
  readonly name: string;
  /** The language hosts its programs need (binaries in the engine's bin directory). */
  readonly languageHosts: readonly string[];
  /** The subscription's type token in the state. */
  readonly type: string;
  /** The scenarios (by name) this door runs when not all of them; the door says why. */
  readonly scenarios?: readonly string[];
  /**
   * Makes the project every scenario's stacks belong to (once per run), in `root` (the door's
   * own folder) or elsewhere; what other doors use too (e.g. the plugin) comes from `builds`.
   * Returns the project directory.
   */
  prepare(root: string, builds: SharedBuilds): Promise<string>;
  /**
   * Writes the project's program: one subscription per entry, named by its key, and a stack
   * output `<key>Signature` holding its signature.
   */
  declare(project: string, subscriptions: Readonly<Record<string, Declared>>): void;
}

/** Writes a program of a language with statements: `header`, then each subscription's statements from `resource`. */
export function writeProgram(
  file: string,
  header: string,
  subscriptions: Readonly<Record<string, Declared>>,
  resource: (name: string, declared: Declared) => string,
): void {
  const resources = Object.entries(subscriptions).map(([name, declared]) => resource(name, declared));
  writeFileSync(file, [header, ...resources].join("\n"));
}
