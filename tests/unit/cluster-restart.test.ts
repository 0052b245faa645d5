import { describe, expect, it } from "vitest";
import { restartDelayMs } from "../../server/cluster";

describe("replacing a crashed worker", () => {
  it("replaces a worker that had been running at once", () => {
    expect(restartDelayMs(0)).toBe(0);
  });

  it("waits longer after every crash soon after start, up to 30 s, so a worker that cannot boot does not spin", () => {
    expect([1, 2, 3, 4, 5, 6].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
    expect(restartDelayMs(50)).toBe(30_000);
  });
});
