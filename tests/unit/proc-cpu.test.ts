import { describe, expect, it } from "vitest";
import { machineTicks, stealPercent } from "../../bench/proc-cpu";

describe("the benchmarks' reading of the machine", () => {
  it("reports the hypervisor's steal as a share of the machine's time between two readings", () => {
    expect(stealPercent({ steal: 10, total: 1000 }, { steal: 60, total: 2000 })).toBe(5);
    expect(stealPercent(null, { steal: 0, total: 1 })).toBeNull();
    expect(stealPercent({ steal: 0, total: 5 }, { steal: 0, total: 5 })).toBeNull();
  });

  it("reads the counters from /proc/stat on Linux, growing over time", async () => {
    const before = machineTicks();
    if (!before) return expect(process.platform).not.toBe("linux");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = machineTicks()!;
    expect(after.total).toBeGreaterThan(before.total);
    expect(after.steal).toBeGreaterThanOrEqual(before.steal);
    const steal = stealPercent(before, after)!;
    expect(steal).toBeGreaterThanOrEqual(0);
    expect(steal).toBeLessThanOrEqual(100);
  });
});
