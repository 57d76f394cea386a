import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

// A small set of rules, each catching a bug and none a matter of taste (prettier owns layout). The type-aware
// ones read types through the TypeScript project service: tsconfig.json covers src/, test/, testkit/, bench/ and
// vitest.config.ts; the plain JavaScript files outside it (this file, scripts/) get a default project.
export default defineConfig(
  {
    ignores: ["dist/", "dist-worker/", "test-results/", "bench/results/", "fixtures/", ".wrangler/", "node_modules/"],
  },
  {
    files: ["**/*.{ts,mts,js,mjs}"],
    plugins: { "@typescript-eslint": tseslint.plugin },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: { allowDefaultProject: ["eslint.config.js", "scripts/*.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise nobody awaits or catches: its rejection is unhandled, which ends a Node process.
      "@typescript-eslint/no-floating-promises": "error",
      // A promise where a plain value is expected: `if (promise)` is always true, a callback's rejection is lost.
      "@typescript-eslint/no-misused-promises": "error",
      // `await` on something that is not a promise: usually a missing call or a wrong type.
      "@typescript-eslint/await-thenable": "error",
      // `return promise` inside `try` skips the `catch` and the `finally` runs too early; `return await` does not.
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      // Dead code and forgotten imports; `_`-prefixed names are deliberately unused (a required parameter).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
        },
      ],
      // `any` switches the type checker off for everything it touches; `unknown` or a real type keeps it on.
      "@typescript-eslint/no-explicit-any": "error",
      // `==` coerces ("0" == 0, "" == false); `== null` (null or undefined) is the one idiom kept.
      eqeqeq: ["error", "always", { null: "ignore" }],
      // A `case` that runs into the next without a `// falls through` comment.
      "no-fallthrough": "error",
      // `return`/`throw` in `finally` silently replaces the exception or value of the `try`.
      "no-unsafe-finally": "error",
      // An async executor's throw never rejects the promise it builds.
      "no-async-promise-executor": "error",
      // A number literal a double cannot hold (u64 values, lamports, slots): the code runs with another number.
      "no-loss-of-precision": "error",
      // A comparison whose result is fixed, e.g. `a ?? b === c` or `x === []`: a precedence or identity mistake.
      "no-constant-binary-expression": "error",
    },
  },
);
