import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "lib/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A forgotten await loses errors and ordering: in a job runner that means lost work.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { attributes: false } },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Pure domain code: runs in workers, CLIs, tests and benchmarks, never inside Next or Prisma.
    files: ["lib/engine/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "react", "react-dom"],
              message: "lib/engine stays framework-free.",
            },
            {
              group: ["@/lib/db", "@/lib/db/*", "@/lib/generated/*", "@prisma/*", "pg", "pg-boss"],
              message: "lib/engine never touches the database.",
            },
            {
              group: ["@/lib/jobs", "@/lib/jobs/*", "@/app/*"],
              message: "Dependencies point one way: app → lib/db, lib/jobs → lib/engine.",
            },
          ],
        },
      ],
    },
  },
);
