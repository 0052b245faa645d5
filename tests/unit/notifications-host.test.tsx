// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { MantineProvider } from "@mantine/core";
import { notifications, notificationsStore } from "@mantine/notifications";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import NotificationsHost, { showNotification, TOAST_MS } from "../../app/components/NotificationsHost";

// What Mantine asks of a browser that jsdom lacks.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let container: HTMLDivElement;

beforeEach(() => {
  vi.useFakeTimers();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  act(() => root.render(createElement(MantineProvider, null, createElement(NotificationsHost))));
});

afterEach(() => {
  act(() => notifications.clean());
  act(() => root.unmount());
  container.remove();
  vi.useRealTimers();
});

const show = (message: string) => act(() => showNotification({ type: "success", message }, message));
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** The messages Mantine shows (one leaving the screen is no longer among them). */
const shown = () => notificationsStore.getState().notifications.map((notification) => notification.message);

describe("a toast", () => {
  it("stays its whole time when it replaces one that was about to close", () => {
    show("Product updated successfully");
    wait(TOAST_MS - 100);
    show("Product deleted successfully");
    expect(shown()).toEqual(["Product deleted successfully"]);
    expect(document.body.textContent).toContain("Product deleted successfully");
    // The first toast's time is up; the second is still there.
    wait(1000);
    expect(shown()).toEqual(["Product deleted successfully"]);
    wait(TOAST_MS - 1000 - 100);
    expect(shown()).toEqual(["Product deleted successfully"]);
    // Its own time up, it goes.
    wait(200);
    expect(shown()).toEqual([]);
  });

  it("goes after its time when none was on screen before it", () => {
    show("Product added successfully");
    wait(TOAST_MS - 100);
    expect(shown()).toEqual(["Product added successfully"]);
    wait(200);
    expect(shown()).toEqual([]);
  });
});
