/**
 * `run`, shared by the callers that ask while it is under way, without giving any of them an answer older than
 * their own asking: a caller who asks while a run is under way waits for it to end and shares the next run, which
 * starts after everyone it serves had asked. So at most one run is under way and one is waiting, however many
 * callers ask at once, and each caller's answer reflects everything that had happened before it asked (a change
 * committed just before, say) exactly as a run of its own would.
 *
 * A run under way when a caller asks may have started before the caller's change: joining it could return what
 * was before that change, which is why the caller waits for the next run instead.
 *
 * A run that fails fails for the callers that share it; the next caller starts another.
 */
export function sharedByNextRun<T>(run: () => Promise<T>): () => Promise<T> {
  let underWay: Promise<T> | undefined;
  let waiting: Promise<T> | undefined;

  const start = () => {
    const current = run();
    underWay = current;
    const ended = () => {
      if (underWay === current) underWay = undefined;
    };
    current.then(ended, ended);
    return current;
  };

  return () => {
    if (waiting) return waiting;
    if (!underWay) return start();
    const startNext = () => {
      waiting = undefined;
      return start();
    };
    waiting = underWay.then(startNext, startNext);
    return waiting;
  };
}
