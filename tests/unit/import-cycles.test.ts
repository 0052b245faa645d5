import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

/**
 * No import circles in app/ or server/: a circle makes the floors of
 * docs/architecture.md meaningless and the bundler's chunks tangled. Dynamic
 * imports count (a lazily loaded chunk that imports its loader back is a
 * circle all the same), and so do type-only imports: they are erased at run
 * time, but a reader following them goes round in a circle all the same. The
 * options are the README's command line (`npx madge --circular --extensions
 * ts,tsx --ts-config tsconfig.json app server`), so that both agree.
 */
const root = path.resolve(__dirname, "../..");

describe("import graph", () => {
  it("has no circular imports in app/ or server/, type-only and dynamic imports included", async () => {
    const graph = await madge([path.join(root, "app"), path.join(root, "server")], {
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(root, "tsconfig.json"),
      detectiveOptions: {
        ts: { skipTypeImports: false, skipAsyncImports: false },
        tsx: { skipTypeImports: false, skipAsyncImports: false },
      },
    });
    expect(graph.circular()).toEqual([]);
  }, 60_000);

  it("sees a type-only import and a dynamic import as edges of the graph", async () => {
    const graph = await madge(path.join(root, "app/components"), {
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(root, "tsconfig.json"),
      detectiveOptions: {
        ts: { skipTypeImports: false, skipAsyncImports: false },
        tsx: { skipTypeImports: false, skipAsyncImports: false },
      },
    });
    const edges = graph.obj();
    // ToastHost loads the notifications chunk with import(); NotificationsHost imports only a type.
    expect(edges["ToastHost.tsx"]).toContain("NotificationsHost.tsx");
    expect(edges["NotificationsHost.tsx"]).toContain("../lib/shared/toast.ts");
  }, 60_000);
});
