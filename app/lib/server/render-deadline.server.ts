/**
 * A render that must finish within `ms`: `abort` is called when it has not settled by then, and the timer goes
 * as soon as it settles. The timer's closure holds the whole render (the page's data, its document, its streams):
 * left to run out after the answer had gone, it kept every page of the last few seconds in memory, about 100 MB
 * under a few hundred pages a second.
 */
export function renderWithin<T>(ms: number, render: Promise<T>, abort: () => void): Promise<T> {
  const deadline = setTimeout(abort, ms);
  deadline.unref();
  return render.finally(() => clearTimeout(deadline));
}
