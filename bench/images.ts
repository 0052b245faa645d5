import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { createLocalStorage, widthKeyOf } from "../app/lib/server/storage.server";
import { processUpload } from "../app/services/image-processing.server";
import { machineTicks, stealPercent } from "./proc-cpu";

/**
 * The image pipeline on the worst upload it accepts: a 4000×3000 JPEG of
 * noise (about 5 MB, so nothing compresses it small), decoded, turned upright,
 * stripped, re-encoded and stored with every AVIF and WebP width in a local
 * folder, BENCH_ROUNDS (5) times. Prints the median and the peak RSS, and the
 * median CPU time of the process per round: on a shared machine the wall time
 * swings with the neighbours' load, the CPU time much less.
 * `npm run bench:images` (on demand, never in CI).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const noise = randomBytes(4000 * 3000 * 3);
// A slight blur makes the noise look like grain rather than static; still ~5 MB as a JPEG.
const jpeg = await sharp(noise, { raw: { width: 4000, height: 3000, channels: 3 } })
  .blur(0.6)
  .jpeg({ quality: 80 })
  .toBuffer();
console.log(`input: 4000×3000 JPEG, ${(jpeg.length / 1024 / 1024).toFixed(2)} MB`);

const directory = mkdtempSync(path.join(tmpdir(), "bench-images-"));
const storage = createLocalStorage(directory);
let peakRss = process.memoryUsage().rss;
const baselineRss = peakRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);

const load = loadavg()[0] ?? 0;
const ticks = machineTicks();
const times: number[] = [];
const cpuTimes: number[] = [];
let files = 0;
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const processed = await processUpload(jpeg, "jpg");
  const stored = await storage.put({ data: processed.original, extension: "jpg", contentType: "image/jpeg" });
  for (const { width, format, data } of processed.widths) {
    await storage.write(widthKeyOf(stored.key, width, format), { data, contentType: `image/${format}` });
  }
  times.push(performance.now() - started);
  const cpu = process.cpuUsage(cpuBefore);
  cpuTimes.push((cpu.user + cpu.system) / 1000);
  files = 1 + processed.widths.length;
  console.log(`round ${round + 1}: ${Math.round(times.at(-1)!)} ms (CPU ${Math.round(cpuTimes.at(-1)!)} ms)`);
}
clearInterval(sampler);
const steal = stealPercent(ticks, machineTicks());
rmSync(directory, { recursive: true, force: true });

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `median ${Math.round(medianOf(times))} ms (CPU ${Math.round(medianOf(cpuTimes))} ms) over ${ROUNDS} rounds (${files} files each); ` +
    `peak RSS ${Math.round(peakRss / 1024 / 1024)} MB (${Math.round(baselineRss / 1024 / 1024)} MB before); ` +
    `load average ${load.toFixed(2)} before; steal ${steal === null ? "n/a" : `${steal.toFixed(1)} %`}`,
);
