import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

/**
 * No import circles in app/ (issue 13): a circle makes the floors of
 * ARCHITECTURE.md meaningless and the bundler's chunks tangled. Dynamic
 * imports count too (a lazily loaded chunk that imports its loader back is
 * a circle all the same); type-only imports do not.
 */
const root = path.resolve(__dirname, "../..");

describe("import graph", () => {
  it("has no circular imports in app/", async () => {
    const graph = await madge(path.join(root, "app"), {
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(root, "tsconfig.json"),
      // `import type` is erased at compile time: it cannot form a circle at run time.
      detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
    });
    expect(graph.circular()).toEqual([]);
  }, 60_000);
});
