import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mantineThemeCss, THEME_CSS_FILE } from "../../scripts/mantine-theme-css";

/**
 * app/root.tsx renders MantineProvider without its per-request <style>
 * elements; app/styles/mantine-theme.css carries them instead. The file must be
 * exactly what Mantine generates for app/theme.ts, or the look would drift.
 */
describe("the static Mantine theme stylesheet", () => {
  it("holds the CSS variables and global classes Mantine generates for the shop's theme", async () => {
    const expected = await mantineThemeCss();
    expect(expected).toContain("--mantine-primary-color-filled: var(--mantine-color-dark-filled)");
    expect(expected).toContain(".mantine-hidden-from-sm");
    expect(
      readFileSync(THEME_CSS_FILE, "utf8"),
      "app/styles/mantine-theme.css is stale: run npx tsx scripts/mantine-theme-css.ts",
    ).toBe(expected);
  });
});
