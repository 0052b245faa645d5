import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithin } from "~/lib/server/render-deadline.server";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a document's render deadline", () => {
  it("goes as soon as the render has finished, so that nothing holds the finished page", async () => {
    const abort = vi.fn();
    await expect(renderWithin(11_000, Promise.resolve("page"), abort)).resolves.toBe("page");
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(20_000);
    expect(abort).not.toHaveBeenCalled();
  });

  it("goes when the render fails too, which fails as it did", async () => {
    const abort = vi.fn();
    await expect(renderWithin(11_000, Promise.reject(new Error("shell")), abort)).rejects.toThrow("shell");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborts a render that has not finished in time", async () => {
    const abort = vi.fn();
    void renderWithin(11_000, new Promise(() => {}), abort);
    vi.advanceTimersByTime(10_999);
    expect(abort).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(abort).toHaveBeenCalledOnce();
  });
});
