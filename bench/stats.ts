import os from "node:os";

/** The middle value (the mean of the two middle ones for an even count) of several rounds. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The machine's load average over 1, 5 and 15 minutes, as a results file notes it: "1.30, 6.69, 8.57". */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
}
