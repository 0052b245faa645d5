import { readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The floors of docs/architecture.md are enforced by `no-restricted-imports` in
 * eslint.config.js. These tests lint small snippets as if they lived in each
 * floor, so that a rule that stops matching (a renamed folder, a broken
 * pattern) fails here instead of letting the layers blur unnoticed.
 */

const root = path.resolve(__dirname, "../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The no-restricted-imports messages for `source` placed at `file` (relative to the repo root). */
async function floorMessages(file: string, source: string): Promise<string[]> {
  const results = await eslint.lintText(source, { filePath: path.join(root, file) });
  const messages = results.flatMap((result) => result.messages);
  // An ignored or unparsable file answers a message without a rule: every case must really be linted.
  expect(messages.filter((message) => message.ruleId === null)).toEqual([]);
  return messages
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => message.message);
}

const importing = (specifier: string) =>
  `import { thing } from "${specifier}";\nexport const used = thing;\n`;

describe("the floors are enforced by lint", () => {
  it.each([
    [
      "app/lib/server/example.server.ts",
      "~/services/cart.server",
      "app/lib/server is the server's ground floor: it may not import app/services",
    ],
    [
      "app/lib/server/example.server.ts",
      "../services/cart.server",
      "app/lib/server is the server's ground floor: it may not import app/services",
    ],
    [
      "app/lib/server/example.server.ts",
      "~/web/session.server",
      "app/lib/server is the server's ground floor: it may not import app/web",
    ],
    [
      "app/lib/server/example.server.ts",
      "../web/auth.server",
      "app/lib/server is the server's ground floor: it may not import app/web",
    ],
    [
      "app/lib/server/example.server.ts",
      "~/models/db.server",
      "app/lib/server is the server's ground floor: it may not import app/models",
    ],
    [
      "app/lib/server/example.server.ts",
      "../models/db.server",
      "app/lib/server is the server's ground floor: it may not import app/models",
    ],
    [
      "app/lib/server/example.server.ts",
      "~/payments/index.server",
      "app/lib/server is the server's ground floor: it may not import app/payments",
    ],
    [
      "app/lib/shared/example.ts",
      "~/routes/shop",
      "app/lib/shared is the ground floor the browser shares: it may not import app/routes",
    ],
    [
      "app/lib/shared/example.ts",
      "../components/ShopHeader",
      "app/lib/shared is the ground floor the browser shares: it may not import app/components",
    ],
    [
      "app/lib/shared/example.ts",
      "~/services/catalog-rules",
      "app/lib/shared is the ground floor the browser shares: it may not import app/services",
    ],
    [
      "app/services/example.server.ts",
      "~/routes/shop",
      "app/services sit below the web layer and the routes: it may not import app/routes",
    ],
    [
      "app/services/example.server.ts",
      "../web/auth.server",
      "app/services sit below the web layer and the routes: it may not import app/web",
    ],
    [
      "app/services/checkout/example.server.ts",
      "../../web/session.server",
      "app/services sit below the web layer and the routes: it may not import app/web",
    ],
    [
      "app/services/example.server.ts",
      "~/components/ShopHeader",
      "app/services sit below the web layer and the routes: it may not import app/components",
    ],
    [
      "app/components/Example.tsx",
      "~/lib/server/config.server",
      "app/components are presentational and shared by client and server: it may not import a *.server module, only what app/lib/shared shares with the browser",
    ],
    [
      "app/components/Example.tsx",
      "~/web/status-viewer.server",
      "app/components are presentational and shared by client and server: it may not import a *.server module, only what app/lib/shared shares with the browser",
    ],
    [
      "app/components/Example.tsx",
      "~/routes/shop",
      "app/components are presentational and shared by client and server: it may not import app/routes",
    ],
    [
      "app/components/Example.tsx",
      "../routes/shop",
      "app/components are presentational and shared by client and server: it may not import app/routes",
    ],
    [
      "app/models/example.server.ts",
      "~/services/cart.server",
      "app/models sit below the services: it may not import app/services",
    ],
    [
      "app/models/example.server.ts",
      "../web/session.server",
      "app/models sit below the services: it may not import app/web",
    ],
    [
      "app/models/example.server.ts",
      "~/routes/shop",
      "app/models sit below the services: it may not import app/routes",
    ],
    [
      "app/payments/example.server.ts",
      "~/services/checkout/capture.server",
      "app/payments sit below the services: it may not import app/services",
    ],
    [
      "app/payments/example.server.ts",
      "../web/api.server",
      "app/payments sit below the services: it may not import app/web",
    ],
    [
      "app/payments/example.server.ts",
      "~/routes/shop.checkout",
      "app/payments sit below the services: it may not import app/routes",
    ],
    [
      "app/web/example.server.ts",
      "~/routes/shop",
      "app/web sits below the routes: it may not import app/routes",
    ],
    [
      "app/web/openapi/example.server.ts",
      "../../components/ShopHeader",
      "app/web sits below the routes: it may not import app/components",
    ],
  ])("%s may not import %s", async (file, specifier, message) => {
    const messages = await floorMessages(file, importing(specifier));
    expect(messages).toEqual([expect.stringContaining(`${message} (see docs/architecture.md, Floors)`)]);
  });

  it("keeps the server's infrastructure out of what the browser shares", async () => {
    const messages = await floorMessages("app/lib/shared/example.ts", importing("../server/config.server"));
    expect(messages).toEqual([
      expect.stringContaining(
        "app/lib/shared is the ground floor the browser shares: it may not import a *.server module",
      ),
    ]);
  });

  it("names every module of app/lib/server *.server and none of app/lib/shared, so that the rule above sees them", () => {
    const names = (folder: string) => readdirSync(path.join(root, "app/lib", folder));
    expect(names("server").filter((name) => !/\.server\.tsx?$/.test(name))).toEqual([]);
    expect(names("shared").filter((name) => /\.server\.tsx?$/.test(name))).toEqual([]);
  });

  it("counts a type-only import from a server module in a component", async () => {
    const messages = await floorMessages(
      "app/components/Example.tsx",
      'import type { StatusViewer } from "~/web/status-viewer.server";\nexport type Viewer = StatusViewer;\n',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("may not import a *.server module");
  });

  it.each([
    ["app/lib/shared/example.ts", "./money"],
    ["app/lib/server/example.server.ts", "~/lib/server/errors.server"],
    ["app/lib/server/example.server.ts", "../shared/money"],
    ["app/models/example.server.ts", "~/lib/server/config.server"],
    ["app/payments/example.server.ts", "~/models/db.server"],
    ["app/services/example.server.ts", "~/models/db.server"],
    ["app/services/example.server.ts", "~/payments/index.server"],
    ["app/web/example.server.ts", "~/services/cart.server"],
    ["app/components/Example.tsx", "~/lib/shared/cart"],
    ["app/routes/example.tsx", "~/web/auth.server"],
  ])("lets %s import %s (its own floor or one below)", async (file, specifier) => {
    expect(await floorMessages(file, importing(specifier))).toEqual([]);
  });
});
