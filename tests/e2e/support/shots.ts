import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";

/**
 * Where the specs save the screenshots a person looks at: `SHOTS_DIR=/tmp/shots npx playwright test …`. Unset
 * (as in CI) they save none, and write nothing outside the test run's own folders.
 */
export const SHOTS_DIR = process.env.SHOTS_DIR || undefined;

/** The file for the screenshot or page `name` in SHOTS_DIR (the folder made), or undefined when none is wanted. */
export function shotPath(name: string): string | undefined {
  if (!SHOTS_DIR) return undefined;
  mkdirSync(SHOTS_DIR, { recursive: true });
  return path.join(SHOTS_DIR, name);
}

/** Saves a screenshot of the page (whole, unless `fullPage: false`) or of one element as `name` when SHOTS_DIR is set. */
export async function saveShot(
  target: Page | Locator,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const file = shotPath(name);
  if (!file) return;
  if ("goto" in target) await target.screenshot({ path: file, fullPage });
  else await target.screenshot({ path: file });
}
