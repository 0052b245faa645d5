import { processSingleton } from "~/lib/server/process-singleton.server";
import { AppError } from "~/lib/server/errors.server";

/** The turns of the image work (libvips): a bounded queue, so a burst of uploads never takes every core. */

export const QUEUE_FULL_MESSAGE =
  "Too many images are being processed right now. Please try again in a moment.";
const QUEUE_RETRY_AFTER_SECONDS = 10;

/**
 * At most `concurrency` jobs run at once; up to `maxWaiting` more wait their
 * turn; beyond that `run` refuses at once (503), so a burst of uploads queues
 * in bounded memory instead of taking every core from the storefront.
 */
export class ImageQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  get isFull(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.maxWaiting;
  }

  /** Runs `job` in turn. `mayWait` (the backfill, one job at a time) waits even when the queue is full. */
  async run<T>(job: () => Promise<T>, options: { mayWait?: boolean } = {}): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting && !options.mayWait) {
        throw new AppError(503, QUEUE_FULL_MESSAGE, undefined, {
          "Retry-After": String(QUEUE_RETRY_AFTER_SECONDS),
        });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

const current = () => processSingleton<{ queue?: ImageQueue }>("image-queue", () => ({}));

/** This process's queue: one libvips job at a time, eight waiting. */
export function getImageQueue(): ImageQueue {
  return (current().queue ??= new ImageQueue(1, 8));
}

/** For tests: another queue (or the default again with undefined). */
export function setImageQueue(queue: ImageQueue | undefined): void {
  current().queue = queue;
}
