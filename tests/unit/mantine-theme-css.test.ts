import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mantineThemeCss, THEME_CSS_FILE } from "../../scripts/mantine-theme-css";

/**
 * app/root.tsx renders MantineProvider without its per-request <style>
 * elements; app/styles/mantine-theme.css carries them instead. The file must be
 * exactly what Mantine generates for app/theme.ts, or the look would drift.
 */
describe("the static Mantine theme stylesheet", () => {
  it("holds Mantine's light-scheme defaults and the variables and global classes it generates for the shop's theme", async () => {
    const expected = await mantineThemeCss();
    expect(expected).toContain("--mantine-primary-color-filled: var(--mantine-color-dark-filled)");
    expect(expected).toContain(".mantine-hidden-from-sm");
    // Mantine's defaults for the light scheme, the only one the shop has; not the dark scheme's.
    expect(expected).toContain("--mantine-color-red-6:");
    expect(expected).toContain("--mantine-color-body: #fff;");
    expect(expected).not.toMatch(/color-scheme=["']dark/);
    expect(
      readFileSync(THEME_CSS_FILE, "utf8"),
      "app/styles/mantine-theme.css is stale: run npx tsx scripts/mantine-theme-css.ts",
    ).toBe(expected);
  });
});
