import { createTheme } from "@mantine/core";

/** The shop's Mantine theme. Its CSS variables are app/styles/mantine-theme.css (scripts/mantine-theme-css.ts). */
export const theme = createTheme({ primaryColor: "dark", defaultRadius: "md" });
