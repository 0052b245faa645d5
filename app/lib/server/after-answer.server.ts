import { getLogger } from "./logger.server";
import { processSingleton } from "./process-singleton.server";

/**
 * Work a request starts and does not wait for: the answer must not tell by its time whether there was
 * any (a reset link for an address with an account, a claim link for an address with guest orders;
 * docs/decisions/0011-forgot-password-answers-before-the-work.md). A failure is logged, since nobody waits
 * for it. One set per process (the HTTP server, which waits for it at shutdown, and the framework's
 * server build, which starts it, are separate module graphs).
 */

const pending = () => processSingleton("work-after-answer", () => new Set<Promise<void>>());

/** Starts `work` beside the answer; `what` names it in the log when it fails. */
export function afterAnswer(what: string, work: () => Promise<void>): void {
  const running = pending();
  const done: Promise<void> = Promise.resolve()
    .then(work)
    .catch((error: unknown) => getLogger().error({ err: error }, `${what} could not be written`))
    .finally(() => running.delete(done));
  running.add(done);
}

/** Resolves once every piece of work started so far has finished (or failed). */
export async function settleWorkAfterAnswers(): Promise<void> {
  const running = pending();
  while (running.size > 0) await Promise.all([...running]);
}
