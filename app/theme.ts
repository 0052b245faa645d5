import type { CSSVariablesResolver, MantineThemeOverride } from "@mantine/core";

/**
 * The shop's Mantine theme. Its CSS variables are app/styles/mantine-theme.css
 * (scripts/mantine-theme-css.ts). A plain object with a type-only import:
 * `createTheme` from the package's index would pull all of Mantine into the
 * root chunk of every page (the JavaScript budget, docs/decisions/0008).
 */
export const theme: MantineThemeOverride = { primaryColor: "dark", defaultRadius: "md" };

/**
 * The shop's own values for Mantine's variables, written into the generated theme files after Mantine's
 * defaults (and so into both the full theme and the shop's part of it, whichever a page loads last).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // WCAG AA: Mantine's "dimmed" grey (gray-6, 3.3:1 on white) is too faint for text; gray-7 keeps 7:1.
  light: { "--mantine-color-dimmed": "var(--mantine-color-gray-7)" },
  dark: {},
});
