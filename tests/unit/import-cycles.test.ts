import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

/**
 * No import circles in app/ (issue 13): a circle makes the floors of
 * ARCHITECTURE.md meaningless and the bundler's chunks tangled. Dynamic
 * imports count too (a lazily loaded chunk that imports its loader back is
 * a circle all the same).
 */
const root = path.resolve(__dirname, "../..");

describe("import graph", () => {
  it("has no circular imports in app/", async () => {
    const graph = await madge(path.join(root, "app"), {
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(root, "tsconfig.json"),
    });
    expect(graph.circular()).toEqual([]);
  }, 60_000);
});
