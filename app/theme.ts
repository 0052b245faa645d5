import type { MantineThemeOverride } from "@mantine/core";

/**
 * The shop's Mantine theme. Its CSS variables are app/styles/mantine-theme.css
 * (scripts/mantine-theme-css.ts). A plain object with a type-only import:
 * `createTheme` from the package's index would pull all of Mantine into the
 * root chunk of every page (the JavaScript budget, docs/decisions/0008).
 */
export const theme: MantineThemeOverride = { primaryColor: "dark", defaultRadius: "md" };
