import { expect, test as base, type Page } from "@playwright/test";

export const DEMO_ADMIN = { email: "admin@example.com", password: "admin12345" };
export const DEMO_SHOPPER = { email: "shopper@example.com", password: "shopper12345" };

/** Signs in through the real form (works with and without JavaScript). */
export async function signIn(page: Page, credentials: { email: string; password: string }) {
  await page.goto("/auth/login");
  await page.getByRole("textbox", { name: "Email" }).fill(credentials.email);
  await page.getByRole("textbox", { name: "Password" }).fill(credentials.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** A unique address for a shopper registered by one test. */
export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export const test = base;
export { expect };
