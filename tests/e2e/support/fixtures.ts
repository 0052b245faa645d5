import { expect, test as base, type APIRequestContext, type Locator, type Page } from "@playwright/test";

export const DEMO_ADMIN = { email: "admin@example.com", password: "admin12345" };
export const DEMO_SHOPPER = { email: "shopper@example.com", password: "shopper12345" };

export interface Credentials {
  email: string;
  password: string;
}

/** Fills and submits the sign-in form of the page that is open (keeps its redirectTo). */
export async function submitSignIn(page: Page, credentials: Credentials) {
  await page.getByRole("textbox", { name: "Email" }).fill(credentials.email);
  await page.getByRole("textbox", { name: "Password" }).fill(credentials.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Signs in through the real form (works with and without JavaScript). */
export async function signIn(page: Page, credentials: Credentials) {
  await page.goto("/auth/login");
  await submitSignIn(page, credentials);
}

/**
 * Signs in through the JSON API: the session cookie lands in the page's
 * browser context. For tests about what a signed-in user sees, not about the form.
 */
export async function signInByApi(page: Page, credentials: Credentials) {
  const response = await page.request.post("/api/auth/login", { data: credentials });
  expect(response.status(), "sign-in through the API").toBe(200);
}

/** A unique address for a shopper registered by one test. */
export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Registers a fresh shopper through the JSON API (no session is started). */
export async function registerShopper(
  request: APIRequestContext,
  overrides: Partial<{ userName: string; email: string; password: string }> = {},
) {
  const shopper = {
    userName: "E2E Shopper",
    email: uniqueEmail(),
    password: "e2e-password-123",
    ...overrides,
  };
  const response = await request.post("/api/auth/register", { data: shopper });
  expect(response.status(), "registration through the API").toBe(201);
  return shopper;
}

/**
 * A server message (the spec's toast). Without JavaScript it is the flash
 * markup that the server renders; with JavaScript that markup hands over to a
 * Mantine notification, rendered in a portal.
 */
export function toast(page: Page, message: string): Locator {
  return test.info().project.use.javaScriptEnabled === false
    ? page.getByTestId("flash-toast").filter({ hasText: message })
    : page.getByRole("alert").filter({ hasText: message }).and(page.locator(".mantine-Notification-root"));
}

/**
 * With JavaScript, waits until the page's scripts have run and React has hydrated it (`html[data-hydrated]`,
 * set by the root route), which can come after the load event that `goto` waits for; a test that acts earlier
 * meets the page as it works without JavaScript. A document of ours that runs no module script (JSON, a
 * picture, the short pages the HTTP server answers itself) has nothing to wait for.
 */
async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () =>
      document.documentElement.hasAttribute("data-hydrated") ||
      // The page's module script waits in a template until its main picture has painted (decision 0041).
      document.querySelector('script[type="module"], template[data-page-scripts]') === null,
  );
}

/** `goto` and `reload` of a page with JavaScript return once the page has hydrated (unless asked for less). */
function waitForHydrationOnLoad(page: Page) {
  for (const method of ["goto", "reload"] as const) {
    const load = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page["goto"]>;
    page[method] = (async (...args: unknown[]) => {
      const response = await load(...args);
      const options = args.find(
        (arg): arg is { waitUntil?: string } => typeof arg === "object" && arg !== null,
      );
      if (options?.waitUntil !== "commit") await waitForHydration(page);
      return response;
    }) as never;
  }
}

export const test = base.extend({
  context: async ({ context, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled !== false) {
      context.pages().forEach(waitForHydrationOnLoad);
      context.on("page", waitForHydrationOnLoad);
    }
    await provide(context);
  },
});
export { expect };

/**
 * The page a request is for: its path, without the `.data` that React Router adds when the browser, with
 * JavaScript, asks for a page's data or posts a form (`/shop/cart.data` is the cart page's).
 */
export function pagePathOf(url: string | URL): string {
  return new URL(url).pathname.replace(/\.data$/, "");
}

/** Whether a request is one of React Router's data requests (a page's data, fetched by the browser). */
export function isDataRequest(url: string | URL): boolean {
  return new URL(url).pathname.endsWith(".data");
}
