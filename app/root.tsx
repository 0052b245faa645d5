import {
  data,
  isRouteErrorResponse,
  Links,
  type LinksFunction,
  type LoaderFunctionArgs,
  Meta,
  type MetaFunction,
  Outlet,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { useEffect, type ReactNode } from "react";
import { FlashToast } from "~/components/FlashToast";
import { ClientLinkNavigation } from "~/components/PlainLink";
import { ToastHost } from "~/components/ToastHost";
import { MantineProvider } from "@mantine/core";
import { InlineStyles, linksStylesheets, PageStylesheets } from "~/lib/shared/inline-styles";
import { useNonce } from "~/lib/shared/nonce";
import { PageScripts } from "~/lib/shared/page-scripts";
import { OUTAGE_PAGE_TEXT } from "~/lib/shared/status-pages";
import { readFlash } from "~/web/session.server";
import appStyles from "~/styles/app.css?url";
import { honestAnswers, sharedCaching } from "~/web/http-middleware.server";
import { theme } from "~/theme";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  // Mantine's base and theme variables with the shell's rules, one file. Mantine's component styles are linked
  // by the areas that render Mantine components (admin, auth, the payment simulator), and loaded with the
  // storefront's drawer, modal and notifications (docs/decisions/0008).
  { rel: "stylesheet", href: appStyles },
];

export const meta: MetaFunction = () => [
  { title: "ECommerce Shopping" },
  {
    name: "description",
    content: "Clothing, footwear and accessories from Nike, Adidas, Puma, Levi's, Zara and H&M.",
  },
];

export const middleware = [honestAnswers, sharedCaching];

export async function loader({ request }: LoaderFunctionArgs) {
  const { flash, setCookie } = await readFlash(request);
  return data({ flash }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  // A page whose route asks for it (the 404 page) links its stylesheets instead of carrying them inline.
  const linked = useMatches().some((match) => linksStylesheets(match.handle));
  return (
    // Light only (no colour scheme switch): the attribute Mantine's ColorSchemeScript would set, without the script.
    <html lang="en" data-mantine-color-scheme="light" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The first paint's CSS: the page's stylesheets inline, linked below for the cache (decision 0019). */}
        {linked ? <Links /> : <InlineStyles nonce={nonce} />}
      </head>
      <body>
        <MantineProvider
          theme={theme}
          defaultColorScheme="light"
          getStyleNonce={() => nonce}
          withCssVariables={false}
          withGlobalClasses={false}
        >
          <a href="#main-content" className="skip-link">
            Skip to content
          </a>
          <ClientLinkNavigation />
          <ToastHost />
          <FlashToast toast={data?.flash} />
          {children}
        </MantineProvider>
        {linked ? null : <PageStylesheets />}
        <ScrollRestoration nonce={nonce} />
        {/* React Router's <Scripts>, started once the main picture has painted (decision 0041). */}
        <PageScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Marks the page once React has hydrated it: end-to-end tests and the page-weight bench wait for it.
  useEffect(() => document.documentElement.setAttribute("data-hydrated", ""), []);
  return <Outlet />;
}

/** What a status page says: our own words for the statuses a shopper can meet, the server's message for 4xx we raise. */
function statusPageText(status: number, data: unknown, statusText: string): string {
  if (status === 404) return "page doesn't exists";
  if (status === 403) return "You don't have access to view this page";
  if (status === 405) return "This page cannot do that. Please use the page's own buttons and links.";
  if (status === 503) return OUTAGE_PAGE_TEXT;
  if (status >= 400 && status < 500 && typeof data === "string" && data.length > 0 && data.length < 300) {
    return data;
  }
  return statusText || "Something went wrong";
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const text = statusPageText(error.status, error.data, error.statusText);
    return (
      <main className="status-page" id="main-content" tabIndex={-1}>
        <h1>{error.status === 503 ? "We'll be right back" : error.status}</h1>
        <p>{text}</p>
        <a href="/">Go to the start page</a>
      </main>
    );
  }
  return (
    <main className="status-page" id="main-content" tabIndex={-1}>
      <h1>Something went wrong</h1>
      <p>We could not show this page. Please try again in a moment.</p>
      <a href="/">Go to the start page</a>
    </main>
  );
}
