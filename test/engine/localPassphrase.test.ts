import { expect, it } from "vitest";
import { LOCAL_PASSPHRASE, localPassphraseDefault } from "../../engine/automation";

it("the local passphrase is a default only when the environment names none, itself or by file", () => {
  expect(localPassphraseDefault({})).toEqual({ PULUMI_CONFIG_PASSPHRASE: LOCAL_PASSPHRASE });
  // A passphrase file wins: a default PULUMI_CONFIG_PASSPHRASE would be tried before it.
  expect(localPassphraseDefault({ PULUMI_CONFIG_PASSPHRASE_FILE: "/run/secrets/pulumi" })).toEqual({});
  // An empty passphrase is one the team chose.
  expect(localPassphraseDefault({ PULUMI_CONFIG_PASSPHRASE: "" })).toEqual({});
});
