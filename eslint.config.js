import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The floors of docs/architecture.md ("Floors"): routes → web → services →
 * models/payments → lib. A file may import its own floor and the floors below,
 * never one above. Each folder gets one `no-restricted-imports` entry whose
 * message names the floor; both import forms are matched: `~/services/…` and
 * relative `../services/…`. Type-only imports count too (they are imports a
 * reader follows). tests/unit/architecture-lint.test.ts proves every rule.
 */
const FLOOR_NAMES = {
  "app/lib/shared": "app/lib/shared is the ground floor the browser shares",
  "app/lib/server": "app/lib/server is the server's ground floor",
  "app/models": "app/models sit below the services",
  "app/payments": "app/payments sit below the services",
  "app/services": "app/services sit below the web layer and the routes",
  "app/components": "app/components are presentational and shared by client and server",
  "app/web": "app/web sits below the routes",
};

/**
 * The folders each floor may not import (an app/ folder name, or "*.server" for
 * server-only modules: everything in app/lib/server is one, a unit test keeps it so).
 */
const FORBIDDEN = {
  "app/lib/shared": ["web", "services", "models", "payments", "routes", "components", "*.server"],
  "app/lib/server": ["web", "services", "models", "payments", "routes", "components"],
  "app/models": ["services", "web", "routes", "payments", "components"],
  "app/payments": ["services", "web", "routes", "components"],
  "app/services": ["routes", "web", "components"],
  "app/components": ["routes", "*.server"],
  "app/web": ["routes", "components"],
};

function floorRule(floor) {
  const patterns = FORBIDDEN[floor].map((target) =>
    target === "*.server"
      ? {
          regex: "\\.server(\\.[jt]sx?)?$",
          message: `${FLOOR_NAMES[floor]}: it may not import a *.server module, only what app/lib/shared shares with the browser (see docs/architecture.md, Floors)`,
        }
      : {
          // ~/services/x, ../services/x, ../../services/x (and the folder itself)
          regex: `^(~/|(\\.\\./)+)${target}(/|$)`,
          message: `${FLOOR_NAMES[floor]}: it may not import app/${target} (see docs/architecture.md, Floors)`,
        },
  );
  return {
    files: [`${floor}/**/*.{ts,tsx}`],
    rules: { "no-restricted-imports": ["error", { patterns }] },
  };
}

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "build-*/**",
      ".cache/**",
      ".data/**",
      ".data-*/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js}"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    settings: { react: { version: "18.3" } },
    plugins: { react, "react-hooks": reactHooks },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "react/prop-types": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  ...Object.keys(FORBIDDEN).map(floorRule),
  prettier,
);
