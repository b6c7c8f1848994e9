// Lint runs with the tests (npm test). typescript-eslint's recommended rules, as the Pulumi Node SDK uses;
// formatting is Prettier's job, so no stylistic rules here.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", ".work/", ".pulumi-state/", ".emulator/", "bench/*.svg"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Unused arguments keep a documented signature (the dynamic-provider contract); mark them with _.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
);
