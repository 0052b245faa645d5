import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  mantineThemeCss,
  SHOP_THEME_CSS_FILE,
  shopThemeCss,
  shopThemeCssFormatted,
  THEME_CSS_FILE,
} from "../../scripts/mantine-theme-css";

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

  it("gives every page only the variables the shop's own rules use, with what their values refer to", async () => {
    const full = await mantineThemeCss();
    const shop = shopThemeCss(full);
    const defined = (css: string) =>
      new Set([...css.matchAll(/(--mantine-[\w-]+):/g)].map((match) => match[1]));
    const shopVariables = defined(shop);
    // storefront.css colours its borders and prices with these.
    expect(shopVariables).toContain("--mantine-color-gray-5");
    expect(shopVariables).toContain("--mantine-radius-md");
    // A value that refers to another variable brings it along.
    expect(shop).toContain("--mantine-primary-color-filled: var(--mantine-color-dark-filled)");
    expect(shopVariables).toContain("--mantine-color-dark-filled");
    // Nothing but the full theme's variables, and far fewer of them; no responsive classes.
    const fullVariables = defined(full);
    for (const name of shopVariables) expect(fullVariables).toContain(name);
    expect(shopVariables.size).toBeLessThan(fullVariables.size / 3);
    expect(shop).not.toContain(".mantine-hidden-from");
    for (const [, reference] of shop.matchAll(/var\((--mantine-[\w-]+)/g))
      expect(shopVariables).toContain(reference);
    expect(
      readFileSync(SHOP_THEME_CSS_FILE, "utf8"),
      "app/styles/shop-theme.css is stale: run npx tsx scripts/mantine-theme-css.ts",
    ).toBe(await shopThemeCssFormatted(full));
  });
});
