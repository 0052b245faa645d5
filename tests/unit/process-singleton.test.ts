import { describe, expect, it, vi } from "vitest";
import { processSingleton, resetProcessSingletons } from "../../app/lib/server/process-singleton.server";

describe("processSingleton", () => {
  it("builds a value once and hands the same one to every caller", () => {
    const create = vi.fn(() => ({ built: true }));
    const first = processSingleton("test.once", create);
    expect(processSingleton("test.once", create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("is shared by a second copy of the module, as the server and the framework build load one each", async () => {
    const value = processSingleton("test.shared", () => ({}));
    vi.resetModules();
    const copy = await import("../../app/lib/server/process-singleton.server");
    expect(copy.processSingleton).not.toBe(processSingleton);
    expect(copy.processSingleton("test.shared", () => ({}))).toBe(value);
  });

  it("forgets on reset all but the values declared kept across tests", () => {
    const kept = processSingleton("test.kept", () => ({}), { keepAcrossTests: true });
    const dropped = processSingleton("test.dropped", () => ({}));
    resetProcessSingletons();
    expect(processSingleton("test.kept", () => ({}))).toBe(kept);
    expect(processSingleton("test.dropped", () => ({}))).not.toBe(dropped);
  });

  it("forgets only the named values when given names, kept or not", () => {
    const kept = processSingleton("test.named-kept", () => ({}), { keepAcrossTests: true });
    const other = processSingleton("test.other", () => ({}));
    resetProcessSingletons(["test.named-kept"]);
    expect(processSingleton("test.named-kept", () => ({}))).not.toBe(kept);
    expect(processSingleton("test.other", () => ({}))).toBe(other);
  });
});
