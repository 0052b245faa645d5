import { describe, expect, it } from "vitest";
import { sharedByNextRun } from "../../app/lib/server/next-run.server";

/** A run whose end the test decides: each start is recorded with the value it will give. */
function controlledRuns() {
  const runs: { resolve: (value: string) => void; reject: (error: Error) => void }[] = [];
  const run = () =>
    new Promise<string>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return { runs, run };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("sharedByNextRun", () => {
  it("starts a run at once for a caller when none is under way", async () => {
    const { runs, run } = controlledRuns();
    const shared = sharedByNextRun(run);
    const answer = shared();
    expect(runs).toHaveLength(1);
    runs[0]!.resolve("first");
    await expect(answer).resolves.toBe("first");
  });

  it("gives callers who ask while a run is under way the next run, which starts after they asked", async () => {
    const { runs, run } = controlledRuns();
    const shared = sharedByNextRun(run);
    const first = shared();
    const second = shared();
    const third = shared();
    // The run under way may have begun before the second and third callers' changes: they do not join it.
    expect(runs).toHaveLength(1);

    runs[0]!.resolve("begun before the others asked");
    await settled();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve("begun after the others asked");

    await expect(first).resolves.toBe("begun before the others asked");
    await expect(second).resolves.toBe("begun after the others asked");
    await expect(third).resolves.toBe("begun after the others asked");
  });

  it("keeps at most one run under way and one waiting, however many callers ask", async () => {
    const { runs, run } = controlledRuns();
    const shared = sharedByNextRun(run);
    const answers = Array.from({ length: 50 }, () => shared());
    expect(runs).toHaveLength(1);
    runs[0]!.resolve("a");
    await settled();
    // Callers who ask while the second run is under way wait for a third.
    const later = shared();
    expect(runs).toHaveLength(2);
    runs[1]!.resolve("b");
    await settled();
    expect(runs).toHaveLength(3);
    runs[2]!.resolve("c");

    expect(await Promise.all(answers)).toEqual(["a", ...Array(49).fill("b")]);
    await expect(later).resolves.toBe("c");
  });

  it("fails a run's callers with its error, and the next caller starts afresh", async () => {
    const { runs, run } = controlledRuns();
    const shared = sharedByNextRun(run);
    const first = shared();
    const second = shared();
    runs[0]!.reject(new Error("database out of reach"));
    await expect(first).rejects.toThrow("database out of reach");
    await settled();
    runs[1]!.reject(new Error("still out of reach"));
    await expect(second).rejects.toThrow("still out of reach");

    const third = shared();
    expect(runs).toHaveLength(3);
    runs[2]!.resolve("back");
    await expect(third).resolves.toBe("back");
  });
});
